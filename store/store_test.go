package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	berrors "go.etcd.io/bbolt/errors"
)

func TestOpenNewFileHasCurrentSchema(t *testing.T) {
	s, path := openTemp(t)
	v, err := s.SchemaVersion()
	if err != nil || v != CurrentSchema {
		t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, CurrentSchema)
	}
	if s.Path() != path {
		t.Fatalf("Path = %s, want %s", s.Path(), path)
	}
	from, to, err := s.Migrate()
	if err != nil || from != CurrentSchema || to != CurrentSchema {
		t.Fatalf("Migrate on a current file = %d, %d, %v", from, to, err)
	}
}

func TestSecondOpenFailsFastWithClearMessage(t *testing.T) {
	_, path := openTemp(t)
	second, err := Open(path, &Options{Timeout: 100 * time.Millisecond})
	if err == nil {
		second.Close()
		t.Fatal("second Open of a locked file succeeded")
	}
	if !errors.Is(err, ErrLocked) || !errors.Is(err, berrors.ErrTimeout) {
		t.Fatalf("error %v is not ErrLocked wrapping bbolt's timeout", err)
	}
	for _, want := range []string{path, "another conductor is probably running", "same database file", "CONDUCTOR_DB"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestReopenAfterCloseKeepsEverything(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		path := newDB(t)
		s, err := Open(path, &Options{Timeout: testTimeout})
		if err != nil {
			t.Fatal(err)
		}
		live := sampleGame("c1", "g1", 3)
		mustPut(t, s, live)
		if _, err := s.AppendAction("c1", LogEntry{Seat: 1, Action: "draw 2 4", At: base, Interaction: "after-put"}); err != nil {
			t.Fatal(err)
		}
		mustPut(t, s, sampleGame("c2", "g1", 4))
		result := ArchiveResult{Finished: base, Players: []PlayerResult{{UserID: "u1", Name: "Ada", Score: 99, Rank: 1, Won: true}}}
		if _, err := s.Archive("c2", result); err != nil {
			t.Fatal(err)
		}
		wantLive := mustGet(t, s, "c1")
		wantArchive, err := s.Archived("g1")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}

		s = openAt(t, path)
		assertSame(t, mustGet(t, s, "c1"), wantLive)
		gotArchive, err := s.Archived("g1")
		if err != nil || len(gotArchive) != 1 || gotArchive[0].Key != wantArchive[0].Key || gotArchive[0].Players[0].Score != 99 {
			t.Fatalf("archive after restart: %+v, %v; want %+v", gotArchive, err, wantArchive)
		}
		if _, err := s.AppendAction("c1", LogEntry{Action: "again", Interaction: "after-put"}); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("interaction index lost on restart: %v", err)
		}
		if _, err := s.Get("c2"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("archived game is live again: %v", err)
		}
	})
}

func TestClosedStoreRefusesWork(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		s.Close()
		if _, err := s.Get("c1"); err == nil {
			t.Fatal("Get on a closed store succeeded")
		}
	})
}
