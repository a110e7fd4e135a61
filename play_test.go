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
	args := []string{"play", "--db", filepath.Join(dir, "play.db"), "--pictures", dir, "--players", "alice,hard", "--bot-delay", "1ms"}
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

// A saved game is resumed only when it is the one asked for: other flags
// are refused with a way out (--new or another --game), and --new replaces it.
func TestPlayResumesOnlyTheGameAskedFor(t *testing.T) {
	dir := t.TempDir()
	base := []string{"play", "--db", filepath.Join(dir, "play.db"), "--pictures", dir, "--bot-delay", "0"}
	run := func(extra ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := realMain(append(append([]string{}, base...), extra...), strings.NewReader("/quit\n"), &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, _, e := run("--players", "alice,hard"); code != 0 {
		t.Fatalf("first game: exit %d %s", code, e)
	}
	code, _, e := run("--players", "alice,bob", "--map", "europe")
	if code != exitUsage || !strings.Contains(e, "--new") || !strings.Contains(e, "usa") || !strings.Contains(e, "alice, hard") {
		t.Fatalf("other flags than the saved game's: exit %d, %q", code, e)
	}
	if code, out, e := run(); code != 0 || !strings.Contains(out, "Resuming") {
		t.Fatalf("no flags resume the saved game: exit %d %s %s", code, out, e)
	}
	if code, out, e := run("--players", "alice,hard", "--map", "usa"); code != 0 || !strings.Contains(out, "Resuming") {
		t.Fatalf("the same flags resume it: exit %d %s %s", code, out, e)
	}
	if code, out, e := run("--players", "alice,bob", "--map", "europe", "--variant", "mega", "--new"); code != 0 || strings.Contains(out, "Resuming") || !strings.Contains(out, "Mega") {
		t.Fatalf("--new starts the game asked for, its variant named: exit %d %s %s", code, out, e)
	}
}

// A ticket choice left open when the terminal quit comes back, with its
// letters, when the game is resumed.
func TestPlayResumesAPendingChoice(t *testing.T) {
	dir := t.TempDir()
	args := []string{"play", "--db", filepath.Join(dir, "play.db"), "--pictures", dir, "--bot-delay", "0", "--players", "you,hard"}
	var out, errb bytes.Buffer
	if code := realMain(args, strings.NewReader("a,b\n/tickets\n/quit\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Choose the tickets to keep") {
		t.Fatalf("no ticket draw in the first session:\n%s", out.String())
	}
	out.Reset()
	if code := realMain(args[:len(args)-2], strings.NewReader("/quit\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "Resuming") || !strings.Contains(s, "Still to choose") || !strings.Contains(s, "type the letters") {
		t.Fatalf("the resumed game does not show the open ticket choice:\n%s", s)
	}
}

// --lang chooses the table's language: the game's texts come in French,
// and a language the bot does not speak is a usage error.
func TestPlayInFrench(t *testing.T) {
	dir := t.TempDir()
	args := []string{"play", "--db", filepath.Join(dir, "play.db"), "--pictures", dir, "--players", "alice,easy", "--bot-delay", "0", "--lang", "fr", "--map", "europe"}
	var out, errb bytes.Buffer
	if code := realMain(args, strings.NewReader("/hand\n/quit\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	if !strings.Contains(out.String(), "Les Aventuriers du Rail") || !strings.Contains(out.String(), "Destination") {
		t.Errorf("the game is not French:\n%s", out.String())
	}
	errb.Reset()
	bad := []string{"play", "--db", filepath.Join(dir, "other.db"), "--players", "alice,easy", "--lang", "xx"}
	if code := realMain(bad, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "xx") {
		t.Errorf("--lang xx: exit %d, %q", code, errb.String())
	}
}

// --watch shows bots alone playing a new game to its end, turn by turn,
// without reading the keyboard: every turn's board with its status line,
// no buttons, the final scoring; seats that are not bot levels are refused.
func TestPlayWatch(t *testing.T) {
	dir := t.TempDir()
	args := []string{"play", "--watch", "--db", filepath.Join(dir, "play.db"), "--players", "easy,easy", "--bot-delay", "0", "--pictures", "none"}
	var out, errb bytes.Buffer
	if code := realMain(args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	tr := out.String()
	for _, want := range []string{"👀 Bots play this game to its end", "🚦 The game begins", "▶ 🔵 🤖", "🏁 The game is over!", "🎉"} {
		if !strings.Contains(tr, want) {
			t.Errorf("the watched game lacks %q:\n%s", want, tr)
		}
	}
	if !strings.HasSuffix(tr, "The game is over.\n") {
		t.Errorf("the watched game does not end with its end:\n%s", tr[max(0, len(tr)-1000):])
	}
	for _, never := range []string{"[1]", "> ", "[picture", "run: conductor play", "1 day per turn"} {
		if strings.Contains(tr, never) {
			t.Errorf("watching shows %q:\n%s", never, tr)
		}
	}
	// Bots that move at once may outrun the boards (the sender then
	// merges them: every move told, the newest picture and status); at a
	// pace they come one a turn, each with its status.
	if n := strings.Count(tr, "\n▶ 🔴 🤖 ") + strings.Count(tr, " | ▶ 🔵 🤖 "); n < 2 {
		t.Errorf("%d status lines for a whole game:\n%s", n, tr)
	}
	errb.Reset()
	bad := append(args[:len(args):len(args)], "--players", "alice,easy")
	if code := realMain(bad, strings.NewReader(""), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "bot levels only") {
		t.Errorf("a person at a watched table: exit %d, %q", code, errb.String())
	}
}

// The hints say to run what the user ran: `go run . play` after `go run
// .`, the installed name otherwise.
func TestHintsNameTheCommandRun(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	for _, program := range []string{"go run .", "./conductor"} {
		var out, errb bytes.Buffer
		if code := runAs(program, []string{"run"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "`DISCORD_TOKEN=... "+program+"`. To try a game without Discord, run `"+program+" play`.") {
			t.Errorf("%s without a token: exit %d, %q", program, code, errb.String())
		}
		dir := t.TempDir()
		args := []string{"play", "--db", filepath.Join(dir, "play.db"), "--pictures", "none", "--players", "alice,easy", "--bot-delay", "0"}
		if code := runAs(program, args, strings.NewReader("help\n/quit\n"), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		for _, want := range []string{"(to go on, run: " + program + " play)", "The game is saved; to go on, run: " + program + " play\n"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the terminal lacks %q:\n%s", program, want, out.String())
			}
		}
		out.Reset()
		if code := runAs(program, []string{"help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage: "+program+" [command]") {
			t.Errorf("%s help: %q", program, out.String())
		}
	}
}

// invokedAs tells `go run` (its temporary folder, or the build cache where
// Go 1.24 and later keep what it built) from a program run by its name or
// path.
func TestInvokedAs(t *testing.T) {
	for arg0, want := range map[string]string{
		"/tmp/go-build178628149/b001/exe/conductor":                                                             "go run .",
		"/root/.cache/go-build/c4/c4a61a5117fcd0cb705157d0081631bf3884fcef4e48787b34ef2cb50d183d89-d/conductor": "go run .",
		`C:\Users\a\AppData\Local\Temp\go-build1234\b001\exe\conductor.exe`:                                     "go run .",
		"conductor":                     "conductor",
		"./conductor":                   "./conductor",
		"/usr/local/bin/conductor":      "/usr/local/bin/conductor",
		"/home/a/go/bin/ttr":            "/home/a/go/bin/ttr",
		"/srv/c4/conductor-d/conductor": "/srv/c4/conductor-d/conductor",
		"":                              "conductor",
	} {
		if got := invokedAs(arg0); got != want {
			t.Errorf("invokedAs(%q) = %q, want %q", arg0, got, want)
		}
	}
}
