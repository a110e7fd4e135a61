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

// hintLevel is the bot that coaches: the strongest level.
const hintLevel = "expert"

// hintsOff reports whether the table turned hints off (/ttr new hints:False).
func hintsOff(rec *store.GameRecord) bool { return tableOptions(rec).NoHints }

// hintKey is the record option counting the hints a seat asked for; it is
// kept in the record so that the count survives restarts.
func hintKey(seat int) string { return "hints_used." + strconv.Itoa(seat) }

// hintCommand answers /ttr hint: privately, the move the expert would make
// from the asker's own view, with a one-line reason, wherever the asker
// has a choice to make: a turn, the first tickets (or how many long ones
// to ask for), the tickets drawn, a tunnel's extra cards, and how to pay
// a claim or a station it chose (the colours offered). The view and legal
// moves are copied with the table locked; the search runs after.
func (s *Service) hintCommand(c *call) (response, error) {
	req, t, seat := c.req, c.turn.t, c.turn.seat
	g, rec := t.game, t.rec
	refuse := func(key string) (response, error) { return reply(note(present.T(req.Locale, key))) }
	switch {
	case hintsOff(rec):
		return refuse("hint.off")
	case s.cfg.Bots == nil:
		return refuse("lobby.no_bots")
	case g.Phase() == engine.PhaseOver:
		return refuse("game.over")
	case g.Phase() == engine.PhaseSetup && g.SetupDone(seat):
		return refuse("hint.not_your_turn")
	case g.Phase() != engine.PhaseSetup && g.Current() != seat:
		return refuse("hint.not_your_turn")
	}
	v := g.View(seat)
	legal := g.LegalActions(seat, nil)
	var paying []engine.Action
	// Paying for a claim or a station chosen: the choice is the colour.
	if p, ok := t.pending[req.User]; ok && p.pay && p.turn == g.Turn() && g.Current() == seat {
		opts := p.opts
		if opts == nil {
			opts = payOptions(g, seat, p.action)
		}
		if len(opts) > 1 {
			paying, legal = opts, opts
		}
	}
	n, _ := strconv.Atoi(rec.Options[hintKey(seat)])
	count := func(r *store.GameRecord) {
		if r.Options == nil {
			r.Options = map[string]string{}
		}
		r.Options[hintKey(seat)] = strconv.Itoa(n + 1)
	}
	// Update, not Put: the stored record holds what the table's copy
	// may not (the live board's id), and keeps its snapshot.
	if err := s.cfg.Store.Update(rec.Channel, func(r *store.GameRecord) error { count(r); return nil }); err != nil {
		return reply(oops(req, err.Error()))
	}
	count(rec)
	seed := rec.Seed ^ uint64(len(rec.Log))*0x9e3779b97f4a7c15
	if len(legal) == 0 {
		return reply(note(present.T(req.Locale, "hint.not_your_turn")))
	}
	// The search runs once the table's lock is released, on the copies.
	return response{unlocked: func() (response, error) {
		bot, err := s.cfg.Bots(hintLevel, seed)
		if err != nil {
			return reply(oops(req, err.Error()))
		}
		// Closing the service cuts the search short: the hint is then the
		// best move found so far.
		ctx, cancel := s.withClose(c.ctx)
		defer cancel()
		a := bot.Choose(ctx, v, legal)
		return reply(note(present.T(req.Locale, "hint.move", "move", hintMove(req.Locale, &v, a, paying != nil),
			"reason", hintReason(req.Locale, &v, a, paying))))
	}}, nil
}

// hintMove says a move in words; paying, a way to pay a move already
// chosen.
func hintMove(loc string, v *engine.PlayerView, a engine.Action, paying bool) string {
	b := v.Board
	if paying {
		return present.T(loc, "hint.do.pay", "cards", present.CardsLabel(loc, paidCards(v, a)))
	}
	switch a.Kind {
	case engine.ActClaim:
		return present.T(loc, "hint.do.claim", "route", present.RouteLabel(loc, b, a.Track))
	case engine.ActDraw:
		if a.Slot == engine.DeckSlot {
			return present.T(loc, "hint.do.blind")
		}
		return present.T(loc, "hint.do.card", "card", present.CardLabel(loc, v.FaceUp[a.Slot]))
	case engine.ActDrawTickets:
		if mixing(v) {
			switch short := max(0, mixSize(v)-a.Long); {
			case short == 0:
				return present.T(loc, "hint.do.mix_long", "n", a.Long)
			case a.Long == 0:
				return present.T(loc, "hint.do.mix_short", "n", short)
			default:
				return present.T(loc, "hint.do.mix", "long", a.Long, "short", short)
			}
		}
		return present.T(loc, "hint.do.tickets")
	case engine.ActTunnelPay:
		extra := 0
		if v.Tunnel != nil {
			extra = v.Tunnel.Extra
		}
		return present.T(loc, "hint.do.tunnel_pay", "colored", max(0, extra-a.Locos), "locos", a.Locos)
	case engine.ActTunnelCancel:
		return present.T(loc, "hint.do.tunnel_cancel")
	case engine.ActStation:
		return present.T(loc, "hint.do.station", "city", b.Cities[a.City].Name, "cards", present.CardsLabel(loc, paidCards(v, a)))
	case engine.ActKeep:
		var keep []data.TicketID
		for i, id := range v.Pending {
			if a.Keep&(1<<uint(i)) != 0 {
				keep = append(keep, id)
			}
		}
		return present.T(loc, "hint.do.keep", "tickets", present.TicketList(b, keep))
	}
	return "`" + engine.FormatAction(b, a) + "`"
}

// mixing reports whether a ticket draw in the view's position says how
// many long tickets to take (Märklin).
func mixing(v *engine.PlayerView) bool {
	vr, ok := v.Board.Variant(v.Variant)
	return ok && vr.DrawMix
}

// hintReason is a one-line why: what a claim completes or takes, what a
// card is for, which tickets fit, what a tunnel is worth, what a payment
// keeps (paying: the ways to pay offered).
func hintReason(loc string, v *engine.PlayerView, a engine.Action, paying []engine.Action) string {
	b := v.Board
	if paying != nil {
		return paymentReason(loc, v, a, paying)
	}
	switch a.Kind {
	case engine.ActTunnelPay, engine.ActTunnelCancel:
		return tunnelReason(loc, v, a)
	case engine.ActStation:
		return stationReason(loc, v, a)
	case engine.ActClaim:
		owned := make([]bool, len(b.Tracks))
		for t, o := range v.Owners {
			owned[t] = int(o) == v.Seat
		}
		owned[a.Track] = true
		var done []string
		for _, ts := range v.Tickets {
			tk := &b.Tickets[ts.Ticket]
			if !ts.Completed && engine.Connected(b, owned, tk.A, tk.B) {
				done = append(done, b.Cities[tk.A].Name+"–"+b.Cities[tk.B].Name)
			}
		}
		if len(done) > 0 {
			return present.T(loc, "hint.why.completes", "tickets", strings.Join(done, ", "))
		}
		length := b.Tracks[a.Track].Length
		others := 0
		for t, o := range v.Owners {
			if o < 0 && t != int(a.Track) && b.Tracks[t].Length == length && b.Tracks[t].Group != b.Tracks[a.Track].Group {
				others++
			}
		}
		if others == 0 && length >= 4 {
			return present.T(loc, "hint.why.last_route", "length", length, "points", b.RoutePoints(length))
		}
		for _, ts := range v.Tickets {
			tk := &b.Tickets[ts.Ticket]
			tr := &b.Tracks[a.Track]
			if !ts.Completed && (tr.A == tk.A || tr.A == tk.B || tr.B == tk.A || tr.B == tk.B) {
				return present.T(loc, "hint.why.toward", "ticket", b.Cities[tk.A].Name+"–"+b.Cities[tk.B].Name, "points", b.RoutePoints(length))
			}
		}
		return present.T(loc, "hint.why.points", "points", b.RoutePoints(length))
	case engine.ActDraw:
		if a.Slot != engine.DeckSlot && v.FaceUp[a.Slot] == engine.Locomotive {
			return present.T(loc, "hint.why.locomotive")
		}
		return present.T(loc, "hint.why.cards")
	case engine.ActDrawTickets:
		if mixing(v) {
			return mixReason(loc, v, a, mixSize(v))
		}
		return present.T(loc, "hint.why.tickets", "trains", v.Players[v.Seat].Trains)
	case engine.ActKeep:
		return keepReason(loc, v, a)
	}
	return present.T(loc, "hint.why.other")
}

// hintSummary is the public line at the end saying how many hints each
// player used; "" when nobody asked.
func hintSummary(loc string, rec *store.GameRecord) string {
	var parts []string
	for i, st := range rec.Seats {
		if n, _ := strconv.Atoi(rec.Options[hintKey(i)]); n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", present.EscapeMarkdown(st.Name), present.T(loc, "hint.count", "count", n)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return present.T(loc, "hint.summary", "players", strings.Join(parts, ", "))
}
