package commands

import (
	"fmt"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// controls are the buttons, menus and prompts a table's position offers:
// the board's one-click draws, the second draw, the tickets to keep, a
// tunnel's extra cards, a payment's colours, a confirmation. They are
// built from the table's record, game and open choices alone: the table's
// own under its lock (table.controls), or the copies a snapshot keeps for
// the live page (View).
type controls struct {
	rec     *store.GameRecord
	game    *engine.Game
	pending map[string]pendingAction
	// page: the live page is on, and boards offer it.
	page bool
}

// controls are the table's own. The table is locked.
func (t *table) controls() controls {
	return controls{rec: t.rec, game: t.game, pending: t.pending, page: t.page != nil}
}

// A private prompt (tickets to keep, a tunnel to pay, a confirmation) is an
// ephemeral message: dismissed, lost on a client reload or a restart, it is
// gone. The choice itself lives in the game's state, so the prompt is
// rebuilt from the state whenever the player asks for anything: nothing
// can block a turn for good.

// boardButtons are the one-click actions under a board: the face-up cards,
// the deck, tickets and the player's hand.
func (c controls) boardButtons(loc string) []Row {
	g, rec := c.game, c.rec
	turn := g.Turn()
	v := g.Public()
	var cards Row
	for i, c := range g.FaceUp() {
		if c == engine.NoCard {
			cards = append(cards, Component{Kind: Button, ID: cid("draw", rec.ID, turn, fmt.Sprint(i+1)), Label: "—", Style: Secondary, Disabled: true})
			continue
		}
		cards = append(cards, Component{Kind: Button, ID: cid("draw", rec.ID, turn, faceUpArg(i, c)), Label: present.CardName(loc, c), Emoji: present.CardEmoji(c), Style: Secondary})
	}
	actions := Row{
		{Kind: Button, ID: cid("draw", rec.ID, turn, "deck"), Label: present.T(loc, "button.deck", "n", present.DeckCount(&v)), Style: Primary, Emoji: "🎴", Disabled: v.Deck+v.Discards == 0},
		{Kind: Button, ID: cid("tickets", rec.ID, turn, ""), Label: present.T(loc, "button.tickets"), Style: Primary, Emoji: present.TicketEmoji},
		{Kind: Button, ID: cid("hand", rec.ID, 0, ""), Label: present.T(loc, "button.hand"), Style: Secondary, Emoji: "🃏"},
	}
	actions = append(actions, c.activityButtons(rec.ID, loc)...)
	return []Row{cards, actions}
}

// activityButtons are the "Open the board" button under a live board,
// when the live page is on.
func (c controls) activityButtons(gameID, loc string) []Component {
	if !c.page {
		return nil
	}
	return []Component{{Kind: Button, ID: cid("activity", gameID, 0, ""), Label: present.T(loc, "web.open_board"), Emoji: "🗺️", Style: Secondary}}
}

// drawRows are the draw buttons: face-up slots and the deck.
func (c controls) drawRows(loc string, second bool) []Row {
	g, rec := c.game, c.rec
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
func (c controls) keepRows(seat int, loc string) []Row {
	v := c.game.View(seat)
	b := c.game.Board()
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
	turn := c.game.Turn()
	if c.game.Phase() == engine.PhaseSetup {
		turn = setupKey(c.game, seat) // setup steps: stale once answered
	}
	rows := []Row{{{Kind: Select, ID: cid("keep", c.rec.ID, turn, ""), Placeholder: ph, Options: opts, Min: min, Max: v.KeepMax}}}
	if min == 0 {
		// A select menu cannot submit nothing: offer a button for keeping none.
		rows = append(rows, Row{{Kind: Button, ID: cid("keep", c.rec.ID, turn, "none"), Label: present.T(loc, "button.keep_none"), Style: Secondary}})
	}
	return rows
}

// mixRows asks a Märklin player how many long tickets to take.
func (c controls) mixRows(seat int, loc string) []Row {
	_, n := c.game.NeedsMix(seat)
	turn := c.game.Turn()
	if c.game.Phase() == engine.PhaseSetup {
		turn = -1
	}
	var row Row
	for l := 0; l <= n && len(row) < 5; l++ {
		row = append(row, Component{Kind: Button, ID: cid("mix", c.rec.ID, turn, strconv.Itoa(l)),
			Label: present.T(loc, "button.mix", "long", l, "short", n-l), Style: Secondary})
	}
	return []Row{row}
}

// tunnelAsk is what a revealed tunnel asks of its player: the ways to pay
// its extra cards that the rules allow with the cards left in hand, each
// button naming the cards it spends, and giving up; or, when no way is
// left, only giving up, said so.
func (c controls) tunnelAsk(seat int, loc string) (string, []Row) {
	g := c.game
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
		row = append(row, Component{Kind: Button, ID: cid("tunnel", c.rec.ID, g.Turn(), "pay"+strconv.Itoa(l)),
			Label: present.T(loc, "button.tunnel_pay", "cards", present.CardsText(loc, cards)), Emoji: present.CardEmoji(cards[0]), Style: Success})
	}
	ask := present.T(loc, "you.tunnel_pay")
	if len(row) == 0 {
		ask = present.T(loc, "you.tunnel_cannot")
	}
	row = append(row, Component{Kind: Button, ID: cid("tunnel", c.rec.ID, g.Turn(), "cancel"), Label: present.T(loc, "button.tunnel_cancel"), Style: Danger})
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

// pendingPrompt is the choice the seat owes the table, with its controls,
// rebuilt from the game (and, for a confirmation, from the table's pending
// actions). ok is false when the seat owes nothing.
func (c controls) pendingPrompt(seat int, user, loc string) (m Message, ok bool) {
	if m, ok := c.blockingPrompt(seat, loc); ok {
		return m, true
	}
	g := c.game
	if p, found := c.pending[user]; found && p.turn == g.Turn() && g.Current() == seat && p.trips == nil {
		if p.pay {
			if opts := payOptions(c.game, seat, p.action); len(opts) > 0 {
				return c.paymentPrompt(loc, p.action, opts), true
			}
			return Message{}, false
		}
		return c.confirmPrompt(loc, p.action), true
	}
	return Message{}, false
}

// blockingPrompt is a choice without which the game cannot go on: the first
// tickets, the tickets drawn this turn, a tunnel's extra cards.
func (c controls) blockingPrompt(seat int, loc string) (Message, bool) {
	g := c.game
	if g == nil {
		return Message{}, false
	}
	m := Message{Ephemeral: true}
	switch {
	case g.Phase() == engine.PhaseSetup && !g.SetupDone(seat):
		if mix, n := g.NeedsMix(seat); mix {
			m.Content = present.T(loc, "setup.mix", "n", n)
			m.Components = c.mixRows(seat, loc)
			return m, true
		}
		v := g.View(seat)
		m.Content = present.T(loc, "setup.keep", "min", v.KeepMin, "max", v.KeepMax)
		m.Components = c.keepRows(seat, loc)
		return m, len(m.Components) > 0
	case g.Current() != seat:
		return Message{}, false
	case g.Phase() == engine.PhaseKeepTickets:
		v := g.View(seat)
		m.Content = present.T(loc, "pending.tickets", "tickets", present.TicketList(g.Board(), v.Pending)) + "\n" + present.T(loc, "you.keep")
		m.Components = c.keepRows(seat, loc)
		return m, true
	case g.Phase() == engine.PhaseTunnel:
		tr, revealed, extra, _ := g.TunnelReveal()
		ask, rows := c.tunnelAsk(seat, loc)
		lines := []string{
			present.T(loc, "pending.tunnel", "route", present.RouteLabel(loc, g.Board(), tr)),
			present.T(loc, "you.tunnel", "cards", present.CardsLabel(loc, revealed), "n", extra),
			ask,
		}
		m.Content = strings.Join(lines, "\n")
		m.Components = rows
		return m, true
	}
	return Message{}, false
}

// confirmPrompt asks whether to play a claim or station as described.
func (c controls) confirmPrompt(loc string, a engine.Action) Message {
	turn := c.game.Turn()
	return Message{Ephemeral: true, Content: present.T(loc, "confirm.ask", "action", describeAction(loc, c.game, a)), Components: []Row{{
		{Kind: Button, ID: cid("confirm", c.rec.ID, turn, "yes"), Label: present.T(loc, "button.confirm"), Style: Success},
		{Kind: Button, ID: cid("confirm", c.rec.ID, turn, "no"), Label: present.T(loc, "button.cancel"), Style: Secondary},
	}}}
}

// answersPending tells the controls of a pending choice from the requests
// that should show it again.
func answersPending(id *customID) bool {
	if id == nil {
		return false
	}
	switch id.kind {
	case "keep", "mix", "tunnel", "confirm", "trip", "setup", "pay":
		return true
	}
	return false
}

// paymentPrompt is the question with its buttons (at most five colours).
func (c controls) paymentPrompt(loc string, a engine.Action, opts []engine.Action) Message {
	g := c.game
	var row Row
	for _, o := range opts {
		if len(row) == 4 {
			break
		}
		row = append(row, Component{Kind: Button, ID: cid("pay", c.rec.ID, g.Turn(), o.Color.String()),
			Label: present.CardsText(loc, spentCards(g, o)), Emoji: present.CardEmoji(engine.ColorCard(o.Color)), Style: Primary})
	}
	row = append(row, Component{Kind: Button, ID: cid("pay", c.rec.ID, g.Turn(), "cancel"), Label: present.T(loc, "button.cancel"), Style: Secondary})
	return Message{Ephemeral: true, Content: present.T(loc, "pay.ask", "action", describeWhat(loc, g, a)), Components: []Row{row}}
}
