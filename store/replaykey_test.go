package store

import (
	"bytes"
	"testing"
)

// TestReplayKeyIsMadeOnceAndKept: the key is random, made on first use,
// and the same after the database is opened again.
func TestReplayKeyIsMadeOnceAndKept(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		path := newDB(t)
		st, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		k1, err := st.ReplayKey()
		if err != nil || len(k1) != 32 || bytes.Equal(k1, make([]byte, 32)) {
			t.Fatalf("key %x, %v", k1, err)
		}
		k2, _ := st.ReplayKey()
		if !bytes.Equal(k1, k2) {
			t.Fatal("a second call made another key")
		}
		st.Close()
		st, err = Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		k3, _ := st.ReplayKey()
		if !bytes.Equal(k1, k3) {
			t.Fatal("the key changed when the database was opened again")
		}
		other, err := Open(newDB(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if k4, _ := other.ReplayKey(); bytes.Equal(k1, k4) {
			t.Fatal("two databases share a key")
		}
	})
}
