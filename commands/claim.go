package commands

import (
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// claimCommand: /claim route [color] [locomotives] [passenger].
func (s *Service) claimCommand(c *call) (response, error) {
	req, tn := c.req, c.turn
	b := tn.t.game.Board()
	route := tn.playableNow("claim", req.Opt("route"))
	if r, ok := tn.suggestionAnswer("claim", route); ok {
		return r, nil
	}
	if ids := eitherTrack(tn.t.game, tn.seat, route); len(ids) > 0 {
		return tn.claimEither(ids, typedPayment(req), req.Opt("passenger"))
	}
	tr, ok := findTrack(b, route)
	if !ok {
		return reply(note(present.T(req.Locale, "claim.bad_route", "route", route, "example", b.TrackName(exampleTrack(tn.t.game, tn.seat)))))
	}
	return tn.claim(tr, typedPayment(req), req.Opt("passenger"))
}

// typedPayment is the payment a command's options say.
func typedPayment(req *Request) payChoice {
	return payChoice{color: req.Opt("color"), locos: req.Opt("locomotives")}
}

// exampleTrack is a route of the game's board to show how one is written:
// one the seat can claim now, else a free one.
func exampleTrack(g *engine.Game, seat int) data.TrackID {
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind == engine.ActClaim {
			return a.Track
		}
	}
	for i := range g.Board().Tracks {
		if g.Owner(data.TrackID(i)) < 0 {
			return data.TrackID(i)
		}
	}
	return 0
}

// stationCommand: /station city [color] [locomotives].
func (s *Service) stationCommand(c *call) (response, error) {
	req, tn := c.req, c.turn
	name := tn.playableNow("station", req.Opt("city"))
	if r, ok := tn.suggestionAnswer("station", name); ok {
		return r, nil
	}
	city, ok := tn.t.game.Board().FindCity(name)
	if !ok {
		return reply(note(present.T(req.Locale, "error.bad_city", "city", name)))
	}
	return tn.station(city, typedPayment(req))
}

// findTrack resolves what a player typed or picked: the notation value the
// autocomplete sends ("Paris|Frankfurt|white"), a label
// ("Paris – Frankfurt (white 3)") or two city names.
func findTrack(b *data.Board, s string) (data.TrackID, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if id, err := engine.ParseTrackRef(b, s); err == nil {
		return id, true
	}
	for i := range b.Tracks {
		if data.Fold(present.RouteName(b, data.TrackID(i))) == data.Fold(s) {
			return data.TrackID(i), true
		}
		for _, l := range present.Languages {
			if data.Fold(present.RouteLabel(l, b, data.TrackID(i))) == data.Fold(s) {
				return data.TrackID(i), true
			}
		}
	}
	// "Paris – Frankfurt white", "paris frankfurt", "Paris-Frankfurt".
	colorWord := ""
	if i := strings.LastIndex(s, "("); i > 0 {
		colorWord = strings.Fields(strings.Trim(s[i:], "()") + " x")[0]
		s = s[:i]
	}
	for _, sep := range []string{"–", "—", " - ", "-", ",", " to ", "|"} {
		if a, c, ok := strings.Cut(s, sep); ok {
			if id, ok := trackBetween(b, a, c, colorWord); ok {
				return id, true
			}
		}
	}
	// Two names separated by spaces: try every split.
	words := strings.Fields(s)
	for i := 1; i < len(words); i++ {
		last := words[len(words)-1]
		if _, err := data.ParseColor(strings.ToLower(last)); err == nil && i < len(words)-1 {
			if id, ok := trackBetween(b, strings.Join(words[:i], " "), strings.Join(words[i:len(words)-1], " "), last); ok {
				return id, true
			}
		}
		if id, ok := trackBetween(b, strings.Join(words[:i], " "), strings.Join(words[i:], " "), colorWord); ok {
			return id, true
		}
	}
	return 0, false
}

func trackBetween(b *data.Board, x, y, color string) (data.TrackID, bool) {
	a, ok1 := b.FindCity(strings.TrimSpace(x))
	c, ok2 := b.FindCity(strings.TrimSpace(y))
	if !ok1 || !ok2 {
		return 0, false
	}
	want, err := data.ParseColor(strings.ToLower(color))
	for _, t := range b.Adj[a] {
		if b.Tracks[t].Other(a) == c && (err != nil || b.Tracks[t].Color == want) {
			return t, true
		}
	}
	return 0, false
}

// pickParallel chooses among a double (or triple) route's tracks when the
// player named the route by its cities: the free track of the colour asked
// for, else a free grey one, else any free one. A track already taken is
// never chosen over a free sibling.
func pickParallel(g *engine.Game, tr data.TrackID, color, loc string) data.TrackID {
	b := g.Board()
	group := b.Groups[b.Tracks[tr].Group]
	if len(group) < 2 {
		return tr
	}
	want, wanted := data.Gray, false
	if color = strings.TrimSpace(color); color != "" {
		want, wanted = parseColorName(color, loc)
	}
	fits := func(id data.TrackID) int {
		c := b.Tracks[id].Color
		switch {
		case g.Owner(id) >= 0:
			return 0
		case wanted && c == want:
			return 3
		case !wanted || c == data.Gray:
			return 2
		}
		return 1
	}
	best := tr
	for _, id := range group {
		if fits(id) > fits(best) {
			best = id
		}
	}
	return best
}

// confirmButton: the answer to a confirmation (yes or no).
func (s *Service) confirmButton(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t := tn.t
	p, ok := t.pending[req.User]
	delete(t.pending, req.User)
	if !ok || p.turn != t.game.Turn() {
		return reply(note(present.T(req.Locale, "stale.turn")))
	}
	if id.arg != "yes" {
		return update(note(present.T(req.Locale, "confirm.cancelled")))
	}
	return tn.act(p.action, true)
}

// describeAction is a short localised description of a claim or station.
func describeAction(loc string, g *engine.Game, a engine.Action) string {
	b := g.Board()
	cards := spentCards(g, a)
	if a.Kind == engine.ActStation {
		return present.T(loc, "confirm.station", "city", b.Cities[a.City].Name, "cards", present.CardsLabel(loc, cards))
	}
	return present.T(loc, "confirm.claim", "route", present.RouteLabel(loc, b, a.Track), "cards", present.CardsLabel(loc, cards))
}
