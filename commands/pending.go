package commands

import (
	"strings"

	"conductor/engine"
	"conductor/present"
)

// A private prompt (tickets to keep, a tunnel to pay, a confirmation) is an
// ephemeral message: dismissed, lost on a client reload or a restart, it is
// gone. The choice itself lives in the game's state, so the prompt is
// rebuilt from the state whenever the player asks for anything: nothing
// can block a turn for good.

// pendingPrompt is the choice the seat owes the table, with its controls,
// rebuilt from the game (and, for a confirmation, from the table's pending
// actions). ok is false when the seat owes nothing.
func (t *table) pendingPrompt(seat int, user, loc string) (m Message, ok bool) {
	if m, ok := t.blockingPrompt(seat, loc); ok {
		return m, true
	}
	g := t.game
	if p, found := t.pending[user]; found && p.turn == g.Turn() && g.Current() == seat && p.trips == nil {
		if p.pay {
			if opts := t.payOptions(seat, p.action); len(opts) > 0 {
				return t.paymentPrompt(loc, p.action, opts), true
			}
			return Message{}, false
		}
		return t.confirmPrompt(loc, p.action), true
	}
	return Message{}, false
}

// blockingPrompt is a choice without which the game cannot go on: the first
// tickets, the tickets drawn this turn, a tunnel's extra cards.
func (t *table) blockingPrompt(seat int, loc string) (Message, bool) {
	g := t.game
	if g == nil {
		return Message{}, false
	}
	m := Message{Ephemeral: true}
	switch {
	case g.Phase() == engine.PhaseSetup && !g.SetupDone(seat):
		if mix, n := g.NeedsMix(seat); mix {
			m.Content = present.T(loc, "setup.mix", "n", n)
			m.Components = t.mixRows(seat, loc)
			return m, true
		}
		v := g.View(seat)
		m.Content = present.T(loc, "setup.keep", "min", v.KeepMin, "max", v.KeepMax)
		m.Components = t.keepRows(seat, loc)
		return m, len(m.Components) > 0
	case g.Current() != seat:
		return Message{}, false
	case g.Phase() == engine.PhaseKeepTickets:
		v := g.View(seat)
		m.Content = present.T(loc, "pending.tickets", "tickets", present.TicketList(g.Board(), v.Pending)) + "\n" + present.T(loc, "you.keep")
		m.Components = t.keepRows(seat, loc)
		return m, true
	case g.Phase() == engine.PhaseTunnel:
		tr, revealed, extra, _ := g.TunnelReveal()
		ask, rows := t.tunnelAsk(seat, loc)
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
func (t *table) confirmPrompt(loc string, a engine.Action) Message {
	turn := t.game.Turn()
	return Message{Ephemeral: true, Content: present.T(loc, "confirm.ask", "action", describeAction(loc, t.game, a)), Components: []Row{{
		{Kind: Button, ID: cid("confirm", t.rec.ID, turn, "yes"), Label: present.T(loc, "button.confirm"), Style: Success},
		{Kind: Button, ID: cid("confirm", t.rec.ID, turn, "no"), Label: present.T(loc, "button.cancel"), Style: Secondary},
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
