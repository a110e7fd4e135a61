package ai

import (
	"testing"

	"conductor/engine"
)

// TestRandomPlayoutsAreLegal: the random playouts' sampled moves are legal
// actions (one of LegalActions), and the playouts finish, on every edition.
func TestRandomPlayoutsAreLegal(t *testing.T) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		views := midGameViews(t, board)
		checked := 0
		for i, v := range views[:min(6, len(views))] {
			g, err := engine.Determinize(v, uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			r := newRollout(g.Board(), len(v.Players), uint64(i)+1)
			r.random = true
			var legal []engine.Action
			for steps := 0; g.Phase() != engine.PhaseOver && steps < maxSteps; steps++ {
				s := g.Current()
				legal = g.LegalActions(s, legal[:0])
				var a engine.Action
				if g.Phase() == engine.PhaseTurn {
					m, ok := r.randomTurn(g, s)
					if !ok {
						t.Fatalf("%s: no random move with %d legal actions", board, len(legal))
					}
					found := false
					for _, b := range legal {
						if m.Equal(b) {
							found = true
							break
						}
					}
					if !found {
						t.Fatalf("%s: sampled %s, not a legal action", board, engine.FormatAction(g.Board(), m))
					}
					a = m
					checked++
				} else {
					a = legal[r.intn(len(legal))]
				}
				if err := g.Play(s, a); err != nil {
					t.Fatalf("%s: %v", board, err)
				}
			}
			if g.Phase() != engine.PhaseOver {
				t.Fatalf("%s: a random playout did not finish", board)
			}
		}
		if checked < 50 {
			t.Fatalf("%s: only %d sampled moves checked", board, checked)
		}
	}
}
