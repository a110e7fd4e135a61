package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"conductor/ai"
	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
	"conductor/internal/testkit/sketch"
	"conductor/store"
)

// botLevels are the levels the terminal tests' bots come in.
var botLevels = ai.Levels

func aiBots(level string, seed uint64) (commands.Bot, error) { return ai.NewWithContext(level, seed) }

// player types at the terminal for the one person of a game: each line is
// decided when the terminal asks for it, from the game as the store holds
// it then: the move an easy bot would make, typed as a person types it,
// but never a claim that would start the last round (so that the bot
// ends the game and moves last).
type player struct {
	t       *testing.T
	st      *store.Store
	channel string
	seat    int
	coach   ai.Bot
	buf     []byte
	lines   int
	// script runs first, line by line (the answers to questions the game
	// itself does not ask, such as the terminal's offer).
	script []string
	// numbers: cards are drawn by the board's numbers (1 to 5 face up, 6
	// the deck), as a person clicks them, and tickets by 7.
	numbers bool
	// echo, when set, gets each line typed, as a terminal shows it.
	echo io.Writer
	// typed counts the lines typed by kind ("number", "letters", "claim"…).
	typed map[string]int
	// asides are typed once the first tickets are chosen, before the
	// first move: what a person tries on the way.
	asides []string
	turns  int
	// quitAfter, when set, quits after that many lines of the game.
	quitAfter int
}

func (p *player) Read(b []byte) (int, error) {
	if len(p.buf) == 0 {
		line, ok := p.next()
		if !ok {
			return 0, errors.New("the test player has nothing more to say")
		}
		p.buf = []byte(line + "\n")
		if p.echo != nil {
			p.echo.Write(p.buf)
		}
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

func (p *player) next() (string, bool) {
	if len(p.script) > 0 {
		line := p.script[0]
		p.script = p.script[1:]
		return line, true
	}
	if len(p.asides) > 0 && p.typed["letters"] > 0 {
		line := p.asides[0]
		p.asides = p.asides[1:]
		return line, true
	}
	if p.lines++; p.lines > 2000 {
		return "", false
	}
	if p.quitAfter > 0 && p.lines > p.quitAfter {
		return "/quit", true
	}
	rec, err := p.st.Get(p.channel)
	if err != nil {
		return "/quit", true // no live game: nothing more to type
	}
	b, err := data.Embedded().Board(rec.Map)
	if err != nil {
		p.t.Error(err)
		return "/quit", true
	}
	moves := make([]engine.NotatedMove, len(rec.Log))
	for i, e := range rec.Log {
		moves[i] = engine.NotatedMove{Seat: e.Seat, Action: e.Action}
	}
	g, err := engine.ReplayNotation(engine.Config{Board: b, Variant: rec.Variant, Players: len(rec.Seats), Seed: rec.Seed, Revision: max(rec.Rules, engine.Revision1)}, moves, nil)
	if err != nil {
		p.t.Error(err)
		return "/quit", true
	}
	legal := g.LegalActions(p.seat, nil)
	if len(legal) == 0 {
		return "/score", true
	}
	a := p.coach.Choose(g.View(p.seat), legal)
	if p.numbers && g.Phase() == engine.PhaseTurn {
		// Now and then tickets, whatever the coach says: a ticket menu
		// answered, then the board's numbers again.
		if p.turns++; p.turns%6 == 2 {
			for _, d := range legal {
				if d.Kind == engine.ActDrawTickets {
					a = d
				}
			}
		}
	}
	if a.Kind == engine.ActClaim && g.Player(p.seat).Trains-b.Tracks[a.Track].Length <= 2 {
		// Never end the game: the bot does, and so moves last.
		for _, d := range legal {
			if d.Kind == engine.ActDraw && d.Slot == engine.DeckSlot {
				return "/draw deck", true
			}
		}
	}
	count := func(kind string) {
		if p.typed == nil {
			p.typed = map[string]int{}
		}
		p.typed[kind]++
	}
	switch a.Kind {
	case engine.ActDraw:
		if p.numbers {
			// The board's and the second card's buttons alike: 1 to 5
			// face up, 6 the deck.
			count("number")
			if a.Slot == engine.DeckSlot {
				return "6", true
			}
			return fmt.Sprint(a.Slot + 1), true
		}
		if a.Slot == engine.DeckSlot {
			return "/draw deck", true
		}
		return fmt.Sprintf("/draw %d", a.Slot+1), true
	case engine.ActTunnelPay, engine.ActTunnelCancel:
		// The tunnel's buttons: a way to pay each (at most four), then
		// giving up.
		ways := g.CanPayTunnel(p.seat)
		ways = ways[:min(len(ways), 4)]
		count("number")
		for i, l := range ways {
			if a.Kind == engine.ActTunnelPay && l == a.Locos {
				return fmt.Sprint(i + 1), true
			}
		}
		return fmt.Sprint(len(ways) + 1), true
	case engine.ActStation:
		count("station")
		line := "/station " + b.Cities[a.City].Name
		if a.Color != data.Gray {
			line += " color=" + a.Color.String()
		}
		return line + fmt.Sprintf(" locos=%d", a.Locos), true
	case engine.ActKeep:
		count("letters")
		var letters []string
		for i := range 64 {
			if a.Keep&(1<<uint(i)) != 0 {
				letters = append(letters, string(rune('a'+i)))
			}
		}
		if len(letters) == 0 {
			return "1", true // the "keep none" button
		}
		return strings.Join(letters, ","), true
	case engine.ActDrawTickets:
		if p.numbers {
			count("number")
			return "7", true
		}
		return "/tickets", true
	case engine.ActClaim:
		count("claim")
		if p.numbers {
			// As a person types it: the two cities, the colour where the
			// route leaves it open, locomotives when some are played; half
			// the claims without their slash.
			tr := &b.Tracks[a.Track]
			line := "/claim " + b.Cities[tr.A].Name + " " + b.Cities[tr.B].Name
			if p.typed["claim"]%2 == 0 {
				line = line[1:]
			}
			if a.Color != data.Gray && (tr.Color == data.Gray || len(b.Parallel(a.Track)) > 1) {
				line += " color=" + a.Color.String()
			}
			if a.Locos > 0 || a.Color == data.Gray {
				line += fmt.Sprintf(" locos=%d", a.Locos)
			}
			return line, true
		}
		line := "/claim " + engine.TrackRef(b, a.Track)
		if a.Color != data.Gray {
			line += " color=" + a.Color.String()
		}
		return line + fmt.Sprintf(" locos=%d", a.Locos), true
	}
	p.t.Errorf("the test player cannot type %s", engine.FormatAction(b, a))
	return "/quit", true
}

// play runs `conductor play` as play.go does, on db, with in as the
// keyboard; it returns what the terminal printed and Open's error.
func play(t *testing.T, db, pictures string, in *player, setup Setup) (string, error) {
	t.Helper()
	return playEcho(t, db, pictures, in, setup, nil)
}

// playEcho is play with the lines typed shown in the transcript, after
// the prompt that asked for them, as a terminal shows them.
func playEcho(t *testing.T, db, pictures string, in *player, setup Setup, echo *testkit.SyncBuffer) (string, error) {
	t.Helper()
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	in.st = st
	var out testkit.SyncBuffer
	if echo != nil {
		in.echo = &out
	}
	term := NewTerminal(in, &out)
	term.Pictures = pictures
	term.Channel = "local:test"
	term.Locale, term.Watch = setup.Lang, setup.Watch
	svc := commands.New(commands.Config{Catalog: data.Embedded(), Store: st, Renderer: sketches, Poster: term,
		Bots: aiBots, BotLevels: botLevels, NewSeed: func() uint64 { return 45 }})
	term.Service = svc
	if err := svc.Deliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	svc.Quiet()
	setup.Levels = botLevels
	err = term.Open(context.Background(), st, setup)
	if err == nil {
		err = term.Play()
	}
	// The program exits here: whatever the terminal did not show by now,
	// the player never sees.
	svc.Close()
	return out.String(), err
}

// sketches draws the whole game's pictures as one-pixel sketches: this
// test checks the terminal's flow and that the pictures are written
// (session_test.go decodes a real board); their pixels are the imaging
// tests' business.
var sketches = &sketch.Renderer{}

// TestTerminalPlaysToTheEnd plays a whole terminal game against a bot
// that moves last, typed as a person types it (checkTranscript: numbers
// click the board after a ticket menu, one board a bot's turn, a status
// line with each board, no word of Discord's): the terminal shows the
// bot's last turn, the staged reveal and the final sheet before it says
// the game is over and returns; run again, it offers a game with the same
// settings and starts nothing the player did not agree to. With -update,
// the game is docs/local-transcript.md's.
func TestTerminalPlaysToTheEnd(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "play.db")
	coach, _ := ai.New("easy", 7)
	start := time.Now()
	p := &player{t: t, channel: "local:test", seat: 0, coach: coach, numbers: true, asides: []string{"/claim Denvr Omaha", "score"}}
	tr, err := playEcho(t, db, dir, p,
		Setup{Seats: []string{"you", "easy"}, Map: "usa", Given: map[string]bool{"map": true, "players": true}}, &testkit.SyncBuffer{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the game took %v", time.Since(start))
	tr = strings.ReplaceAll(tr, dir, "/tmp/conductor")
	checkTranscript(t, tr, "you", "en", p, true)
	if *update && !t.Failed() {
		writeTranscripts(t, tr, watchedGame(t))
	}

	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := st.Archived("local")
	st.Close()
	if err != nil || len(entries) != 1 || entries[0].Status != store.StatusFinished {
		t.Fatalf("the game was not archived as finished: %+v, %v", entries, err)
	}
	last := lastMoveOf(t, db, entries[0].Key)
	if last != 1 {
		t.Fatalf("the last move was seat %d's: this test needs the bot to move last", last)
	}
	// In order: the bot's last turn, the reveal, the sheet, the end.
	order := []string{"🏁 The game is over! Here is the final scoring:", "🎉", "final.png]", "The game is over.", "For a new game with the same settings, run: conductor play\n"}
	at := 0
	for _, want := range order {
		i := strings.Index(tr[at:], want)
		if i < 0 {
			t.Fatalf("the transcript lacks %q after position %d:\n%s", want, at, tail(tr, 3000))
		}
		at += i + len(want)
	}
	if strings.TrimSpace(tr[at:]) != "" {
		t.Errorf("the terminal printed after saying the game is over: %q", tr[at:])
	}
	if _, err := os.Stat(filepath.Join(dir, "final.png")); err != nil {
		t.Errorf("no final sheet picture in the pictures folder: %v", err)
	}
	// The bot's final turn is told before the reveal.
	reveal := strings.Index(tr, "🏁")
	if !strings.Contains(tr[:reveal], "🤖") {
		t.Errorf("no bot move is told before the final reveal")
	}

	// Run again without flags: the game is over, a new one like it is
	// offered; "n" starts nothing.
	tr, err = play(t, db, dir, &player{t: t, channel: "local:test", script: []string{"n"}}, Setup{Seats: []string{"you", "normal"}, Map: "usa"})
	if !errors.Is(err, ErrNothingStarted) {
		t.Fatalf("declining the offer: %v\n%s", err, tr)
	}
	for _, want := range []string{`The saved game "test" is over`, "you", "Start a new game with the same settings?", "Nothing was started"} {
		if !strings.Contains(tr, want) {
			t.Errorf("the second run lacks %q:\n%s", want, tr)
		}
	}
	if st, err := store.Open(db, nil); err == nil {
		_, gerr := st.Get("local:test")
		st.Close()
		if !errors.Is(gerr, store.ErrNotFound) {
			t.Fatalf("a game was started though the player said no: %v", gerr)
		}
	}

	// Yes (an empty answer): the same board and seats, not the defaults.
	tr, err = play(t, db, dir, &player{t: t, channel: "local:test", script: []string{"", "/quit"}}, Setup{Seats: []string{"you", "normal"}, Map: "europe"})
	if err != nil {
		t.Fatalf("accepting the offer: %v\n%s", err, tr)
	}
	st, err = store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.Get("local:test")
	if err != nil || rec.Map != "usa" || len(rec.Seats) != 2 || rec.Seats[0].Name != "you" || rec.Seats[1].Bot != "easy" {
		t.Fatalf("the new game is not the same as the last: %+v, %v", rec, err)
	}
}

// lastMoveOf is the seat of an archived game's last move.
func lastMoveOf(t *testing.T, db, key string) int {
	t.Helper()
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.ArchivedGame(key)
	if err != nil || len(rec.Log) == 0 {
		t.Fatalf("archived game: %v", err)
	}
	return rec.Log[len(rec.Log)-1].Seat
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
