package engine

import (
	"reflect"
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
