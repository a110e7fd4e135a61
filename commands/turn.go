package commands

import (
	"context"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// seated finds the user's seat in the running game of a locked table.
// When it returns a message, that is the (friendly) answer instead.
func (s *Service) seated(req *Request, t *table, id *customID) (int, *Message) {
	fail := func(key string, kv ...any) (int, *Message) {
		m := note(present.T(req.Locale, key, kv...))
		return 0, &m
	}
	switch {
	case t.rec == nil:
		if id != nil {
			return fail("stale.game")
		}
		m := s.noGameHere(req, "game.none")
		return 0, &m
	case id != nil && id.game != t.rec.ID:
		return fail("stale.game")
	case t.rec.Status == store.StatusLobby || t.game == nil:
		return fail("game.not_started")
	}
	seat := seatOf(t.rec, req.User)
	if seat < 0 {
		return fail("game.not_player")
	}
	return seat, nil
}

// myTurn checks that it is the seat's turn in the main game (not setup),
// and that a button is from the current turn.
func (s *Service) myTurn(req *Request, t *table, seat int, id *customID) *Message {
	g := t.game
	switch {
	case g.Phase() == engine.PhaseOver:
		m := note(present.T(req.Locale, "game.over"))
		return &m
	case g.Phase() == engine.PhaseSetup:
		m := note(present.T(req.Locale, "game.setup_first"))
		return &m
	case id != nil && id.turn != g.Turn():
		m := note(present.T(req.Locale, "stale.turn"))
		return &m
	case g.Current() != seat:
		m := note(present.T(req.Locale, "game.not_your_turn", "player", present.EscapeMarkdown(seatName(t.rec, g.Current()))))
		return &m
	}
	return nil
}

// act applies an action for the requesting seat and answers: ephemeral
// private details (and the next step of the turn) for the player, then the
// public board when the turn is over.
func (s *Service) act(req *Request, t *table, seat int, a engine.Action, update bool) (response, error) {
	o, err := t.apply(seat, a, req)
	if err != nil {
		return reply(s.refusal(req, t, err))
	}
	if o.turnDone {
		s.countMove()
	}
	m := s.privateAfter(req, t, seat, o)
	t.after(o)
	return replyOrUpdate(m, update)
}

// privateAfter is the ephemeral answer to the player who acted: what they
// drew, and what the turn needs next (a second card, tickets to keep, a
// tunnel to pay).
func (s *Service) privateAfter(req *Request, t *table, seat int, o outcome) Message {
	loc := req.Locale
	g := t.game
	lines := present.NarrateOwn(loc, g.Board(), seat, o.events)
	m := Message{Ephemeral: true}
	if g.Phase() != engine.PhaseOver && (g.Current() == seat || g.Phase() == engine.PhaseSetup) {
		switch g.Phase() {
		case engine.PhaseSecondDraw:
			lines = append(lines, present.T(loc, "you.second"))
			m.Components = t.drawRows(loc, true)
		case engine.PhaseKeepTickets:
			lines = append(lines, present.T(loc, "you.keep"))
			m.Components = t.keepRows(seat, loc)
		case engine.PhaseTunnel:
			ask, rows := t.tunnelAsk(seat, loc)
			lines = append(lines, ask)
			m.Components = rows
		case engine.PhaseSetup:
			if !g.SetupDone(seat) {
				if mix, _ := g.NeedsMix(seat); mix {
					m.Components = t.mixRows(seat, loc)
				} else {
					lines = append(lines, present.T(loc, "you.keep"))
					m.Components = t.keepRows(seat, loc)
				}
			} else {
				lines = append(lines, present.T(loc, "you.wait_setup"))
			}
		}
	}
	if len(lines) == 0 {
		lines = append(lines, "✅")
	}
	m.Content = strings.Join(lines, "\n")
	return m
}

// drawRows are the draw buttons: face-up slots and the deck.
func (t *table) drawRows(loc string, second bool) []Row {
	g, rec := t.game, t.rec
	var row Row
	for i, c := range g.FaceUp() {
		dis := c == engine.NoCard || (second && c == engine.Locomotive)
		label := "—"
		if c != engine.NoCard {
			label = present.CardName(loc, c)
		}
		row = append(row, Component{Kind: Button, ID: cid("draw", rec.ID, g.Turn(), faceUpArg(i, c)), Label: label, Emoji: present.CardEmoji(c), Style: Secondary, Disabled: dis})
	}
	v := g.Public()
	deck := Row{{Kind: Button, ID: cid("draw", rec.ID, g.Turn(), "deck"), Label: present.T(loc, "button.deck", "n", present.DeckCount(&v)), Style: Primary, Disabled: v.Deck+v.Discards == 0}}
	return []Row{row, deck}
}

// keepRows is the select menu of pending tickets.
func (t *table) keepRows(seat int, loc string) []Row {
	v := t.game.View(seat)
	b := t.game.Board()
	var opts []SelectOption
	for i, id := range v.Pending {
		tk := &b.Tickets[id]
		desc := ""
		if tk.Long {
			desc = present.T(loc, "ticket.long")
		}
		opts = append(opts, SelectOption{Label: present.TicketLabel(b, id), Value: strconv.Itoa(i), Description: desc})
	}
	if len(opts) == 0 {
		return nil
	}
	ph := present.T(loc, "keep.placeholder", "min", v.KeepMin, "max", v.KeepMax)
	min := v.KeepMin
	turn := t.game.Turn()
	if t.game.Phase() == engine.PhaseSetup {
		turn = setupKey(t.game, seat) // setup steps: stale once answered
	}
	rows := []Row{{{Kind: Select, ID: cid("keep", t.rec.ID, turn, ""), Placeholder: ph, Options: opts, Min: min, Max: v.KeepMax}}}
	if min == 0 {
		// A select menu cannot submit nothing: offer a button for keeping none.
		rows = append(rows, Row{{Kind: Button, ID: cid("keep", t.rec.ID, turn, "none"), Label: present.T(loc, "button.keep_none"), Style: Secondary}})
	}
	return rows
}

// mixRows asks a Märklin player how many long tickets to take.
func (t *table) mixRows(seat int, loc string) []Row {
	_, n := t.game.NeedsMix(seat)
	turn := t.game.Turn()
	if t.game.Phase() == engine.PhaseSetup {
		turn = -1
	}
	var row Row
	for l := 0; l <= n && len(row) < 5; l++ {
		row = append(row, Component{Kind: Button, ID: cid("mix", t.rec.ID, turn, strconv.Itoa(l)),
			Label: present.T(loc, "button.mix", "long", l, "short", n-l), Style: Secondary})
	}
	return []Row{row}
}

// tunnelAsk is what a revealed tunnel asks of its player: the ways to pay
// its extra cards that the rules allow with the cards left in hand, each
// button naming the cards it spends, and giving up; or, when no way is
// left, only giving up, said so.
func (t *table) tunnelAsk(seat int, loc string) (string, []Row) {
	g := t.game
	var row Row
	_, _, extra, _ := g.TunnelReveal()
	colour := tunnelColour(g, seat)
	for _, l := range g.CanPayTunnel(seat) {
		if len(row) == 4 {
			break
		}
		var cards []engine.Card
		for range extra - l {
			cards = append(cards, engine.ColorCard(colour))
		}
		for range l {
			cards = append(cards, engine.Locomotive)
		}
		row = append(row, Component{Kind: Button, ID: cid("tunnel", t.rec.ID, g.Turn(), "pay"+strconv.Itoa(l)),
			Label: present.T(loc, "button.tunnel_pay", "cards", present.CardsText(loc, cards)), Emoji: present.CardEmoji(cards[0]), Style: Success})
	}
	ask := present.T(loc, "you.tunnel_pay")
	if len(row) == 0 {
		ask = present.T(loc, "you.tunnel_cannot")
	}
	row = append(row, Component{Kind: Button, ID: cid("tunnel", t.rec.ID, g.Turn(), "cancel"), Label: present.T(loc, "button.tunnel_cancel"), Style: Danger})
	return ask, []Row{row}
}

// tunnelColour is the colour of cards the seat played on the tunnel it
// claims (Gray: locomotives only, so its extra cards are locomotives).
func tunnelColour(g *engine.Game, seat int) data.Color {
	log := g.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if m := log[i]; m.Seat == seat && m.Action.Kind == engine.ActClaim {
			return m.Action.Color
		}
	}
	return data.Gray
}

// drawCommand: /draw [card].
func (s *Service) drawCommand(ctx context.Context, req *Request) (response, error) {
	return s.onTurn(ctx, req, nil, func(t *table, seat int) (response, error) {
		card := strings.ToLower(strings.TrimSpace(req.Opt("card")))
		if card == "" {
			second := t.game.Phase() == engine.PhaseSecondDraw
			return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "draw.choose"), Components: t.drawRows(req.Locale, second)})
		}
		slot, ok := parseSlot(card, t.game.FaceUp(), req.Locale)
		if !ok {
			return reply(note(present.T(req.Locale, "draw.bad_card", "card", card)))
		}
		return s.act(req, t, seat, engine.Draw(slot), false)
	})
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
func (s *Service) drawButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.onTurn(ctx, req, &id, func(t *table, seat int) (response, error) {
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
					Components: t.drawRows(req.Locale, second)})
			}
		}
		return s.act(req, t, seat, engine.Draw(slot), false)
	})
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
func (s *Service) ticketsCommand(ctx context.Context, req *Request, _ string) (response, error) {
	return s.onTurn(ctx, req, nil, func(t *table, seat int) (response, error) {
		return s.drawTickets(req, t, seat, req.Opt("long"))
	})
}

func (s *Service) ticketsButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.onTurn(ctx, req, &id, func(t *table, seat int) (response, error) {
		return s.drawTickets(req, t, seat, "")
	})
}

func (s *Service) drawTickets(req *Request, t *table, seat int, long string) (response, error) {
	if mix, _ := t.game.NeedsMix(seat); mix {
		if long == "" {
			return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "tickets.mix"), Components: t.mixRows(seat, req.Locale)})
		}
		n, err := strconv.Atoi(long)
		if err != nil {
			return reply(note(present.T(req.Locale, "tickets.bad_mix")))
		}
		return s.act(req, t, seat, engine.Action{Kind: engine.ActDrawTickets, Long: n}, false)
	}
	return s.act(req, t, seat, engine.Action{Kind: engine.ActDrawTickets}, false)
}

// mixButton: how many long tickets (Märklin), at setup or during the game.
func (s *Service) mixButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.atTable(ctx, req, &id, func(t *table, seat int) (response, error) {
		n, err := strconv.Atoi(id.arg)
		if err != nil {
			return reply(note(present.T(req.Locale, "stale.unknown")))
		}
		if t.game.Phase() == engine.PhaseSetup {
			if id.turn != -1 {
				return reply(note(present.T(req.Locale, "stale.turn")))
			}
		} else if m := s.myTurn(req, t, seat, &id); m != nil {
			return reply(*m)
		}
		return s.act(req, t, seat, engine.Action{Kind: engine.ActDrawTickets, Long: n}, true)
	})
}

// keepMenu: the tickets chosen in a select menu (or "none").
func (s *Service) keepMenu(ctx context.Context, req *Request, id customID) (response, error) {
	return s.atTable(ctx, req, &id, func(t *table, seat int) (response, error) {
		g := t.game
		if g.Phase() == engine.PhaseSetup {
			if g.SetupDone(seat) || id.turn != setupKey(g, seat) {
				return reply(note(present.T(req.Locale, "stale.turn")))
			}
		} else if m := s.myTurn(req, t, seat, &id); m != nil {
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
		return s.act(req, t, seat, engine.KeepTickets(idx...), true)
	})
}

// setupTickets: the "Choose tickets" button after the game starts.
func (s *Service) setupTickets(ctx context.Context, req *Request, id customID) (response, error) {
	return s.atTable(ctx, req, &id, func(t *table, seat int) (response, error) {
		g := t.game
		if g.Phase() != engine.PhaseSetup || g.SetupDone(seat) {
			return reply(note(present.T(req.Locale, "setup.done")))
		}
		if mix, n := g.NeedsMix(seat); mix {
			return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "setup.mix", "n", n), Components: t.mixRows(seat, req.Locale)})
		}
		v := g.View(seat)
		return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "setup.keep", "min", v.KeepMin, "max", v.KeepMax), Components: t.keepRows(seat, req.Locale)})
	})
}

// tunnelButton: pay the tunnel's extra cards, or give up.
func (s *Service) tunnelButton(ctx context.Context, req *Request, id customID) (response, error) {
	return s.onTurn(ctx, req, &id, func(t *table, seat int) (response, error) {
		if id.arg == "cancel" {
			return s.act(req, t, seat, engine.Action{Kind: engine.ActTunnelCancel}, true)
		}
		n, err := strconv.Atoi(strings.TrimPrefix(id.arg, "pay"))
		if err != nil {
			return reply(note(present.T(req.Locale, "stale.unknown")))
		}
		return s.act(req, t, seat, engine.Action{Kind: engine.ActTunnelPay, Locos: n}, true)
	})
}

// setupKey tells one setup step's menu from another's, so that an old menu
// is stale once answered.
func setupKey(g *engine.Game, seat int) int {
	p := g.Player(seat)
	return -2 - (len(p.Tickets)*16 + len(p.Pending))
}

// onTurn runs fn with the table locked when the request comes from a
// seated player on their own turn (and, for a button, the current turn);
// otherwise it answers with the reason.
func (s *Service) onTurn(ctx context.Context, req *Request, id *customID, fn func(t *table, seat int) (response, error)) (response, error) {
	return s.atTable(ctx, req, id, func(t *table, seat int) (response, error) {
		if !answersPending(id) {
			// A choice left open (a dismissed prompt, a restart) comes back
			// instead of a refusal: the turn can always go on.
			if m, ok := t.blockingPrompt(seat, req.Locale); ok {
				return reply(m)
			}
		}
		if m := s.myTurn(req, t, seat, id); m != nil {
			return reply(*m)
		}
		return fn(t, seat)
	})
}

// atTable runs fn with the table locked when the request comes from a
// seated player of the channel's running game.
func (s *Service) atTable(ctx context.Context, req *Request, id *customID, fn func(t *table, seat int) (response, error)) (response, error) {
	r, err := s.withTable(ctx, req.Channel, func(t *table) (response, error) {
		seat, m := s.seated(req, t, id)
		if m != nil {
			return reply(*m)
		}
		return fn(t, seat)
	})
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	return r, nil
}
