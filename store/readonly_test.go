package store

import (
	"errors"
	"os"
	"testing"
)

// Opening an existing file writes nothing; a read-only store shares the
// file with other readers, is excluded by a writer, and writes nothing.
func TestReadOnlyOpenWritesNothing(t *testing.T) {
	s, path := openTemp(t)
	mustPut(t, s, sampleGame("c1", "g1", 3))
	s.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rw := openAt(t, path)
	rw.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("opening an existing file wrote to it")
	}
	ro, err := Open(path, &Options{ReadOnly: true, Timeout: testTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ro2, err := Open(path, &Options{ReadOnly: true, Timeout: testTimeout})
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	ro2.Close()
	if rec, err := ro.Get("c1"); err != nil || len(rec.Log) != 3 {
		t.Fatalf("reading: %v %v", rec, err)
	}
	if err := ro.Put(sampleGame("c2", "g1", 1)); err == nil {
		t.Fatal("a read-only store wrote")
	}
	if _, err := Open(path, &Options{Timeout: testTimeout}); !errors.Is(err, ErrLocked) {
		t.Fatalf("a writer beside a reader: %v", err)
	}
	ro.Close()
	w := openAt(t, path)
	if _, err := Open(path, &Options{ReadOnly: true, Timeout: testTimeout}); !errors.Is(err, ErrLocked) {
		t.Fatalf("a reader beside a writer: %v", err)
	}
	w.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("read-only use wrote to the file")
	}
}
