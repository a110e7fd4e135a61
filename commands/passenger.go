package commands

import (
	"context"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// passengerCommand: /passenger from [path]. Without a path it offers the
// best trips found; with one ("Berlin > Leipzig > Dresden") it moves along
// it, preferring the player's own routes where two are parallel.
func (s *Service) passengerCommand(ctx context.Context, req *Request) (response, error) {
	return s.onTurn(ctx, req, nil, func(t *table, seat int) (response, error) {
		g := t.game
		b := g.Board()
		if !b.Rules.HasPassengers() {
			return reply(note(present.T(req.Locale, "passenger.none_here")))
		}
		from, ok := b.FindCity(req.Opt("from"))
		if !ok || g.PassengerAt(from) != seat {
			return reply(note(present.T(req.Locale, "passenger.not_yours", "cities", t.passengerCities(seat))))
		}
		if p := strings.TrimSpace(req.Opt("path")); p != "" {
			path, msg := s.parsePath(req, t, seat, from, p)
			if msg != "" {
				return reply(note(msg))
			}
			return s.act(req, t, seat, engine.Action{Kind: engine.ActMovePassenger, City: from, Path: path}, false)
		}
		trips := g.BestTrips(seat, from)
		if len(trips) == 0 {
			return reply(note(present.T(req.Locale, "passenger.no_trip")))
		}
		if len(trips) > 5 {
			trips = trips[len(trips)-5:]
		}
		t.pending[req.User] = pendingAction{trips: trips, from: from, turn: g.Turn()}
		var lines []string
		var row Row
		for i, tr := range trips {
			lines = append(lines, present.T(req.Locale, "passenger.trip", "n", i+1, "path", pathLabel(b, from, tr.Path), "points", tr.Points, "cards", tr.Cost))
			row = append(row, Component{Kind: Button, ID: cid("trip", t.rec.ID, g.Turn(), strconv.Itoa(i)), Label: present.T(req.Locale, "button.trip", "n", i+1, "points", tr.Points), Style: Primary})
		}
		return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "passenger.choose") + "\n" + strings.Join(lines, "\n"), Components: []Row{row}})
	})
}

func (s *Service) tripButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.onTurn(ctx, req, &id, func(t *table, seat int) (response, error) {
		p, ok := t.pending[req.User]
		k, err := strconv.Atoi(id.arg)
		if !ok || err != nil || k < 0 || k >= len(p.trips) || p.turn != t.game.Turn() {
			return reply(note(present.T(req.Locale, "stale.turn")))
		}
		delete(t.pending, req.User)
		return s.act(req, t, seat, engine.Action{Kind: engine.ActMovePassenger, City: p.from, Path: p.trips[k].Path}, true)
	})
}

func (t *table) passengerCities(seat int) string {
	var names []string
	for c := range t.game.Board().Cities {
		if t.game.PassengerAt(data.CityID(c)) == seat {
			names = append(names, t.game.Board().Cities[c].Name)
		}
	}
	if len(names) == 0 {
		return "—"
	}
	return strings.Join(names, ", ")
}

// parsePath reads "Berlin > Leipzig > Dresden" (or with "-", ",").
func (s *Service) parsePath(req *Request, t *table, seat int, from data.CityID, p string) ([]data.TrackID, string) {
	g := t.game
	b := g.Board()
	sep := ">"
	for _, x := range []string{">", "→", ",", ";", " - "} {
		if strings.Contains(p, x) {
			sep = x
			break
		}
	}
	names := strings.Split(p, sep)
	at := from
	var path []data.TrackID
	for i, n := range names {
		c, ok := b.FindCity(strings.TrimSpace(n))
		if !ok {
			return nil, present.T(req.Locale, "error.bad_city", "city", strings.TrimSpace(n))
		}
		if i == 0 && c == from {
			continue
		}
		best := data.TrackID(-1)
		for _, tr := range b.Adj[at] {
			if b.Tracks[tr].Other(at) != c || g.Owner(tr) < 0 || contains(path, tr) {
				continue
			}
			if best < 0 || (g.Owner(tr) == seat && g.Owner(best) != seat) {
				best = tr
			}
		}
		if best < 0 {
			return nil, present.T(req.Locale, "passenger.no_route", "from", b.Cities[at].Name, "to", b.Cities[c].Name)
		}
		path = append(path, best)
		at = c
	}
	if len(path) == 0 {
		return nil, present.T(req.Locale, "passenger.no_trip")
	}
	return path, ""
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
