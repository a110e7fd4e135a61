package commands

import (
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// passengerCommand: /passenger from [path]. Without a path it offers the
// best trips found; with one ("Berlin > Leipzig > Dresden") it moves along
// it, preferring the player's own routes where two are parallel.
func (s *Service) passengerCommand(c *call) (response, error) {
	req, tn := c.req, c.turn
	from := tn.playableNow("passenger", req.Opt("from"))
	if r, ok := tn.suggestionAnswer("passenger", from); ok {
		return r, nil
	}
	return tn.passengerFrom(from, req.Opt("path"))
}

// tripButton: one of the trips offered.
func (s *Service) tripButton(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t := tn.t
	p, ok := t.pending[req.User]
	k, err := strconv.Atoi(id.arg)
	if !ok || err != nil || k < 0 || k >= len(p.trips) || p.turn != t.game.Turn() {
		return reply(note(present.T(req.Locale, "stale.turn")))
	}
	delete(t.pending, req.User)
	return tn.act(engine.Action{Kind: engine.ActMovePassenger, City: p.from, Path: p.trips[k].Path}, true)
}

// passengerCities names the cities where seat has a passenger.
func passengerCities(g *engine.Game, seat int) string {
	var names []string
	for c := range g.Board().Cities {
		if g.PassengerAt(data.CityID(c)) == seat {
			names = append(names, g.Board().Cities[c].Name)
		}
	}
	if len(names) == 0 {
		return "—"
	}
	return strings.Join(names, ", ")
}

func contains(s []data.TrackID, x data.TrackID) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// pathLabel is "Berlin → Leipzig → Dresden".
func pathLabel(b *data.Board, from data.CityID, path []data.TrackID) string {
	names := []string{b.Cities[from].Name}
	at := from
	for _, t := range path {
		at = b.Tracks[t].Other(at)
		names = append(names, b.Cities[at].Name)
	}
	return strings.Join(names, " → ")
}
