package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A scripted hot-seat session: both players choose tickets, play a few
// moves, quit, and the game resumes from the database.
func TestPlayScriptedSession(t *testing.T) {
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
	var out, errb bytes.Buffer
	args := []string{"play", "--db", db, "--out", board, "--players", "alice,bob", "--map", "europe", "--bot-delay", "1ms"}
	if code := realMain(args, strings.NewReader(script), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errb.String(), out.String())
	}
	tr := out.String()
	for _, want := range []string{"You kept:", "alice drew a card from the deck", "bob drew a card from the deck", "I can't find the route", "bob's hand", "The game is saved"} {
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
	out.Reset()
	if code := realMain(args, strings.NewReader("\n/quit\n"), &out, &errb); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Resuming the saved game") {
		t.Fatalf("no resume:\n%s", out.String())
	}
}
