package commands

import (
	"strconv"
	"strings"

	"conductor/engine"
	"conductor/present"
)

// drawCommand: /draw [card].
func (s *Service) drawCommand(c *call) (response, error) {
	req, tn := c.req, c.turn
	t := tn.t
	card := strings.ToLower(strings.TrimSpace(req.Opt("card")))
	if card == "" {
		second := t.game.Phase() == engine.PhaseSecondDraw
		return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "draw.choose"), Components: t.controls().drawRows(req.Locale, second)})
	}
	slot, ok := parseSlot(card, t.game.FaceUp(), req.Locale)
	if !ok {
		return reply(note(present.T(req.Locale, "draw.bad_card", "card", card)))
	}
	return tn.act(engine.Draw(slot), false)
}

// parseSlot reads "deck", "1".."5" or a face-up card's colour name.
func parseSlot(s string, faceUp []engine.Card, loc string) (int, bool) {
	if s == "deck" || s == "d" || s == "0" || strings.EqualFold(s, present.T(loc, "word.deck")) {
		return engine.DeckSlot, true
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(faceUp) {
		return n - 1, true
	}
	c, err := engine.ParseCard(s)
	for i, f := range faceUp {
		if (err == nil && f == c) || (f != engine.NoCard && strings.EqualFold(present.CardName(loc, f), s)) {
			return i, true
		}
	}
	return 0, false
}

// drawButton: a face-up card or the deck, clicked on a board or a prompt.
func (s *Service) drawButton(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t := tn.t
	slot := engine.DeckSlot
	if id.arg != "deck" {
		n, shown, ok := parseFaceUpArg(id.arg)
		if !ok {
			return reply(note(present.T(req.Locale, "stale.unknown")))
		}
		slot = n
		if up := t.game.FaceUp(); shown != engine.NoCard && (slot >= len(up) || up[slot] != shown) {
			// The button showed another card than the slot holds now
			// (the row was refilled since): never give a card that was
			// not shown; answer with the row as it is.
			second := t.game.Phase() == engine.PhaseSecondDraw
			return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "draw.changed", "card", present.CardName(req.Locale, shown)),
				Components: t.controls().drawRows(req.Locale, second)})
		}
	}
	return tn.act(engine.Draw(slot), false)
}

// faceUpArg names a face-up button by its slot and the card it shows
// ("3.red"), so that a click is checked against what the player saw.
func faceUpArg(slot int, c engine.Card) string {
	if c == engine.NoCard {
		return strconv.Itoa(slot + 1)
	}
	return strconv.Itoa(slot+1) + "." + c.String()
}

// parseFaceUpArg reads faceUpArg's "3.red" (or an older "3": no card known).
func parseFaceUpArg(arg string) (slot int, shown engine.Card, ok bool) {
	num, card, hasCard := strings.Cut(arg, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return 0, engine.NoCard, false
	}
	if !hasCard {
		return n - 1, engine.NoCard, true
	}
	c, err := engine.ParseCard(card)
	if err != nil {
		return 0, engine.NoCard, false
	}
	return n - 1, c, true
}

// ticketsCommand: /tickets [long] — draws destination tickets.
func (s *Service) ticketsCommand(c *call) (response, error) {
	return c.turn.drawTickets(c.req.Opt("long"))
}

// ticketsButton: the board's Tickets button.
func (s *Service) ticketsButton(c *call) (response, error) {
	return c.turn.drawTickets("")
}

// mixButton: how many long tickets (Märklin), at setup or during the game.
func (s *Service) mixButton(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t := tn.t
	n, err := strconv.Atoi(id.arg)
	if err != nil {
		return reply(note(present.T(req.Locale, "stale.unknown")))
	}
	if t.game.Phase() == engine.PhaseSetup {
		if id.turn != -1 {
			return reply(note(present.T(req.Locale, "stale.turn")))
		}
	} else if m := tn.myTurn(&id); m != nil {
		return reply(*m)
	}
	return tn.act(engine.Action{Kind: engine.ActDrawTickets, Long: n}, true)
}

// keepMenu: the tickets chosen in a select menu (or "none").
func (s *Service) keepMenu(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t, seat := tn.t, tn.seat
	g := t.game
	if g.Phase() == engine.PhaseSetup {
		if g.SetupDone(seat) || id.turn != setupKey(g, seat) {
			return reply(note(present.T(req.Locale, "stale.turn")))
		}
	} else if m := tn.myTurn(&id); m != nil {
		return reply(*m)
	}
	var idx []int
	if id.arg != "none" {
		for _, v := range req.Values {
			n, err := strconv.Atoi(v)
			if err != nil {
				return reply(note(present.T(req.Locale, "stale.unknown")))
			}
			idx = append(idx, n)
		}
	}
	return tn.act(engine.KeepTickets(idx...), true)
}

// setupTickets: the "Choose tickets" button after the game starts.
func (s *Service) setupTickets(c *call) (response, error) {
	req, tn := c.req, c.turn
	t, seat := tn.t, tn.seat
	g := t.game
	if g.Phase() != engine.PhaseSetup || g.SetupDone(seat) {
		return reply(note(present.T(req.Locale, "setup.done")))
	}
	if mix, n := g.NeedsMix(seat); mix {
		return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "setup.mix", "n", n), Components: t.controls().mixRows(seat, req.Locale)})
	}
	v := g.View(seat)
	return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "setup.keep", "min", v.KeepMin, "max", v.KeepMax), Components: t.controls().keepRows(seat, req.Locale)})
}

// tunnelButton: pay the tunnel's extra cards, or give up.
func (s *Service) tunnelButton(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	if id.arg == "cancel" {
		return tn.act(engine.Action{Kind: engine.ActTunnelCancel}, true)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(id.arg, "pay"))
	if err != nil {
		return reply(note(present.T(req.Locale, "stale.unknown")))
	}
	return tn.act(engine.Action{Kind: engine.ActTunnelPay, Locos: n}, true)
}

// setupKey tells one setup step's menu from another's, so that an old menu
// is stale once answered.
func setupKey(g *engine.Game, seat int) int {
	p := g.Player(seat)
	return -2 - (len(p.Tickets)*16 + len(p.Pending))
}
