package commands

import (
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
