package ai

import (
	"context"
	"slices"
	"testing"

	"conductor/ai/match"
	"conductor/engine"
	"conductor/internal/testkit"
)

// decision is a position some seat had to decide in.
type decision struct {
	view  engine.PlayerView
	legal []engine.Action
}

// collectDecisions plays a few 2-player hard-vs-dest games on a board and
// keeps every position met on the way.
func collectDecisions(b testing.TB, board string) []decision {
	bd := testkit.Board(b, board)
	var out []decision
	for seed := range uint64(3) {
		m, err := newMatch(bd, "", []string{"hard", "dest"}, seed)
		if err != nil {
			b.Fatal(err)
		}
		m.Before = func(d match.Decision) error {
			v, legal := d.View, d.Legal
			out = append(out, decision{v, slices.Clone(legal)})
			return nil
		}
		if err := m.Play(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkDecide times one decision of each level, averaged over every
// position of a few games on each edition. The target is 50 ms at the 99th
// percentile; conductor selfplay reports the percentiles.
func BenchmarkDecide(b *testing.B) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		positions := collectDecisions(b, board)
		for _, level := range allLevels {
			b.Run(level+"/"+board, func(b *testing.B) {
				bot, _ := New(level, 1)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					d := &positions[i%len(positions)]
					bot.Choose(d.view, d.legal)
					i++
				}
			})
		}
	}
}
