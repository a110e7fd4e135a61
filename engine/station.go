package engine

import (
	"fmt"

	"conductor/data"
)

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
	case b.Rules.Stations == 0:
		return errorf(ErrBadAction, "there are no stations in this edition")
	case p.Stations == 0:
		return errorf(ErrNotAvailable, "you have built all %d of your stations", b.Rules.Stations)
	case a.City < 0 || int(a.City) >= len(b.Cities) || b.Cities[a.City].Country:
		return errorf(ErrBadAction, "there is no such city")
	case g.station[a.City] >= 0:
		return errorf(ErrNotAvailable, "%s already has a station (player %d's): choose a city without one", b.Cities[a.City].Name, g.station[a.City]+1)
	}
	cost := g.StationCost(seat)
	what := fmt.Sprintf("a station in %s (your station number %d)", b.Cities[a.City].Name, b.Rules.Stations-p.Stations+1)
	if _, err := g.checkPayment(seat, what, cost, data.Gray, a.Color, a.Locos, a.Locos4, 0); err != nil {
		return err
	}
	if a.Locos4 > 0 {
		return errorf(ErrNotAllowed, "stations are paid with colour cards and locomotives")
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
