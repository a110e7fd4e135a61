package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestBackupFileWhileWriting(t *testing.T) {
	s, _ := openTemp(t)
	const channels = 3
	for c := 0; c < channels; c++ {
		mustPut(t, s, sampleGame(fmt.Sprint("c", c), "g1", 50))
	}
	stop := make(chan struct{})
	var wg, started sync.WaitGroup
	var written [channels]int
	for c := 0; c < channels; c++ {
		wg.Add(1)
		started.Add(1)
		go func(c int) {
			defer wg.Done()
			ch := fmt.Sprint("c", c)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.AppendAction(ch, LogEntry{Action: "draw 1", Interaction: fmt.Sprint("w", i)}); err != nil {
					t.Error(err)
					return
				}
				if written[c]++; written[c] == 1 {
					started.Done()
				}
			}
		}(c)
	}
	// Back up only once every writer is committing.
	started.Wait()
	dir := t.TempDir()
	copies := []string{filepath.Join(dir, "one.db"), filepath.Join(dir, "two.db")}
	for _, path := range copies {
		if err := s.BackupFile(path); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}

	for _, path := range copies {
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: testTimeout, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				t.Errorf("%s: %v", path, err)
			}
			return nil
		})
		db.Close()

		copied := openAt(t, path)
		for c := 0; c < channels; c++ {
			rec := mustGet(t, copied, fmt.Sprint("c", c))
			// A consistent copy: a whole number of moves, each indexed.
			if len(rec.Log) < 50 || len(rec.Log) > 50+written[c] {
				t.Fatalf("%s c%d: %d entries, between 50 and %d expected", path, c, len(rec.Log), 50+written[c])
			}
			last := rec.Log[len(rec.Log)-1]
			if _, err := copied.AppendAction(rec.Channel, last); err == nil {
				t.Fatalf("%s c%d: the last entry's interaction is not indexed", path, c)
			}
		}
	}
	// The live store kept every write.
	for c := 0; c < channels; c++ {
		if got := len(mustGet(t, s, fmt.Sprint("c", c)).Log); got != 50+written[c] {
			t.Fatalf("c%d: %d entries, want %d", c, got, 50+written[c])
		}
	}
}

func TestBackupToWriter(t *testing.T) {
	s, _ := openTemp(t)
	mustPut(t, s, sampleGame("c1", "g1", 3))
	var buf bytes.Buffer
	n, err := s.Backup(&buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("Backup wrote %d bytes (buffer %d), %v", n, buf.Len(), err)
	}
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	assertSame(t, mustGet(t, openAt(t, path), "c1"), mustGet(t, s, "c1"))
}

func TestBackupFileRefusesItself(t *testing.T) {
	s, path := openTemp(t)
	mustPut(t, s, sampleGame("c1", "g1", 3))
	alias := filepath.Join(filepath.Dir(path), ".", filepath.Base(path))
	if err := s.BackupFile(alias); err == nil || !strings.Contains(err.Error(), "onto itself") {
		t.Fatalf("backup onto the live file: %v", err)
	}
	mustGet(t, s, "c1")
}

func TestBackupFileReplacesOldCopy(t *testing.T) {
	s, _ := openTemp(t)
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(path, []byte("old backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, sampleGame("c1", "g1", 3))
	if err := s.BackupFile(path); err != nil {
		t.Fatal(err)
	}
	mustGet(t, openAt(t, path), "c1")
}
