package ai

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"testing"

	"conductor/ai/match"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestDumpHardDecisions writes a digest of hard's decisions in every
// position of 24 games (2 to 5 seats, three editions) and of hard playouts
// from some of them, to the file DUMP_OUT names: two versions of the code
// whose files are the same decide alike (a speed-up must not change a
// decision). Run with DUMP_OUT=/tmp/x go test ./ai -run TestDumpHardDecisions.
func TestDumpHardDecisions(t *testing.T) {
	out := os.Getenv("DUMP_OUT")
	if out == "" {
		t.Skip("DUMP_OUT not set")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games := 2
	for _, board := range []string{"usa", "europe", "marklin"} {
		bd := testkit.Board(t, board)
		for players := 2; players <= 5; players++ {
			for seed := range uint64(games) {
				levels := repeatLevel("hard", players)
				if seed%2 == 1 {
					levels[players-1] = "normal"
					levels[0] = "dest"
				}
				m, err := newMatch(bd, "", levels, 1000+seed*7+uint64(players))
				if err != nil {
					t.Fatal(err)
				}
				h := fnv.New64a()
				n := 0
				m.Before = func(d match.Decision) error {
					v, legal, a := d.View, d.Legal, d.Action
					n++
					hb := newPlannerBot(hardOptions)
					x := hb.Choose(v, legal)
					fmt.Fprintf(h, "%d:%s|", n, engine.FormatAction(bd, x))
					fmt.Fprintf(h, "%s;", engine.FormatAction(bd, a))
					if n%23 == 0 && (v.Phase == engine.PhaseTurn || v.Phase == engine.PhaseSecondDraw) {
						w, err := engine.Determinize(v, uint64(n))
						if err == nil {
							hb := newPlannerBot(hardOptions)
							var legal []engine.Action
							for steps := 0; w.Phase() != engine.PhaseOver && steps < 3000; steps++ {
								s := w.Current()
								legal = w.LegalActions(s, legal[:0])
								if len(legal) == 0 || w.Play(s, hb.Choose(w.View(s), legal)) != nil {
									break
								}
							}
							if fs := w.Final(); fs != nil {
								for _, p := range fs.Players {
									fmt.Fprintf(h, "P%d,", p.Total)
								}
							}
							fmt.Fprintf(h, "L%d,", len(w.Log()))
						}
					}
					return nil
				}
				if err := m.Play(context.Background()); err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(f, "%s %d %d: %d decisions, %x\n", board, players, seed, n, h.Sum64())
			}
		}
	}
}
