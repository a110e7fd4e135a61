package engine

import "conductor/data"

// StationCost is the number of cards seat's next station costs (1, 2, 3).
func (g *Game) StationCost(seat int) int {
	r := &g.board.Rules
	built := r.Stations - g.players[seat].Stations
	if built >= len(r.StationCosts) {
		return 0
	}
	return r.StationCosts[built]
}

func (g *Game) checkStation(seat int, a Action) error {
	b := g.board
	p := &g.players[seat]
	switch {
	case !b.Rules.HasStations():
		return g.refuse(ErrBadAction, "station.none_edition")
	case p.Stations == 0:
		return g.refuse(ErrNotAvailable, "station.all_built", "stations", b.Rules.Stations)
	case a.City < 0 || int(a.City) >= len(b.Cities) || b.Cities[a.City].Country:
		return g.refuse(ErrBadAction, "station.no_city")
	case g.station[a.City] >= 0:
		return g.refuse(ErrNotAvailable, "station.taken", "city", a.City, "player", Seat(g.station[a.City]))
	}
	cost := g.StationCost(seat)
	what := StationSite{City: a.City, Number: b.Rules.Stations - p.Stations + 1}
	if _, err := g.checkPayment(seat, what, cost, data.Gray, a.Color, a.Locos, a.Locos4, 0); err != nil {
		return err
	}
	if a.Locos4 > 0 {
		return g.refuse(ErrNotAllowed, "station.no_locos4")
	}
	return nil
}

func (g *Game) performStation(seat int, a Action) {
	p := &g.players[seat]
	cost := g.StationCost(seat)
	colored := cost - a.Locos
	var cards []Card
	if g.narrate {
		cards = appendN(cards, ColorCard(a.Color), colored)
		cards = appendN(cards, Locomotive, a.Locos)
	}
	if colored > 0 {
		g.pay(p, ColorCard(a.Color), colored)
	}
	g.pay(p, Locomotive, a.Locos)
	p.Stations--
	g.station[a.City] = int8(seat)
	g.emit(Event{Kind: EvStation, Seat: seat, City: a.City, Cards: cards})
	g.setLastMove(seat, nil, []data.CityID{a.City})
	g.endTurn()
}
