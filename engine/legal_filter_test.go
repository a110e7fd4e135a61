package engine

import (
	"reflect"
	"slices"
	"testing"

	"conductor/data"
)

// LegalActions' quick skip of unaffordable tracks drops no claim: its
// claims are those of AppendClaims over every track, in random games on
// every edition.
func TestLegalActionsSkipsNoClaim(t *testing.T) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		g := started(t, id, "", 3)
		pick := newRNG(3)
		var buf []Action
		for steps := 0; g.Phase() != PhaseOver && steps < 2000; steps++ {
			s := g.Current()
			buf = g.LegalActions(s, buf[:0])
			if g.Phase() == PhaseTurn {
				var got, want []Action
				for _, a := range buf {
					if a.Kind == ActClaim {
						got = append(got, a)
					}
				}
				for tr := range g.board.Tracks {
					want = g.AppendClaims(s, data.TrackID(tr), want)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s step %d: %d claims listed, %d exist", id, steps, len(got), len(want))
				}
			}
			mustPlay(t, g, s, buf[pick.intn(len(buf))])
		}
	}
}

// CanClaim and AppendClaimable agree with AppendClaims on every track, in random games on
// every edition.
func TestCanClaimAgreesWithAppendClaims(t *testing.T) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		for seed := range uint64(3) {
			g := started(t, id, "", 2+int(seed))
			pick := newRNG(seed + 11)
			var buf, one []Action
			yes := 0
			for steps := 0; g.Phase() != PhaseOver && steps < 2000; steps++ {
				s := g.Current()
				buf = g.LegalActions(s, buf[:0])
				if g.Phase() == PhaseTurn {
					list := g.AppendClaimable(s, nil)
					for tr := range g.board.Tracks {
						one = g.AppendClaims(s, data.TrackID(tr), one[:0])
						if in := slices.Contains(list, data.TrackID(tr)); in != (len(one) > 0) {
							t.Fatalf("%s step %d track %d: AppendClaimable lists it %v, %d claims", id, steps, tr, in, len(one))
						}
						if got := g.CanClaim(s, data.TrackID(tr)); got != (len(one) > 0) {
							t.Fatalf("%s step %d track %d: CanClaim %v, %d claims", id, steps, tr, got, len(one))
						}
						if len(one) > 0 {
							yes++
						}
					}
				}
				mustPlay(t, g, s, buf[pick.intn(len(buf))])
			}
			if yes < 50 {
				t.Fatalf("%s seed %d: only %d claimable tracks met", id, seed, yes)
			}
		}
	}
}

// LegalActions but the draws and claims are AppendTicketsAndStations, then
// each passenger's trips (at most one per number of Passenger cards) by a
// reused TripSearch, in city order, or else the pass; and a reused
// TripSearch finds BestTrips' trips. In random games on every edition.
func TestTicketsStationsAndTripsAgreeWithLegalActions(t *testing.T) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		for seed := range uint64(3) {
			g := started(t, id, "", 2+int(seed))
			pick := newRNG(seed + 21)
			var ts TripSearch
			var buf, want, got []Action
			trips := 0
			for steps := 0; g.Phase() != PhaseOver && steps < 2000; steps++ {
				s := g.Current()
				buf = g.LegalActions(s, buf[:0])
				want = want[:0]
				for _, a := range buf {
					if a.Kind != ActDraw && a.Kind != ActClaim {
						want = append(want, a)
					}
				}
				got = g.AppendTicketsAndStations(s, got[:0])
				if g.Phase() == PhaseTurn {
					for c := range g.board.Cities {
						if g.PassengerAt(data.CityID(c)) != s {
							continue
						}
						fresh := g.BestTrips(s, data.CityID(c))
						reused := ts.Best(g, s, data.CityID(c))
						if len(fresh) != len(reused) || (len(fresh) > 0 && !reflect.DeepEqual(fresh, reused)) {
							t.Fatalf("%s step %d: reused search %v, want %v", id, steps, reused, fresh)
						}
						if len(reused) > g.Player(s).Hand[Passenger]+1 {
							t.Fatalf("%s step %d: %d trips with %d Passenger cards", id, steps, len(reused), g.Player(s).Hand[Passenger])
						}
						for _, tr := range fresh { // reused paths last until the next search
							got = append(got, Action{Kind: ActMovePassenger, City: data.CityID(c), Path: tr.Path})
						}
						trips += len(reused)
					}
					if len(got) == 0 && len(want) == 1 && want[0].Kind == ActPass && len(want) == len(buf) {
						got = append(got, want[0])
					}
				} else {
					want = want[:0]
				}
				if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
					t.Fatalf("%s step %d: %v, want %v", id, steps, got, want)
				}
				mustPlay(t, g, s, buf[pick.intn(len(buf))])
			}
			if id == "marklin" && trips < 20 {
				t.Fatalf("%s seed %d: only %d trips met", id, seed, trips)
			}
		}
	}
}
