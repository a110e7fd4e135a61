package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestMigrationsCoverCurrentSchema(t *testing.T) {
	if len(migrations) != CurrentSchema {
		t.Fatalf("%d migrations for schema %d: each version needs one step from the one before",
			len(migrations), CurrentSchema)
	}
}

// writeRawDB builds a file by hand with bbolt, as an older or newer build
// would have left it.
func writeRawDB(t *testing.T, fill func(tx *bolt.Tx) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "conductor.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fill); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewerSchemaRefused(t *testing.T) {
	path := writeRawDB(t, func(tx *bolt.Tx) error {
		if err := createBuckets(tx); err != nil {
			return err
		}
		return writeVersion(tx, CurrentSchema+1)
	})
	s, err := Open(path, &Options{Timeout: testTimeout})
	if err == nil {
		s.Close()
		t.Fatal("Open accepted a newer schema")
	}
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("error %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{fmt.Sprintf("schema version %d", CurrentSchema+1), fmt.Sprintf("up to %d", CurrentSchema), "newer conductor"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// The refusal released the file.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: testTimeout})
	if err != nil {
		t.Fatalf("file still locked after refusal: %v", err)
	}
	db.Close()
}

func TestUnreadableSchemaVersionRefused(t *testing.T) {
	path := writeRawDB(t, func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		return meta.Put(keySchema, []byte("one"))
	})
	if s, err := Open(path, &Options{Timeout: testTimeout}); err == nil || !strings.Contains(err.Error(), "unreadable schema") {
		if s != nil {
			s.Close()
		}
		t.Fatalf("Open of a file with schema %q: %v", "one", err)
	}
}

// version0Games writes the unversioned layout: games/<channel> is the whole
// record as one JSON value, and there is no meta bucket.
func version0Games(t *testing.T, recs ...*GameRecord) string {
	return writeRawDB(t, func(tx *bolt.Tx) error {
		games, err := tx.CreateBucket(bucketGames)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			data, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			if err := games.Put([]byte(rec.Channel), data); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestOpenMigratesVersion0(t *testing.T) {
	plain := sampleGame("c1", "g1", 6)
	plain.Updated = base
	other := sampleGame("c2", "g2", 4)
	other.Updated = base
	// Version 0 never refused replays: a repeated interaction must survive.
	replayed := sampleGame("c3", "g1", 3)
	replayed.Updated = base
	replayed.Log[2].Interaction = replayed.Log[0].Interaction
	path := version0Games(t, plain, other, replayed)

	s := openAt(t, path)
	if v, err := s.SchemaVersion(); err != nil || v != CurrentSchema {
		t.Fatalf("SchemaVersion after Open = %d, %v; want %d", v, err, CurrentSchema)
	}
	for _, want := range []*GameRecord{plain, other, replayed} {
		assertSame(t, migrated(t, s, want.Channel), want)
	}
	// A log with a replayed interaction stays writable.
	if err := s.Update("c3", func(r *GameRecord) error { r.Messages["board"] = "m-43"; return nil }); err != nil {
		t.Fatalf("update of a game whose old log repeats an interaction: %v", err)
	}
	// The migrated interaction index refuses replays.
	if _, err := s.AppendAction("c1", LogEntry{Action: "x", Interaction: "c1-i5"}); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("migrated interaction not indexed: %v", err)
	}
	if n, err := s.AppendAction("c1", LogEntry{Action: "x", Interaction: "fresh"}); err != nil || n != 6 {
		t.Fatalf("append after migration = %d, %v; want 6", n, err)
	}
	// The archive buckets exist.
	if _, err := s.Archive("c2", ArchiveResult{}); err != nil {
		t.Fatalf("archive after migration: %v", err)
	}
}

func TestManualMigrate(t *testing.T) {
	rec := sampleGame("c1", "g1", 2)
	rec.Updated = base
	path := version0Games(t, rec)
	s, err := Open(path, &Options{Timeout: testTimeout, ManualMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.SchemaVersion(); err != nil || v != 0 {
		t.Fatalf("SchemaVersion = %d, %v; want 0", v, err)
	}
	if _, err := s.Get("c1"); !errors.Is(err, ErrOutdatedSchema) || !strings.Contains(err.Error(), "conductor migrate") {
		t.Fatalf("Get on an outdated file: %v, want ErrOutdatedSchema naming the command", err)
	}
	// A backup of the old file can be taken before upgrading.
	backup := filepath.Join(t.TempDir(), "before-migrate.db")
	if err := s.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	from, to, err := s.Migrate()
	if err != nil || from != 0 || to != CurrentSchema {
		t.Fatalf("Migrate = %d, %d, %v; want 0, %d", from, to, err, CurrentSchema)
	}
	assertSame(t, migrated(t, s, "c1"), rec)
	old, err := Open(backup, &Options{Timeout: testTimeout, ManualMigrate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if v, _ := old.SchemaVersion(); v != 0 {
		t.Fatalf("backup has schema %d, want the old 0", v)
	}
}

func TestFailedMigrationStopsAtLastGoodVersion(t *testing.T) {
	path := writeRawDB(t, func(tx *bolt.Tx) error { return writeVersion(tx, 0) })
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	boom := errors.New("boom")
	steps := []migration{
		{"first", func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("one")); return err }},
		{"second", func(tx *bolt.Tx) error {
			if _, err := tx.CreateBucket([]byte("two")); err != nil {
				return err
			}
			return boom
		}},
	}
	from, to, err := runMigrations(db, steps)
	if !errors.Is(err, boom) || from != 0 || to != 1 || !strings.Contains(err.Error(), "1->2 (second)") {
		t.Fatalf("runMigrations = %d, %d, %v; want 0, 1 and the failing step named", from, to, err)
	}
	db.View(func(tx *bolt.Tx) error {
		if v, _ := readVersion(tx); v != 1 {
			t.Errorf("version %d after the second step failed, want 1", v)
		}
		if tx.Bucket([]byte("one")) == nil || tx.Bucket([]byte("two")) != nil {
			t.Error("first step not kept or failed step not rolled back")
		}
		return nil
	})
}

// migrated reads a game an upgrade carried over: it must be due for a
// check at once, and is returned without that deadline.
func migrated(t *testing.T, s *Store, channel string) *GameRecord {
	t.Helper()
	rec := mustGet(t, s, channel)
	if rec.Due == nil || rec.Due.Kind != checkKind || !rec.Due.At.Equal(checkAt) {
		t.Fatalf("%s migrated with deadline %+v, want a check due now", channel, rec.Due)
	}
	due, err := s.Due(checkAt, 100)
	if err != nil || !slices.ContainsFunc(due, func(d DueGame) bool { return d.Channel == channel && d.Kind == checkKind }) {
		t.Fatalf("%s is not in the deadline index: %+v, %v", channel, due, err)
	}
	rec.Due = nil
	return rec
}
