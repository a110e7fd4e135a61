package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// claimSurplus turns cards the plan has no use for into route points: a
// route paid entirely with surplus colour cards (no wild card), long enough
// to beat a turn of drawing, whose trains the plan can spare.
func (p *plannerBot) claimSurplus(s *situation, pl *plan, opts map[data.TrackID][]engine.Action) (engine.Action, bool) {
	n := analyse(s.b, &s.hand, pl.claims)
	spareTrains := s.trains - pl.trains
	longest := newLongestWatch(s)
	bestT, bestV := noTrack, 0.0
	var bestPay engine.Action
	for _, t := range sortedTracks(opts) {
		if slices.Contains(pl.claims, t) {
			continue
		}
		tr := &s.b.Tracks[t]
		if tr.Length > spareTrains {
			continue
		}
		for _, a := range plainPayments(opts[t]) {
			if a.Locos > 0 || a.Locos4 > 0 || a.Color == data.Gray {
				continue
			}
			c := engine.ColorCard(a.Color)
			if tr.Length > s.hand[c]-n.want[c] {
				continue
			}
			v := float64(s.b.RoutePoints(tr.Length)) + 2*float64(ticketGain(s, t)) + 0.5*longest.gain(t)
			if v > bestV {
				bestT, bestV, bestPay = t, v, a
			}
			break
		}
	}
	if bestT == noTrack || bestV < pointsPerTurn+1.5 {
		return engine.Action{}, false
	}
	if city, ok := p.passengerCity(s, pl, bestT, opts[bestT]); ok {
		if a, ok := withPassenger(opts[bestT], bestPay, city); ok {
			return a, true
		}
	}
	return bestPay, true
}
