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

// assess estimates how a plan will go for s. The verdict is kept with
// the plan: a plan does not change, nor does the situation of a decision.
func assess(s *situation, pl *plan) outlook {
	if !pl.assessed {
		pl.outlook, pl.assessed = assessNow(s, pl), true
	}
	return pl.outlook
}

func assessNow(s *situation, pl *plan) outlook {
	newStations := 0
	for _, t := range pl.borrow {
		if !s.ownStationAt(t) {
			newStations++
		}
	}
	sim := &s.w.sim
	sim.load(s, pl.claims)
	draws := sim.turns(s.hand, s.v.FaceUp, s.w.viewRand(s, saltDraws))
	o := outlook{turns: float64(len(pl.claims)+newStations) + draws}
	// Märklin: each passenger will take a turn to move before the end.
	reserve := 0.0
	if s.rules.Passengers > 0 {
		reserve = float64(passengersOnBoard(s) + s.v.Players[s.seat].PassengersLeft)
	}
	slack := s.turnsLeft - o.turns - reserve - s.crowding()
	o.p = completion(slack)
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

// completion is the chance of finishing a plan with slack turns to spare:
// plans slip (cards come late, tracks get taken), by several turns at times.
func completion(slack float64) float64 {
	return 1 / (1 + math.Exp(-(slack-2)/3.5))
}
