package local

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/imaging"
	"conductor/store"
)

// session plays a script at a terminal on the database file db, as
// `conductor play` does, and returns what the terminal printed.
func session(t *testing.T, db, board, script string, setup Setup) string {
	return sessionWith(t, db, board, script, setup, nil)
}

// sessionWith is session with bots of bots' making.
func sessionWith(t *testing.T, db, board, script string, setup Setup, bots commands.BotMaker) string {
	t.Helper()
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out bytes.Buffer
	term := NewTerminal(strings.NewReader(script), &out)
	term.Pictures = filepath.Dir(board)
	term.Channel = "local:test"
	cfg := commands.Config{Catalog: data.Embedded(), Store: st, Renderer: imaging.NewRenderer(), Poster: term, BotDelay: time.Millisecond}
	if bots != nil {
		cfg.Bots, cfg.BotLevels = bots, botLevels
		setup.Levels = botLevels
	}
	svc := commands.New(cfg)
	defer svc.Close()
	term.Service = svc
	if err := term.Open(context.Background(), st, setup); err != nil {
		t.Fatal(err)
	}
	if err := term.Play(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A scripted hot-seat session: both players choose tickets, play a few
// moves, quit, and the game resumes from the database.
func TestScriptedSession(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "play.db")
	board := filepath.Join(dir, "board.png")
	script := strings.Join([]string{
		"",      // pass the keyboard to alice
		"a,b",   // alice keeps two tickets
		"",      // to bob
		"a,b,c", // bob keeps three
		"",      // to alice
		"/draw deck",
		"/draw deck",
		"", // to bob
		"/hand",
		"/claim Nowhere Atlantis", // refused with a friendly message
		"6",                       // the deck button of the board
		"/draw deck",
		"", // to alice
		"/quit",
	}, "\n") + "\n"
	setup := Setup{Seats: []string{"alice", "bob"}, Map: "europe"}
	tr := session(t, db, board, script, setup)
	for _, want := range []string{"You kept:", "alice drew 2 cards from the deck", "bob drew 2 cards from the deck", "I can't find the route", "bob — hand", "The game is saved"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript lacks %q:\n%s", want, tr)
		}
	}
	f, err := os.Open(board)
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(f)
	f.Close()
	if err != nil || im.Bounds().Dx() != 1600 {
		t.Fatalf("board picture: %v", err)
	}
	// Hot seat: what a player kept shows only while that player holds the keyboard.
	segments := regexp.MustCompile(`---- Pass the keyboard to (\w+)`).Split(tr, -1)
	holders := regexp.MustCompile(`---- Pass the keyboard to (\w+)`).FindAllStringSubmatch(tr, -1)
	kept := regexp.MustCompile(`You kept: (.*)\.`)
	owner := map[string]string{}
	for i, seg := range segments[1:] {
		for _, m := range kept.FindAllStringSubmatch(seg, -1) {
			for _, label := range strings.Split(m[1], ", ") {
				owner[label] = holders[i][1]
			}
		}
	}
	if len(owner) < 5 {
		t.Fatalf("expected both players' kept tickets in the transcript, got %v", owner)
	}
	for i, seg := range segments[1:] {
		for label, who := range owner {
			if who != holders[i][1] && strings.Contains(seg, label) {
				t.Errorf("%s's ticket %q was shown while %s held the keyboard", who, label, holders[i][1])
			}
		}
	}
	// Resume.
	if tr := session(t, db, board, "\n/quit\n", setup); !strings.Contains(tr, "Resuming the saved game") {
		t.Fatalf("no resume:\n%s", tr)
	}
}
