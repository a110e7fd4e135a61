package engine_test

import (
	"fmt"
	"testing"

	"conductor/engine"

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
		covered[fmt.Sprint(g.Board, " ", g.Variant, " rules ", g.Rules)] = true
		for _, c := range g.Checks {
			corners[c] = true
		}
	}
	// At least one game per edition and variant under every rules revision
	// (stored games keep the one they started with), and the corners that
	// most need a whole game behind them.
	for _, b := range testkit.Catalog().Boards() {
		for _, v := range b.Variants {
			for r := engine.Revision1; r <= engine.LatestRevision; r++ {
				if k := fmt.Sprint(b.ID, " ", v.ID, " rules ", r); !covered[k] {
					t.Errorf("no recorded game of %s", k)
				}
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
