package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// buildStation builds the station a plan borrows an opponent's track with,
// once the rest of the tickets through that track is built (the station is
// the last piece) or the game is nearly over. Stations otherwise stay in
// the box: each unbuilt one is worth 4 points at the end.
func (p *plannerBot) buildStation(s *situation, pl *plan, legal []engine.Action) (engine.Action, bool) {
	if !p.o.model.stations {
		return engine.Action{}, false
	}
	for _, t := range pl.borrow {
		if s.ownStationAt(t) {
			continue
		}
		city := s.stationCity(t)
		if city == engine.NoCity {
			continue
		}
		if s.turnsLeft > 4 && !restBuilt(s, pl, t) {
			continue
		}
		opts := appendStations(s.w.stops[:0], legal, city)
		s.w.stops = opts
		if len(opts) > 0 {
			return bestPayment(s, opts, s.stationCost(), pl.claims), true
		}
	}
	return engine.Action{}, false
}

// restBuilt reports whether every path through borrowed track t has all its
// other tracks held (or borrowed).
func restBuilt(s *situation, pl *plan, t data.TrackID) bool {
	for _, path := range pl.paths {
		if !slices.Contains(path, t) {
			continue
		}
		for _, u := range path {
			if !s.own[u] && !s.oppHeld[u] {
				return false
			}
		}
	}
	return true
}

// stationOptions returns the legal station builds on city.
func stationOptions(legal []engine.Action, city data.CityID) []engine.Action {
	return appendStations(nil, legal, city)
}

// appendStations appends to buf the legal station builds on city.
func appendStations(buf, legal []engine.Action, city data.CityID) []engine.Action {
	for _, a := range legal {
		if a.Kind == engine.ActStation && a.City == city {
			buf = append(buf, a)
		}
	}
	return buf
}

// bestStationNow finds the station that adds the most ticket points right
// now, less the 4 points an unbuilt station is worth, as end-of-game scoring
// would count it (engine.ChooseStations lends each station its best track).
func bestStationNow(s *situation, legal []engine.Action) (engine.Action, float64, bool) {
	if s.rules.Stations == 0 || s.stations == 0 {
		return engine.Action{}, 0, false
	}
	held := make([]engine.HeldTicket, 0, len(s.tickets))
	incomplete := false
	for _, g := range s.tickets {
		held = append(held, engine.HeldTicket{A: g.a, B: g.b, Points: g.points})
		incomplete = incomplete || !g.done
	}
	if !incomplete {
		return engine.Action{}, 0, false
	}
	var mine []data.CityID
	for c, o := range s.v.Stations {
		if int(o) == s.seat {
			mine = append(mine, data.CityID(c))
		}
	}
	now := engine.ChooseStations(s.b, s.ownTracks, s.oppHeld, mine, held).TicketPoints
	var best engine.Action
	bestV, found := 0.0, false
	tried := map[data.CityID]bool{}
	for _, a := range legal {
		if a.Kind != engine.ActStation || tried[a.City] || !nearOpponent(s, a.City) {
			continue
		}
		tried[a.City] = true
		with := engine.ChooseStations(s.b, s.ownTracks, s.oppHeld, append(slices.Clone(mine), a.City), held).TicketPoints
		if v := float64(with-now) - stationPenalty; v > bestV {
			best = bestPayment(s, stationOptions(legal, a.City), s.stationCost(), nil)
			bestV, found = v, true
		}
	}
	return best, bestV, found
}

// nearOpponent reports whether an opponent holds a track at city.
func nearOpponent(s *situation, city data.CityID) bool {
	for _, t := range s.b.Adj[city] {
		if s.oppHeld[t] {
			return true
		}
	}
	return false
}
