package ai

import (
	"context"
	"testing"

	"conductor/ai/match"
	"conductor/engine"
	"conductor/internal/testkit"
)

// midGameViews plays 2-player hard-vs-dest games on a board and keeps the
// views seat 0 had at the start of its turns between turns 10 and 30.
func midGameViews(b testing.TB, board string) []engine.PlayerView {
	bd := testkit.Board(b, board)
	var out []engine.PlayerView
	for seed := range uint64(2) {
		m, err := newMatch(bd, "", []string{"hard", "dest"}, seed)
		if err != nil {
			b.Fatal(err)
		}
		m.Before = func(d match.Decision) error {
			seat, v := d.Seat, d.View
			if seat == 0 && v.Phase == engine.PhaseTurn && v.Turn >= 10 && v.Turn <= 30 {
				out = append(out, v)
			}
			return nil
		}
		if err := m.Play(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkPlayout plays determinised games from mid-game positions to
// their end: with uniform random moves ("random"), with the fast rollout
// policy ("policy"), with hard at every seat as the expert's playouts play
// it, keeping each seat's plan while it holds ("hard"; goal: 300 playouts
// a second on one core on USA and Europe, 150 on Märklin), and with hard
// planning afresh every decision, as it plays at a table ("fresh"). ns/op
// is one playout, cpu-ns/op its CPU time.
func BenchmarkPlayout(b *testing.B) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		views := midGameViews(b, board)
		var games []*engine.Game
		for i, v := range views {
			g, err := engine.Determinize(v, uint64(i))
			if err != nil {
				b.Fatal(err)
			}
			games = append(games, g)
		}
		for _, mode := range []string{"random", "policy", "hard", "fresh"} {
			b.Run(board+"/"+mode, func(b *testing.B) {
				r := newRollout(games[0].Board(), 2, 1)
				r.random = mode == "random"
				e := newExpert(1)
				if mode == "fresh" {
					e.roller = newPlannerBot(hardOptions) // no plan keeper
				}
				var scratch engine.Game
				b.ReportAllocs()
				defer lockThread()()
				cpu, proc := threadCPU(), processCPU()
				i := 0
				for b.Loop() {
					g := games[i%len(games)]
					g.CloneInto(&scratch)
					if mode == "hard" || mode == "fresh" {
						e.playHard(&scratch, 0) // two seats: no table knobs
					} else {
						r.play(&scratch)
					}
					i++
				}
				// CPU time a playout (Linux): its cost on one core, whatever
				// else the machine runs; cpu-ns/op on the benchmark's thread,
				// proc-ns/op on the whole process, the garbage collector's
				// share included.
				b.ReportMetric(float64(threadCPU()-cpu)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(processCPU()-proc)/float64(b.N), "proc-ns/op")
			})
		}
	}
}
