package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `conductor play` wires the flags, the database and the bots to the
// terminal (whose sessions local tests): a game with a bot starts and is
// saved, and seats it cannot seat are a usage error.
func TestPlayCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"play", "--db", filepath.Join(dir, "play.db"), "--out", filepath.Join(dir, "board.png"), "--players", "alice,hard", "--bot-delay", "1ms"}
	var out, errb bytes.Buffer
	if code := realMain(args, strings.NewReader("/quit\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	if !strings.Contains(out.String(), "The game is saved") {
		t.Errorf("transcript:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "board.png")); err != nil {
		t.Errorf("no board picture: %v", err)
	}
	errb.Reset()
	bad := []string{"play", "--db", filepath.Join(dir, "other.db"), "--players", "alice", "--new"}
	if code := realMain(bad, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "2 to 5 seats") {
		t.Errorf("one seat: exit %d, %q", code, errb.String())
	}
}
