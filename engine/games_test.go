package engine_test

import (
	"testing"

	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
)

// TestRecordedGames replays every recorded game in testdata/games (whole
// games in the move notation) and checks that each ends with the scores and
// ranking written in it and still shows the rule corners it lists.
func TestRecordedGames(t *testing.T) {
	games := recorded.All(t)
	covered := map[string]bool{}
	corners := recorded.Corners{}
	for _, g := range games {
		t.Run(g.Name, func(t *testing.T) {
			for _, p := range g.Check(testkit.Catalog()) {
				t.Error(p)
			}
		})
		covered[g.Board+" "+g.Variant] = true
		for _, c := range g.Checks {
			corners[c] = true
		}
	}
	// At least one game per edition and variant, and the corners that
	// most need a whole game behind them.
	for _, b := range testkit.Catalog().Boards() {
		for _, v := range b.Variants {
			if !covered[b.ID+" "+v.ID] {
				t.Errorf("no recorded game of %s %s", b.ID, v.ID)
			}
		}
	}
	for _, c := range []string{"tunnel-free", "tunnel-paid", "tunnel-cancelled", "ferry", "station", "station-borrowed",
		"passenger-placed", "passenger-moved", "locomotive-4", "long-tickets", "tie", "bonus-shared"} {
		if !corners[c] {
			t.Errorf("no recorded game shows %s", c)
		}
	}
}
