package ai

import (
	"context"
	"testing"

	"conductor/internal/testkit"
)

// tournament plays games between two levels on a board, seats alternating,
// and returns the first level's share of wins (the rules' tie-breaks
// settle equal totals).
func tournament(t *testing.T, board, variant, a, b string, games int, seed uint64) float64 {
	t.Helper()
	bd := testkit.Board(t, board)
	wins := 0.0
	for i := range games {
		levels := []string{a, b}
		seatA := i % 2
		if seatA == 1 {
			levels = []string{b, a}
		}
		m, err := newMatch(bd, variant, levels, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Play(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m.Game.Final().Ranking[0] == seatA {
			wins++
		}
	}
	return wins / float64(games)
}

// TestHardBeatsDestHungry: on each edition the hard bot wins most two-player
// games against the destination-hungry baseline. Selfplay measures the full
// rate (over 90% on each edition); 60 games and a 60% bar keep the test
// fast and far from flaky (the bar sits several standard errors below).
// The editions play one after another, as TestBotsPlayOnlyLegalActions'
// do, and for the same reasons.
func TestHardBeatsDestHungry(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 20
	}
	for _, board := range []string{"usa", "europe", "marklin"} {
		t.Run(board, func(t *testing.T) {
			if rate := tournament(t, board, "", "hard", "dest", games, 7000); rate < 0.6 {
				t.Errorf("hard won %.0f%% of %d games against dest on %s, want at least 60%%", 100*rate, games, board)
			} else {
				t.Logf("hard won %.0f%% of %d games against dest", 100*rate, games)
			}
		})
	}
}
