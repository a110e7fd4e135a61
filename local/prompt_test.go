package local

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"conductor/commands"
	"conductor/data"
	"conductor/internal/testkit"
	"conductor/store"
)

// typed plays script at a terminal, one person against an easy bot that
// moves at once (bot delay 0), and returns what the terminal printed,
// each line typed shown after its prompt.
func typed(t *testing.T, setup Setup, script ...string) string {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "play.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out testkit.SyncBuffer
	in := &scriptReader{lines: append(script, "/quit"), echo: &out}
	term := NewTerminal(in, &out)
	term.Pictures, term.Channel, term.Locale = dir, "local:test", setup.Lang
	svc := commands.New(commands.Config{Catalog: data.Embedded(), Store: st, Renderer: sketches, Poster: term,
		Bots: aiBots, BotLevels: botLevels, NewSeed: func() uint64 { return 45 }})
	defer svc.Close()
	term.Service = svc
	setup.Levels = botLevels
	if err := term.Open(context.Background(), st, setup); err != nil {
		t.Fatal(err)
	}
	if err := term.Play(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// scriptReader types its lines one at a time, echoing each.
type scriptReader struct {
	lines []string
	buf   []byte
	echo  *testkit.SyncBuffer
}

func (r *scriptReader) Read(b []byte) (int, error) {
	if len(r.buf) == 0 {
		if len(r.lines) == 0 {
			return 0, context.Canceled
		}
		r.buf = []byte(r.lines[0] + "\n")
		r.lines = r.lines[1:]
		r.echo.Write(r.buf)
	}
	n := copy(b, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// answerTo is what the terminal printed after the line typed, up to the
// next prompt.
func answerTo(t *testing.T, tr, line string) string {
	t.Helper()
	at := strings.Index(tr, "> "+line+"\n")
	if at < 0 {
		t.Fatalf("%q was never typed:\n%s", line, tr)
	}
	rest := tr[at+len(line)+3:]
	if end := strings.Index(rest, "you> "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// Once a ticket prompt is answered, numbers click the board again: 6 is
// the deck, not a button of the menu just answered ("There is no button
// 6"), and after the second card's prompt the next turn's 6 is the deck
// too.
func TestNumbersClickTheBoardAfterAPrompt(t *testing.T) {
	t.Parallel()
	tr := typed(t, Setup{Seats: []string{"you", "easy"}, Map: "usa"},
		"a,b",      // the first tickets
		"/tickets", // a ticket menu
		"a",        // answered
		"6",        // the board's deck
		"6",        // the second card: the prompt's deck
		"6",        // the next turn: the board's deck again
	)
	if strings.Contains(tr, "There is no button") {
		t.Errorf("a number went to an answered prompt:\n%s", tr)
	}
	if n := strings.Count(tr, "You drew"); n != 3 {
		t.Errorf("%d cards drawn from the deck, want 3:\n%s", n, tr)
	}
	if a := answerTo(t, tr, "6"); !strings.Contains(a, "You drew") || !strings.Contains(a, "Take a second card") {
		t.Errorf("6 after the ticket prompt did not draw from the deck: %q", a)
	}
}

// A command typed without its slash is a command, never a prompt's
// letters: "claim Brest Paris" while a ticket menu is open, and once it is
// answered.
func TestACommandIsNeverTakenForLetters(t *testing.T) {
	t.Parallel()
	tr := typed(t, Setup{Seats: []string{"you", "easy"}, Map: "europe"},
		"claim Brest Paris", // the first tickets' menu is open
		"a,b",
		"claim Brest Paris", // answered: a claim (refused: no cards for it)
		"hand",
	)
	if strings.Contains(tr, "is not one of the letters") {
		t.Fatalf("a command was taken for letters:\n%s", tr)
	}
	for _, a := range strings.Split(tr, "> claim Brest Paris\n")[1:] {
		a, _, _ = strings.Cut(a, "you> ")
		if !strings.Contains(a, "Brest") && !strings.Contains(a, "tickets") {
			t.Errorf("claim Brest Paris was not answered as a claim: %q", a)
		}
	}
	if a := answerTo(t, tr, "hand"); !strings.Contains(a, "you — hand") {
		t.Errorf("hand without its slash: %q", a)
	}
}

// Letters are counted before they are sent, as Discord's menu counts
// them: too few is said at once, and the menu stays open for the right
// count.
func TestLettersAreCounted(t *testing.T) {
	t.Parallel()
	tr := typed(t, Setup{Seats: []string{"you", "easy"}, Map: "usa"}, "a", "a,a", "a,b")
	if a := answerTo(t, tr, "a"); !strings.Contains(a, "Type 2 to 3 of the letters a to c") {
		t.Errorf("one letter for a menu of 2 to 3: %q", a)
	}
	if a := answerTo(t, tr, "a,b"); !strings.Contains(a, "You kept") {
		t.Errorf("the menu was not open for the right count: %q", a)
	}
}
