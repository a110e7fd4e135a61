package ai

import (
	"context"
	"math"
	"testing"

	"conductor/ai/match"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestTicketOdds: the odds the expert deals the other seat's tickets by
// fit the tickets that seat really holds better than a uniform deal does.
// The fit is the mean log-likelihood, per held ticket, of the real tickets
// among those seat 0 has not seen, over the second half of hard-vs-hard
// games; it is logged for a few sharpnesses (β = 0 is uniform) and the
// board's own β (the last one), which must fit clearly better than uniform.
func TestTicketOdds(t *testing.T) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		bd := testkit.Board(t, board)
		betas := []float64{0, 2, 4, 6, 8, sharpness(bd)}
		r := newTicketReader(bd)
		fit := make([]float64, len(betas))
		count := 0
		for seed := range uint64(6) {
			m, err := newMatch(bd, "", []string{"hard", "hard"}, seed)
			if err != nil {
				t.Fatal(err)
			}
			m.Before = func(d match.Decision) error {
				g, seat, v := m.Game, d.Seat, d.View
				if seat != 0 || v.Phase != engine.PhaseTurn || v.Players[1].Trains > bd.Rules.Trains/2 {
					return nil
				}
				variant, _ := bd.Variant(v.Variant)
				seen := map[int]bool{}
				for _, ts := range v.Tickets {
					seen[int(ts.Ticket)] = true
				}
				for bi, beta := range betas {
					odds := r.read(&v, beta)
					for _, held := range g.Player(1).Tickets {
						tk := &bd.Tickets[held]
						sum := 0.0
						for i := range bd.Tickets {
							o := &bd.Tickets[i]
							if !seen[i] && o.Long == tk.Long && (variant.Uses(o) || o.Deck == tk.Deck) {
								sum += odds(1, o.ID)
							}
						}
						fit[bi] += math.Log(odds(1, held) / sum)
						if bi == 0 {
							count++
						}
					}
				}
				return nil
			}
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		for bi := range fit {
			fit[bi] /= float64(count)
			t.Logf("%s β=%g: mean log-likelihood %.3f", board, betas[bi], fit[bi])
		}
		own, best := fit[len(fit)-1], fit[0]
		for _, f := range fit {
			best = max(best, f)
		}
		if own < fit[0]+0.5 {
			t.Errorf("%s: the odds (β=%g) fit the held tickets no better than uniform: %.3f vs %.3f", board, sharpness(bd), own, fit[0])
		}
		t.Logf("%s: own β=%g fits %.3f, the best logged %.3f", board, sharpness(bd), own, best)
	}
}

// TestDemandFollowsTheOthersTickets: a track's demand is what the other
// seats' inferred tickets want of it. In the second half of 4-seat
// hard games, the open tracks on the real paths of the other seats' real
// unfinished tickets have a mean demand well above the other open
// tracks'.
func TestDemandFollowsTheOthersTickets(t *testing.T) {
	bd := testkit.Board(t, "usa")
	r := newTicketReader(bd)
	router := newRouter(bd)
	var onPath, off float64
	var nOn, nOff int
	for seed := range uint64(4) {
		m, err := newMatch(bd, "", repeatLevel("hard", 4), seed)
		if err != nil {
			t.Fatal(err)
		}
		m.Before = func(d match.Decision) error {
			g, seat, v := m.Game, d.Seat, d.View
			if seat != 0 || v.Phase != engine.PhaseTurn || v.Turn%8 != 0 || v.Players[1].Trains > bd.Rules.Trains/2 {
				return nil
			}
			r.read(&v, sharpness(bd))
			wanted := make([]bool, len(bd.Tracks))
			for s := 1; s < 4; s++ {
				r.seatCosts(v.Owners, s, 4)
				for _, id := range g.Player(s).Tickets {
					tk := &bd.Tickets[id]
					if _, path := router.between(tk.A, tk.B, r.cost, nil); len(path) > 0 {
						for _, tr := range path {
							wanted[tr] = wanted[tr] || v.Owners[tr] < 0
						}
					}
				}
			}
			for tr, o := range v.Owners {
				if o >= 0 {
					continue
				}
				if wanted[tr] {
					onPath += r.demand[tr]
					nOn++
				} else {
					off += r.demand[tr]
					nOff++
				}
			}
			return nil
		}
		if err := m.Play(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if nOn < 50 || nOff < 50 {
		t.Fatalf("only %d tracks on the real paths, %d off", nOn, nOff)
	}
	on, rest := onPath/float64(nOn), off/float64(nOff)
	t.Logf("mean demand: %.3f on the others' real paths, %.3f elsewhere", on, rest)
	if on < 1.5*rest {
		t.Errorf("the tracks the others really want have a mean demand of %.3f, the others %.3f", on, rest)
	}
}
