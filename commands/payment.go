package commands

import (
	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"context"
)

// A grey route or a station can often be paid in several colours. Picking
// one for the player (the colour held most, say) spends cards they may be
// saving; so when more than one colour pays at the least cost in
// locomotives, the player chooses. A colour or a locomotive count typed in
// the command is a choice already.

// payOptions are the cheapest legal ways to pay a (a claim of a grey route
// or a station, its payment not filled in), one per colour.
func (t *table) payOptions(seat int, a engine.Action) []engine.Action {
	g := t.game
	length, track := payLength(g, seat, a)
	var best []engine.Action
	cost := -1
	for _, c := range data.CardColors {
		if g.Player(seat).Hand[engine.ColorCard(c)] == 0 {
			continue
		}
		pa, msg := t.payWith(seat, track, length, c.String(), "", "en")
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

// payLength is the number of cards a claim or station costs, and its track
// (-1 for a station).
func payLength(g *engine.Game, seat int, a engine.Action) (int, data.TrackID) {
	if a.Kind == engine.ActStation {
		return max(g.StationCost(seat), 1), -1
	}
	return g.Board().Tracks[a.Track].Length, a.Track
}

// askPayment offers the ways to pay, one button each, and remembers the
// move until one is clicked.
func (s *Service) askPayment(req *Request, t *table, a engine.Action, opts []engine.Action) (response, error) {
	t.pending[req.User] = pendingAction{action: a, turn: t.game.Turn(), pay: true}
	return reply(t.paymentPrompt(req.Locale, a, opts))
}

// paymentPrompt is the question with its buttons (at most five colours).
func (t *table) paymentPrompt(loc string, a engine.Action, opts []engine.Action) Message {
	g := t.game
	var row Row
	for _, o := range opts {
		if len(row) == 4 {
			break
		}
		row = append(row, Component{Kind: Button, ID: cid("pay", t.rec.ID, g.Turn(), o.Color.String()),
			Label: present.CardsText(loc, spentCards(g, o)), Emoji: present.CardEmoji(engine.ColorCard(o.Color)), Style: Primary})
	}
	row = append(row, Component{Kind: Button, ID: cid("pay", t.rec.ID, g.Turn(), "cancel"), Label: present.T(loc, "button.cancel"), Style: Secondary})
	return Message{Ephemeral: true, Content: present.T(loc, "pay.ask", "action", describeWhat(loc, g, a)), Components: []Row{row}}
}

// payButton plays the move with the way of paying clicked.
func (s *Service) payButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.onTurn(ctx, req, &id, func(t *table, seat int) (response, error) {
		p, ok := t.pending[req.User]
		if !ok || !p.pay || p.turn != t.game.Turn() {
			return reply(note(present.T(req.Locale, "stale.turn")))
		}
		if id.arg == "cancel" {
			delete(t.pending, req.User)
			return update(note(present.T(req.Locale, "confirm.cancelled")))
		}
		for _, o := range t.payOptions(seat, p.action) {
			if o.Color.String() == id.arg {
				delete(t.pending, req.User)
				return s.act(req, t, seat, o, true)
			}
		}
		return reply(note(present.T(req.Locale, "stale.turn")))
	})
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
