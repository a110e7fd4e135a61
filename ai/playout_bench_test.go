package ai

import (
	"testing"

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
		m.observe = func(g *engine.Game, seat int, v engine.PlayerView, _ []engine.Action, _ engine.Action) error {
			if seat == 0 && v.Phase == engine.PhaseTurn && v.Turn >= 10 && v.Turn <= 30 {
				out = append(out, v)
			}
			return nil
		}
		if err := m.play(); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkPlayout plays determinised games from mid-game positions to
// their end, with uniform random moves, with the fast rollout policy and
// with hard at every seat (the expert's endgame playouts); ns/op is one
// playout (goal: 10,000 random and 3,000 policy
// playouts a second on one core).
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
		for _, mode := range []string{"random", "policy", "hard"} {
			b.Run(board+"/"+mode, func(b *testing.B) {
				r := newRollout(games[0].Board(), 2, 1)
				r.random = mode == "random"
				e := newExpert(1)
				var scratch engine.Game
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					g := games[i%len(games)]
					g.CloneInto(&scratch)
					if mode == "hard" {
						e.playHard(&scratch)
					} else {
						r.play(&scratch)
					}
					i++
				}
			})
		}
	}
}
