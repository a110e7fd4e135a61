package ai

import (
	"conductor/engine"
)

// finalTurn plays the last turn for the most points now: a claim (its
// route, the tickets it completes, the longest path), a station that
// completes tickets, or a passenger's trip.
func (p *plannerBot) finalTurn(s *situation, legal []engine.Action, pl *plan, opts *claimSet) engine.Action {
	best, bestV := fallback(legal), 0.0
	longest := newLongestWatch(s)
	for _, t := range opts.tracks {
		plain := appendPlain(s.w.acts2[:0], opts.of(t))
		s.w.acts2 = plain
		if len(plain) == 0 {
			continue
		}
		tr := &s.b.Tracks[t]
		v := float64(s.b.RoutePoints(tr.Length)) + 2*float64(ticketGain(s, t))
		if v+float64(longest.bonus) <= bestV {
			continue // even the longest path's bonus would not make it best
		}
		v += longest.gain(t)
		if v > bestV {
			best, bestV = bestPayment(s, plain, tr.Length, nil), v
		}
	}
	if a, v, ok := bestStationNow(s, legal); ok && v > bestV {
		best, bestV = a, v
	}
	if a, v, ok := bestTrip(s, legal); ok && float64(v) > bestV {
		best = a
	}
	return best
}
