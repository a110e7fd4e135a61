package commands

import (
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// A grey route or a station can often be paid in several colours. Picking
// one for the player (the colour held most, say) spends cards they may be
// saving; so when more than one colour pays at the least cost in
// locomotives, the player chooses. A colour or a locomotive count typed in
// the command is a choice already.

// payOptions are the cheapest legal ways to pay a (a claim of a grey route
// or a station, its payment not filled in), one per colour.
func payOptions(g *engine.Game, seat int, a engine.Action) []engine.Action {
	length, track := payLength(g, seat, a)
	var best []engine.Action
	cost := -1
	for _, c := range data.CardColors {
		if g.Player(seat).Hand[engine.ColorCard(c)] == 0 {
			continue
		}
		pa, msg := payWith(g, seat, track, length, c.String(), "", "en")
		if msg != "" || pa.Color == data.Gray {
			continue
		}
		full := a
		full.Color, full.Locos, full.Locos4 = pa.Color, pa.Locos, pa.Locos4
		if g.Clone().Play(seat, full) != nil {
			continue
		}
		switch n := full.Locos + full.Locos4; {
		case cost < 0 || n < cost:
			best, cost = []engine.Action{full}, n
		case n == cost:
			best = append(best, full)
		}
	}
	return best
}

// payWith chooses the cards for a claim (track >= 0) or a station of
// length cards: the colour asked for or the one the player holds most of,
// then locomotives for what is missing: ordinary ones first, Locomotive +4
// cards (which pay only long routes, Märklin) for the rest where they are
// allowed. color and locos are as the player typed them ("" when not).
func payWith(g *engine.Game, seat int, track data.TrackID, length int, color, locos, loc string) (engine.Action, string) {
	b := g.Board()
	hand := g.Player(seat).Hand
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

// payLength is the number of cards a claim or station costs, and its track
// (-1 for a station).
func payLength(g *engine.Game, seat int, a engine.Action) (int, data.TrackID) {
	if a.Kind == engine.ActStation {
		return max(g.StationCost(seat), 1), -1
	}
	return g.Board().Tracks[a.Track].Length, a.Track
}

// payButton plays the move with the way of paying clicked.
func (s *Service) payButton(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t := tn.t
	p, ok := t.pending[req.User]
	if !ok || !p.pay || p.turn != t.game.Turn() {
		return reply(note(present.T(req.Locale, "stale.turn")))
	}
	if id.arg == "cancel" {
		delete(t.pending, req.User)
		return update(note(present.T(req.Locale, "confirm.cancelled")))
	}
	opts := p.opts
	if opts == nil {
		opts = payOptions(t.game, tn.seat, p.action)
	}
	for _, o := range opts {
		if o.Color.String() == id.arg {
			delete(t.pending, req.User)
			return tn.act(o, true)
		}
	}
	return reply(note(present.T(req.Locale, "stale.turn")))
}

// spentCards are the cards a claim or station pays.
func spentCards(g *engine.Game, a engine.Action) []engine.Card {
	length, _ := payLength(g, g.Current(), a)
	return cardsOf(a, length)
}

// cardsOf lists the cards a payment a of length cards spends: its colour,
// then its locomotives.
func cardsOf(a engine.Action, length int) []engine.Card {
	cards := make([]engine.Card, 0, max(length, 0))
	for range length - a.Locos - a.Locos4 {
		cards = append(cards, engine.ColorCard(a.Color))
	}
	for range a.Locos {
		cards = append(cards, engine.Locomotive)
	}
	for range a.Locos4 {
		cards = append(cards, engine.Locomotive4)
	}
	return cards
}

// describeWhat names a claim's route or a station's city.
func describeWhat(loc string, g *engine.Game, a engine.Action) string {
	b := g.Board()
	if a.Kind == engine.ActStation {
		return present.T(loc, "pay.station", "city", b.Cities[a.City].Name)
	}
	return present.RouteLabel(loc, b, a.Track)
}
