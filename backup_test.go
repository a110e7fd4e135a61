package main

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"conductor/bot"
	"conductor/ops"
	"conductor/store"
)

func TestBackupCopiesTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(&store.GameRecord{Channel: "c1", Guild: "g", Map: "usa", Status: store.StatusLobby}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := filepath.Join(dir, "copy.db")
	var o, e bytes.Buffer
	if code := realMain([]string{"backup", "--db", db, out}, nil, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("copy mode %v %v, want 0600", fi.Mode().Perm(), err)
	}
	copyStore, err := store.Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer copyStore.Close()
	if rec, err := copyStore.Get("c1"); err != nil || rec.Map != "usa" {
		t.Fatalf("the copy lacks the game: %v %v", rec, err)
	}
}

// While the bot runs it holds the file; backup then asks it over the health
// address for a hot copy.
func TestBackupAsksTheRunningBot(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Put(&store.GameRecord{Channel: "c9", Guild: "g", Map: "europe", Status: store.StatusLobby}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b, err := bot.New(bot.Config{Token: "never-used", APIBase: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	const token = "a-long-enough-backup-secret"
	srv := &http.Server{Handler: ops.Handler(b, st, token)}
	go srv.Serve(ln)
	defer srv.Close()
	t.Setenv("CONDUCTOR_HTTP", ln.Addr().String())
	out := filepath.Join(dir, "hot.db")
	var o, e bytes.Buffer
	// Without the bot's secret, no copy.
	t.Setenv("CONDUCTOR_BACKUP_TOKEN", "")
	if code := realMain([]string{"backup", "--db", db, out}, nil, &o, &e); code == 0 || !strings.Contains(e.String(), "CONDUCTOR_BACKUP_TOKEN is not set") {
		t.Fatalf("no token: exit %d: %s", code, e.String())
	}
	t.Setenv("CONDUCTOR_BACKUP_TOKEN", "another-secret-of-some-length")
	e.Reset()
	if code := realMain([]string{"backup", "--db", db, out}, nil, &o, &e); code == 0 || !strings.Contains(e.String(), "401") {
		t.Fatalf("wrong token: exit %d: %s", code, e.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a refused backup left a file")
	}
	t.Setenv("CONDUCTOR_BACKUP_TOKEN", token)
	e.Reset()
	if code := realMain([]string{"backup", "--db", db, out}, nil, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("hot copy mode %v %v, want 0600", fi.Mode().Perm(), err)
	}
	hot, err := store.Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hot.Close()
	if rec, err := hot.Get("c9"); err != nil || rec.Map != "europe" {
		t.Fatalf("the hot copy lacks the game: %v %v", rec, err)
	}
	// Without the address, the message says what to do.
	t.Setenv("CONDUCTOR_HTTP", "")
	e.Reset()
	if code := realMain([]string{"backup", "--db", db, filepath.Join(dir, "x.db")}, nil, &o, &e); code == 0 || !strings.Contains(e.String(), "CONDUCTOR_HTTP") {
		t.Fatalf("exit %d: %s", code, e.String())
	}
}

func TestMigrateOnCurrentSchemaDoesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	var o, e bytes.Buffer
	if code := realMain([]string{"migrate", "--db", db}, nil, &o, &e); code != 0 || !strings.Contains(o.String(), "nothing to do") {
		t.Fatalf("exit %d: %s %s", code, o.String(), e.String())
	}
}
