package ai

import "math"

// outlook is what finishing a plan takes and brings.
type outlook struct {
	turns float64 // turns still needed: claims, draws, stations
	p     float64 // chance of finishing before the game ends
	value float64 // expected points, less the turns and trains spent
}

// Weights of the plan value: a turn and a train spent on a plan are not
// spent elsewhere (on long routes, mostly).
const (
	turnWeight  = 2.0 // points a turn earns when not spent on the plan
	trainWeight = 0.45
)

// assess estimates how a plan will go for s.
func assess(s *situation, pl *plan) outlook {
	n := analyse(s.b, &s.hand, pl.claims)
	newStations := 0
	for _, t := range pl.borrow {
		if !s.ownStationAt(t) {
			newStations++
		}
	}
	o := outlook{turns: float64(len(pl.claims)+newStations) + float64(n.short)/usefulPerDraw}
	slack := s.turnsLeft - o.turns
	o.p = 1 / (1 + math.Exp(-(slack-1)/2))
	routePts := 0
	for _, t := range pl.claims {
		routePts += s.b.RoutePoints(s.b.Tracks[t].Length)
	}
	for _, g := range pl.goals {
		o.value += float64(g.points) * (2*o.p - 1)
	}
	for _, g := range pl.dropped {
		o.value -= float64(g.points)
	}
	o.value += o.p*float64(routePts) - float64(newStations)*stationPenalty
	o.value -= turnWeight*o.turns + trainWeight*float64(pl.trains)
	return o
}
