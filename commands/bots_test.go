package commands

import (
	"fmt"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
)

// TestSafeActionMixesAsFewLongTicketsAsTheDecksAllow: a Märklin player must
// announce how many long tickets to draw. The safe action takes the fewest
// long ones, and when the short deck cannot cover the whole draw (a deck
// file with two short tickets) it takes the fewest long ones that are legal
// rather than a mix the engine refuses, which would stall the table.
func TestSafeActionMixesAsFewLongTicketsAsTheDecksAllow(t *testing.T) {
	t.Parallel()
	var deck strings.Builder
	deck.WriteString("map: marklin\nBerlin, Leipzig, 5\nBremen, Köln, 6\n")
	for range 25 {
		deck.WriteString("Hamburg, München, 20, long\n")
	}
	short, err := data.Embedded().LoadDeckFile("deck.txt", []byte(deck.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		catalog *data.Catalog
		long    int
	}{
		{"printed deck", data.Embedded(), 0},
		{"two short tickets", short, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.catalog.Board("marklin")
			if err != nil {
				t.Fatal(err)
			}
			g, err := engine.New(engine.Config{Board: b, Players: 2, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if mix, _ := g.NeedsMix(0); !mix {
				t.Fatal("Märklin setup does not ask for a mix")
			}
			a := safeAction(g, 0, g.LegalActions(0, nil))
			if a.Kind != engine.ActDrawTickets || a.Long != tc.long {
				t.Fatalf("safe action %s, want tickets long=%d", engine.FormatAction(b, a), tc.long)
			}
			if err := g.Play(0, a); err != nil {
				t.Fatalf("safe action refused: %v", err)
			}
		})
	}
}

// Two bots playing one after the other are narrated together under one
// board, posted when the person is to play; the person's own turns keep
// their board each.
func TestConsecutiveBotTurnsShareOneBoard(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.bots(testBots, "easy")
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	w.keepFirstTickets("u1", 0)
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Phase() == engine.PhaseTurn }) }, "setup ends")
	for round := 0; round < 3; round++ {
		waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 }) }, "u1's turn")
		before := len(w.poster.all("c1"))
		turn := 0
		w.under("c1", func(g *engine.Game) bool { turn = g.Turn(); return true })
		w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
		w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
		waitFor(t, func() bool {
			return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 && g.Turn() >= turn+3 })
		}, "both bots play")
		w.svc.Quiet()
		posts := w.poster.all("c1")[before:]
		if len(posts) != 2 {
			t.Fatalf("round %d: %d posts after u1's turn and two bot turns, want 2 (u1's board, one for both bots): %q", round, len(posts), contents(posts))
		}
		both := posts[1].Content
		for _, bot := range []string{seatNameOf(w, 1), seatNameOf(w, 2)} {
			if !strings.Contains(both, bot) {
				t.Errorf("round %d: the bots' board does not narrate %s: %q", round, bot, both)
			}
		}
	}
}

func seatNameOf(w *world, seat int) string {
	rec, err := w.store.Get("c1")
	if err != nil {
		w.t.Fatal(err)
	}
	return rec.Seats[seat].Name
}
