package commands

import (
	"context"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// claimCommand: /claim route [color] [locomotives] [passenger].
func (s *Service) claimCommand(ctx context.Context, req *Request) (response, error) {
	return s.onTurn(ctx, req, nil, func(t *table, seat int) (response, error) {
		b := t.game.Board()
		tr, ok := findTrack(b, req.Opt("route"))
		if !ok {
			return reply(note(present.T(req.Locale, "claim.bad_route", "route", req.Opt("route"), "example", b.TrackName(exampleTrack(t.game, seat)))))
		}
		tr = pickParallel(t.game, tr, req.Opt("color"), req.Locale)
		a, msg := s.payment(req, t, seat, tr, int(b.Tracks[tr].Length))
		if msg != "" {
			return reply(note(msg))
		}
		a.Kind, a.Track = engine.ActClaim, tr
		if p := req.Opt("passenger"); p != "" {
			c, ok := b.FindCity(p)
			if !ok {
				return reply(note(present.T(req.Locale, "error.bad_city", "city", p)))
			}
			a.Passenger, a.City = true, c
		}
		if b.Tracks[tr].Color == data.Gray && req.Opt("color") == "" && req.Opt("locomotives") == "" {
			if opts := t.payOptions(seat, a); len(opts) > 1 {
				return s.askPayment(req, t, a, opts)
			}
		}
		return s.maybeConfirm(req, t, seat, a)
	})
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
func (s *Service) stationCommand(ctx context.Context, req *Request) (response, error) {
	return s.onTurn(ctx, req, nil, func(t *table, seat int) (response, error) {
		b := t.game.Board()
		c, ok := b.FindCity(req.Opt("city"))
		if !ok {
			return reply(note(present.T(req.Locale, "error.bad_city", "city", req.Opt("city"))))
		}
		cost := t.game.StationCost(seat)
		if cost == 0 {
			cost = 1 // the engine explains that no station is left
		}
		a, msg := s.payment(req, t, seat, -1, cost)
		if msg != "" {
			return reply(note(msg))
		}
		a.Kind, a.City = engine.ActStation, c
		if req.Opt("color") == "" && req.Opt("locomotives") == "" {
			if opts := t.payOptions(seat, a); len(opts) > 1 {
				return s.askPayment(req, t, a, opts)
			}
		}
		return s.maybeConfirm(req, t, seat, a)
	})
}

// payment chooses the cards for a claim (track >= 0) or a station: the
// colour asked for or the one the player holds most of, then locomotives
// for what is missing: ordinary ones first, Locomotive +4 cards (which pay
// only long routes, Märklin) for the rest where they are allowed.
func (s *Service) payment(req *Request, t *table, seat int, track data.TrackID, length int) (engine.Action, string) {
	return t.payWith(seat, track, length, req.Opt("color"), req.Opt("locomotives"), req.Locale)
}

// payWith is payment with the colour and locomotive count given as typed.
func (t *table) payWith(seat int, track data.TrackID, length int, color, locos, loc string) (engine.Action, string) {
	b := t.game.Board()
	hand := t.game.Player(seat).Hand
	need, ferry := data.Gray, 0
	loco4 := false
	if track >= 0 {
		tr := &b.Tracks[track]
		need, ferry = tr.Color, tr.Locomotives
		loco4 = b.Rules.Cards.Locomotives4 > 0 && tr.Length >= b.Rules.Locomotive4MinLength
	}
	var a engine.Action
	c := need
	if v := strings.TrimSpace(color); v != "" {
		pc, ok := parseColorName(v, loc)
		if !ok {
			return a, present.T(loc, "error.bad_color", "color", v)
		}
		c = pc
	} else if c == data.Gray {
		c = data.CardColors[0]
		for _, x := range data.CardColors {
			if hand[x] > hand[c] {
				c = x
			}
		}
	}
	colored := min(hand[engine.ColorCard(c)], length-ferry)
	if v := strings.TrimSpace(locos); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > length {
			return a, present.T(loc, "error.bad_locos", "max", length)
		}
		a.Locos = n
		colored = length - n
		if loco4 && colored > hand[engine.ColorCard(c)] {
			a.Locos4 = min(hand[engine.Locomotive4], colored-hand[engine.ColorCard(c)])
			colored -= a.Locos4
		}
	} else {
		a.Locos, a.Locos4 = wildCards(hand, length-colored, loco4)
	}
	a.Color = c
	if colored == 0 {
		a.Color = data.Gray
	}
	return a, ""
}

// wildCards chooses the locomotives that pay what colour cards do not:
// ordinary locomotives first, then, where they are allowed (loco4),
// Locomotive +4 cards, which pay only long routes and so are kept for
// them. What no card covers is asked of ordinary locomotives: the
// engine's refusal then says what is short.
func wildCards(hand engine.Hand, missing int, loco4 bool) (locos, locos4 int) {
	locos = min(hand[engine.Locomotive], missing)
	missing -= locos
	if loco4 && missing > 0 {
		locos4 = min(hand[engine.Locomotive4], missing)
		missing -= locos4
	}
	return locos + missing, locos4
}

// parseColorName reads a colour in English or in the user's language.
func parseColorName(v, loc string) (data.Color, bool) {
	v = strings.ToLower(v)
	if c, err := data.ParseColor(v); err == nil && c != data.Gray {
		return c, true
	}
	for _, c := range data.CardColors {
		if data.Fold(present.T(loc, "card."+c.String())) == data.Fold(v) {
			return c, true
		}
	}
	return data.Gray, false
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

// maybeConfirm applies a claim or station, or asks first when the table
// plays with confirmations.
func (s *Service) maybeConfirm(req *Request, t *table, seat int, a engine.Action) (response, error) {
	if !tableOptions(t.rec).Confirm {
		return s.act(req, t, seat, a, false)
	}
	// Check now so that the question is only asked for a legal move.
	probe := t.game.Clone()
	if err := probe.Play(seat, a); err != nil {
		return reply(s.refusal(req, t, err))
	}
	t.pending[req.User] = pendingAction{action: a, turn: t.game.Turn()}
	return reply(t.confirmPrompt(req.Locale, a))
}

func (s *Service) confirmButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.onTurn(ctx, req, &id, func(t *table, seat int) (response, error) {
		p, ok := t.pending[req.User]
		delete(t.pending, req.User)
		if !ok || p.turn != t.game.Turn() {
			return reply(note(present.T(req.Locale, "stale.turn")))
		}
		if id.arg != "yes" {
			return update(note(present.T(req.Locale, "confirm.cancelled")))
		}
		return s.act(req, t, seat, p.action, true)
	})
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
