package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// threadGame is a game played in a thread of parent, opened as the
// rematch of rematchOf when not empty.
func threadGame(channel, guild, parent, rematchOf string) *GameRecord {
	rec := sampleGame(channel, guild, 3)
	rec.Options["parent"] = parent
	if rematchOf != "" {
		rec.Options["rematch_of"] = rematchOf
	}
	return rec
}

// The indexes say what the records say after every kind of write.
func TestIndexesFollowTheRecords(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, threadGame("t1", "g1", "p1", ""))
		mustPut(t, s, threadGame("t2", "g1", "p1", "old-game"))
		mustPut(t, s, threadGame("t3", "g2", "p2", ""))
		mustPut(t, s, sampleGame("c4", "g1", 1))
		checkIndexes(t, s)
		if ths, _ := s.Threads("p1"); len(ths) != 2 || ths[0].Channel != "t1" || !reflect.DeepEqual(ths[0].Members, []string{"u1"}) {
			t.Fatalf("threads of p1: %+v", ths)
		}
		if ch, err := s.RematchOf("old-game"); err != nil || ch != "t2" {
			t.Fatalf("rematch: %q %v", ch, err)
		}
		// A seat changes hands, a game ends, one is deleted, a server forgets.
		if err := s.Update("t1", func(r *GameRecord) error {
			r.Seats[1] = Seat{UserID: "u9", Name: "Zoe"}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if ths, _ := s.Threads("p1"); !reflect.DeepEqual(ths[0].Members, []string{"u1", "u9"}) {
			t.Fatalf("members after a seat changed: %+v", ths)
		}
		if _, err := s.Archive("t2", ArchiveResult{}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RematchOf("old-game"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("rematch of an archived game: %v", err)
		}
		if err := s.Delete("c4"); err != nil {
			t.Fatal(err)
		}
		checkIndexes(t, s)
		if _, _, err := s.ForgetGuild("g2"); err != nil {
			t.Fatal(err)
		}
		checkIndexes(t, s)
		if ths, _ := s.Threads("p2"); len(ths) != 0 {
			t.Fatalf("threads of a forgotten server: %+v", ths)
		}
		guilds, err := s.Guilds()
		if err != nil || !reflect.DeepEqual(guilds, []string{"g1"}) {
			t.Fatalf("guilds %v %v", guilds, err)
		}
		if live, archived, err := s.GuildCounts("g1"); live != 1 || archived != 1 || err != nil {
			t.Fatalf("g1 counts %d live %d archived %v", live, archived, err)
		}
	})
}

// checkIndexes compares every index with one derived from the headers.
func checkIndexes(t *testing.T, s *Store) {
	t.Helper()
	if onPostgres(t) {
		checkIndexColumns(t, s)
		return
	}
	err := s.file.db.View(func(tx *bolt.Tx) error {
		want := map[string]map[string]string{}
		for _, b := range indexBuckets {
			want[string(b)] = map[string]string{}
		}
		tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			rec, err := decodeHeader(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range indexEntries(string(k), rec) {
				want[string(e.bucket)][string(e.key)] = string(e.value)
			}
			return nil
		})
		for _, b := range indexBuckets {
			got := map[string]string{}
			tx.Bucket(b).ForEach(func(k, v []byte) error {
				got[string(k)] = string(v)
				return nil
			})
			if !reflect.DeepEqual(got, want[string(b)]) {
				t.Errorf("%s holds %q, the records say %q", b, got, want[string(b)])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkIndexColumns compares PostgreSQL's index columns of every game with
// what its header says.
func checkIndexColumns(t *testing.T, s *Store) {
	t.Helper()
	rows, err := pgPool(t, s).Query(context.Background(),
		"SELECT channel, guild, status, parent, members, rematch_of, due_ns, due_kind, header FROM games")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var channel, guild, status string
		var parent, seated, rematch, dueKind *string
		var dueNs *int64
		var raw []byte
		if err := rows.Scan(&channel, &guild, &status, &parent, &seated, &rematch, &dueNs, &dueKind, &raw); err != nil {
			t.Fatal(err)
		}
		rec, err := decodeHeader(raw)
		if err != nil {
			t.Fatal(err)
		}
		str := func(p *string) string {
			if p == nil {
				return "NULL"
			}
			return *p
		}
		wantDue, wantKind := "NULL", "NULL"
		if rec.Due != nil && !rec.Due.At.IsZero() {
			wantDue, wantKind = fmt.Sprint(rec.Due.At.UnixNano()), rec.Due.Kind
		}
		gotDue := "NULL"
		if dueNs != nil {
			gotDue = fmt.Sprint(*dueNs)
		}
		wantParent, wantMembers := "NULL", "NULL"
		if p := rec.Options["parent"]; p != "" {
			wantParent, wantMembers = p, strings.Join(members(rec), ",")
		}
		wantRematch := "NULL"
		if r := rec.Options["rematch_of"]; r != "" {
			wantRematch = r
		}
		got := []string{guild, status, str(parent), str(seated), str(rematch), gotDue, str(dueKind)}
		want := []string{rec.Guild, rec.Status, wantParent, wantMembers, wantRematch, wantDue, wantKind}
		if channel != rec.Channel || !reflect.DeepEqual(got, want) {
			t.Errorf("%s's columns say %q, its header %q", channel, got, want)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// Deadlines are listed earliest first, up to a time; a move and the
// deadline it sets, a reminder and the deadline it moves, commit together.
func TestDeadlines(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for i, ch := range []string{"a", "b", "c"} {
			rec := sampleGame(ch, "g1", 1)
			rec.Due = &Deadline{At: base.Add(time.Duration(3-i) * time.Hour), Kind: "turn", Moves: 1}
			mustPut(t, s, rec)
		}
		mustPut(t, s, sampleGame("none", "g1", 1))
		due, err := s.Due(base.Add(2*time.Hour), 10)
		if err != nil || len(due) != 2 || due[0].Channel != "c" || due[1].Channel != "b" || due[0].Kind != "turn" || !due[0].At.Equal(base.Add(time.Hour)) {
			t.Fatalf("due: %+v %v", due, err)
		}
		if next, ok, err := s.NextDue(); !ok || err != nil || next.Channel != "c" {
			t.Fatalf("next: %+v %v %v", next, ok, err)
		}
		later := &Deadline{At: base.Add(5 * time.Hour), Kind: "turn", Stage: 1, Moves: 1}
		if err := s.SetDue("c", later, OutboxEntry{Payload: []byte(`"reminder"`)}); err != nil {
			t.Fatal(err)
		}
		if next, _, _ := s.NextDue(); next.Channel != "b" {
			t.Fatalf("next after c moved: %+v", next)
		}
		if posts, _ := s.Outbox("c"); len(posts) != 1 {
			t.Fatalf("the reminder was not queued with its deadline: %v", posts)
		}
		if rec := mustGet(t, s, "c"); !reflect.DeepEqual(rec.Due, later) {
			t.Fatalf("c's deadline %+v", rec.Due)
		}
		n, err := s.Commit("b", MoveCommit{Entry: LogEntry{Action: "draw deck"}, SetDue: true, Due: nil})
		if err != nil || n != 1 {
			t.Fatal(n, err)
		}
		due, _ = s.Due(base.Add(24*time.Hour), 10)
		if len(due) != 2 || due[0].Channel != "a" || due[1].Channel != "c" {
			t.Fatalf("due after b's move cleared its deadline: %+v", due)
		}
		checkIndexes(t, s)
	})
}

// Loading a game brings its snapshot and parked state; a cut below the
// snapshot drops it.
func TestLoadSnapshotAndPark(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 3))
		snap := &Snapshot{Moves: 4, Data: []byte("state after 4")}
		if _, err := s.Commit("c1", MoveCommit{Entry: LogEntry{Action: "x"}, Snapshot: snap}); err != nil {
			t.Fatal(err)
		}
		if err := s.Park("c1", []byte("a vote")); err != nil {
			t.Fatal(err)
		}
		l, err := s.Load("c1")
		if err != nil || len(l.Record.Log) != 4 || !reflect.DeepEqual(l.Snapshot, snap) || string(l.Parked) != "a vote" {
			t.Fatalf("loaded %+v %v", l, err)
		}
		if _, err := s.Commit("c1", MoveCommit{Entry: LogEntry{Action: "y"}, Snapshot: &Snapshot{Moves: 9}}); err == nil {
			t.Fatal("a snapshot ahead of the log was stored")
		}
		if err := s.Park("c1", nil); err != nil {
			t.Fatal(err)
		}
		if err := s.Update("c1", func(r *GameRecord) error { r.Log = r.Log[:3]; return nil }); err != nil {
			t.Fatal(err)
		}
		if l, _ := s.Load("c1"); l.Snapshot != nil || l.Parked != nil {
			t.Fatalf("after an undo below the snapshot: %+v", l)
		}
		if err := s.Park("none", []byte("x")); !errors.Is(err, ErrNotFound) {
			t.Fatalf("park without a game: %v", err)
		}
	})
}

// A crash between a record and its index entry cannot happen: they are
// written in one transaction. A process that dies after writing a
// header and before its index entries leaves neither.
func TestCrashBetweenRecordAndIndex(t *testing.T) {
	if os.Getenv("STORE_CRASH_CHILD") != "" {
		s, err := Open(os.Getenv("STORE_CRASH_DB"), nil)
		if err != nil {
			os.Exit(2)
		}
		afterHeader = func() { os.Exit(3) } // the process dies mid-transaction
		rec := threadGame("t2", "g1", "p1", "old-game")
		rec.Due = &Deadline{At: base, Kind: "turn"}
		s.Put(rec)
		os.Exit(4)
	}
	path := t.TempDir() + "/crash.db"
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, threadGame("t1", "g1", "p1", ""))
	s.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashBetweenRecordAndIndex$")
	cmd.Env = append(os.Environ(), "STORE_CRASH_CHILD=1", "STORE_CRASH_DB="+path)
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("the child did not die between the record and its index: %v", err)
	}
	s = openAt(t, path)
	if _, err := s.Get("t2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the record of the interrupted write: %v", err)
	}
	ths, _ := s.Threads("p1")
	due, _ := s.Due(base.Add(time.Hour), 10)
	if len(ths) != 1 || len(due) != 0 {
		t.Fatalf("indexes after the crash: threads %+v, due %+v", ths, due)
	}
	checkIndexes(t, s)
	// In the same process, a failure at that point rolls both back too.
	afterHeader = func() { panic("boom") }
	func() {
		defer func() { recover() }()
		s.Put(threadGame("t3", "g1", "p1", ""))
	}()
	afterHeader = nil
	if ths, _ := s.Threads("p1"); len(ths) != 1 || slices.ContainsFunc(ths, func(th Thread) bool { return th.Channel == "t3" }) {
		t.Fatalf("threads after a failed write: %+v", ths)
	}
	checkIndexes(t, s)
}

// Importing a newer copy of a game replaces its log (even a shorter one,
// after an undo) and re-derives its index entries; removing it takes them.
func TestImportReplacesAGameWithItsLogAndIndexes(t *testing.T) {
	src, _ := openTemp(t)
	dst, _ := openTemp(t)
	old := threadGame("t1", "g1", "p1", "")
	old.Log = sampleGame("t1", "g1", 2*chunkLen+1).Log
	mustPut(t, dst, old)
	newer := threadGame("t1", "g1", "p9", "")
	newer.Log = old.Log[:5]
	newer.Due = &Deadline{At: base, Kind: "turn"}
	mustPut(t, src, threadGame("t2", "g1", "p9", "x"))
	mustPut(t, src, newer) // updated after dst's copy (each store's clock ticks per write)
	b, err := src.Export(Selection{Guild: "g1", Channels: []string{"t1", "t2"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := dst.Import(b); err != nil {
		t.Fatal(err)
	}
	got := mustGet(t, dst, "t1")
	if len(got.Log) != 5 || got.Options["parent"] != "p9" {
		t.Fatalf("imported: %d moves, %v", len(got.Log), got.Options)
	}
	checkIndexes(t, dst)
	if ths, _ := dst.Threads("p9"); len(ths) != 2 {
		t.Fatalf("threads of p9 after the import: %+v", ths)
	}
	if err := src.Remove(b); err != nil {
		t.Fatal(err)
	}
	checkIndexes(t, src)
	if ths, _ := src.Threads("p9"); len(ths) != 0 {
		t.Fatalf("threads left in the source: %+v", ths)
	}
	src.file.db.View(func(tx *bolt.Tx) error {
		if k, _ := tx.Bucket(bucketLogs).Cursor().First(); k != nil {
			t.Errorf("log left in the source: %q", k)
		}
		return nil
	})
}
