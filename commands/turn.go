package commands

import (
	"errors"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// turn is a seated player acting at their table: the request (its
// language, its asker, its interaction), the table, locked, and the seat.
// What a turn does needs nothing of the service: whose turn it is, a move
// played and answered, how it is paid, confirmed, refused.
type turn struct {
	req  *Request
	t    *table
	seat int
	// moves counts the turns people complete (nil: nobody counts).
	moves MoveCounter
}

// payChoice is how a player said to pay a claim or a station, as typed:
// a colour and a number of locomotives, each "" when not said.
type payChoice struct{ color, locos string }

// myTurn checks that it is the seat's turn in the main game (not setup),
// and that a button is from the current turn.
func (tn turn) myTurn(id *customID) *Message {
	g, loc := tn.t.game, tn.req.Locale
	var m Message
	switch {
	case g.Phase() == engine.PhaseOver:
		m = note(present.T(loc, "game.over"))
	case g.Phase() == engine.PhaseSetup:
		m = note(present.T(loc, "game.setup_first"))
	case id != nil && id.turn != g.Turn():
		m = note(present.T(loc, "stale.turn"))
	case g.Current() != tn.seat:
		m = note(present.T(loc, "game.not_your_turn", "player", present.EscapeMarkdown(seatName(tn.t.rec, g.Current()))))
	default:
		return nil
	}
	return &m
}

// act applies an action for the seat and answers: ephemeral private
// details (and the next step of the turn) for the player; the public board
// when the turn is over goes to the outbox with the move.
func (tn turn) act(a engine.Action, update bool) (response, error) {
	o, err := tn.t.apply(tn.seat, a, tn.req)
	if err != nil {
		return reply(tn.refusal(err))
	}
	if o.turnDone && tn.moves != nil {
		tn.moves.CountMove()
	}
	m := tn.privateAfter(o)
	tn.t.after(o)
	return replyOrUpdate(m, update)
}

// privateAfter is the ephemeral answer to the player who acted: what they
// drew, and what the turn needs next (a second card, tickets to keep, a
// tunnel to pay).
func (tn turn) privateAfter(o outcome) Message {
	loc, seat := tn.req.Locale, tn.seat
	g, c := tn.t.game, tn.t.controls()
	lines := present.NarrateOwn(loc, g.Board(), seat, o.events)
	m := Message{Ephemeral: true}
	if g.Phase() != engine.PhaseOver && (g.Current() == seat || g.Phase() == engine.PhaseSetup) {
		switch g.Phase() {
		case engine.PhaseSecondDraw:
			lines = append(lines, present.T(loc, "you.second"))
			m.Components = c.drawRows(loc, true)
		case engine.PhaseKeepTickets:
			lines = append(lines, present.T(loc, "you.keep"))
			m.Components = c.keepRows(seat, loc)
		case engine.PhaseTunnel:
			ask, rows := c.tunnelAsk(seat, loc)
			lines = append(lines, ask)
			m.Components = rows
		case engine.PhaseSetup:
			if !g.SetupDone(seat) {
				if mix, _ := g.NeedsMix(seat); mix {
					m.Components = c.mixRows(seat, loc)
				} else {
					lines = append(lines, present.T(loc, "you.keep"))
					m.Components = c.keepRows(seat, loc)
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

// refusal turns an error from apply into an ephemeral reply: the rule the
// move breaks, said in the player's language.
func (tn turn) refusal(err error) Message {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return note("⛔ " + present.Refusal(tn.req.Locale, ee, tn.t.game.Board(), seatNamer(tn.t.rec)))
	}
	if errors.Is(err, store.ErrDuplicate) {
		return note(present.T(tn.req.Locale, "error.duplicate"))
	}
	tn.t.log.Error("action failed", "channel", tn.req.Channel, "err", err)
	return oops(tn.req, err.Error())
}

// claim claims a track, paid as the player said, with a passenger put in
// one of its cities (Märklin) when passenger names one. A grey route
// that could be paid in several colours, none said, asks which first.
func (tn turn) claim(tr data.TrackID, pay payChoice, passenger string) (response, error) {
	g, loc := tn.t.game, tn.req.Locale
	b := g.Board()
	tr = pickParallel(g, tr, pay.color, loc)
	a, msg := payWith(g, tn.seat, tr, int(b.Tracks[tr].Length), pay.color, pay.locos, loc)
	if msg != "" {
		return reply(note(msg))
	}
	a.Kind, a.Track = engine.ActClaim, tr
	if passenger != "" {
		c, ok := b.FindCity(passenger)
		if !ok {
			return reply(note(present.T(loc, "error.bad_city", "city", passenger)))
		}
		a.Passenger, a.City = true, c
	}
	if b.Tracks[tr].Color == data.Gray && pay == (payChoice{}) {
		if opts := payOptions(g, tn.seat, a); len(opts) > 1 {
			return tn.askPayment(a, opts)
		}
	}
	return tn.confirm(a)
}

// station builds a station in a city, paid as the player said; when
// several colours could pay, none said, it asks which first.
func (tn turn) station(c data.CityID, pay payChoice) (response, error) {
	g := tn.t.game
	cost := g.StationCost(tn.seat)
	if cost == 0 {
		cost = 1 // the engine explains that no station is left
	}
	a, msg := payWith(g, tn.seat, -1, cost, pay.color, pay.locos, tn.req.Locale)
	if msg != "" {
		return reply(note(msg))
	}
	a.Kind, a.City = engine.ActStation, c
	if pay == (payChoice{}) {
		if opts := payOptions(g, tn.seat, a); len(opts) > 1 {
			return tn.askPayment(a, opts)
		}
	}
	return tn.confirm(a)
}

// askPayment offers the ways to pay, one button each, and remembers the
// move until one is clicked.
func (tn turn) askPayment(a engine.Action, opts []engine.Action) (response, error) {
	t := tn.t
	t.pending[tn.req.User] = pendingAction{action: a, turn: t.game.Turn(), pay: true}
	return reply(t.controls().paymentPrompt(tn.req.Locale, a, opts))
}

// confirm applies a claim or station, or asks first when the table plays
// with confirmations.
func (tn turn) confirm(a engine.Action) (response, error) {
	t := tn.t
	if !tableOptions(t.rec).Confirm {
		return tn.act(a, false)
	}
	// Check now so that the question is only asked for a legal move.
	probe := t.game.Clone()
	if err := probe.Play(tn.seat, a); err != nil {
		return reply(tn.refusal(err))
	}
	t.pending[tn.req.User] = pendingAction{action: a, turn: t.game.Turn()}
	return reply(t.controls().confirmPrompt(tn.req.Locale, a))
}

// drawTickets draws destination tickets; on Märklin, long says how many
// long ones (asked for when not said).
func (tn turn) drawTickets(long string) (response, error) {
	if mix, _ := tn.t.game.NeedsMix(tn.seat); mix {
		if long == "" {
			return reply(Message{Ephemeral: true, Content: present.T(tn.req.Locale, "tickets.mix"), Components: tn.t.controls().mixRows(tn.seat, tn.req.Locale)})
		}
		n, err := strconv.Atoi(long)
		if err != nil {
			return reply(note(present.T(tn.req.Locale, "tickets.bad_mix")))
		}
		return tn.act(engine.Action{Kind: engine.ActDrawTickets, Long: n}, false)
	}
	return tn.act(engine.Action{Kind: engine.ActDrawTickets}, false)
}

// passengerFrom moves the seat's passenger from the city named, if the
// edition has passengers and the seat has one there.
func (tn turn) passengerFrom(city, path string) (response, error) {
	g, loc := tn.t.game, tn.req.Locale
	b := g.Board()
	if !b.Rules.HasPassengers() {
		return reply(note(present.T(loc, "passenger.none_here")))
	}
	from, ok := b.FindCity(city)
	if !ok || g.PassengerAt(from) != tn.seat {
		return reply(note(present.T(loc, "passenger.not_yours", "cities", passengerCities(g, tn.seat))))
	}
	return tn.movePassenger(from, path)
}

// movePassenger moves the seat's passenger from a city: along path when
// the player wrote one ("Berlin > Leipzig > Dresden"), else it offers the
// best trips found.
func (tn turn) movePassenger(from data.CityID, path string) (response, error) {
	t, loc := tn.t, tn.req.Locale
	g := t.game
	b := g.Board()
	if p := strings.TrimSpace(path); p != "" {
		tracks, msg := tn.parsePath(from, p)
		if msg != "" {
			return reply(note(msg))
		}
		return tn.act(engine.Action{Kind: engine.ActMovePassenger, City: from, Path: tracks}, false)
	}
	trips := g.BestTrips(tn.seat, from)
	if len(trips) == 0 {
		return reply(note(present.T(loc, "passenger.no_trip")))
	}
	if len(trips) > 5 {
		trips = trips[len(trips)-5:]
	}
	t.pending[tn.req.User] = pendingAction{trips: trips, from: from, turn: g.Turn()}
	var lines []string
	var row Row
	for i, tr := range trips {
		lines = append(lines, present.T(loc, "passenger.trip", "n", i+1, "path", pathLabel(b, from, tr.Path), "points", tr.Points, "cards", tr.Cost))
		row = append(row, Component{Kind: Button, ID: cid("trip", t.rec.ID, g.Turn(), strconv.Itoa(i)), Label: present.T(loc, "button.trip", "n", i+1, "points", tr.Points), Style: Primary})
	}
	return reply(Message{Ephemeral: true, Content: present.T(loc, "passenger.choose") + "\n" + strings.Join(lines, "\n"), Components: []Row{row}})
}

// parsePath reads "Berlin > Leipzig > Dresden" (or with "-", ","): the
// claimed tracks from city to city, the seat's own first where two are
// parallel.
func (tn turn) parsePath(from data.CityID, p string) ([]data.TrackID, string) {
	g, loc := tn.t.game, tn.req.Locale
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
			return nil, present.T(loc, "error.bad_city", "city", strings.TrimSpace(n))
		}
		if i == 0 && c == from {
			continue
		}
		best := data.TrackID(-1)
		for _, tr := range b.Adj[at] {
			if b.Tracks[tr].Other(at) != c || g.Owner(tr) < 0 || contains(path, tr) {
				continue
			}
			if best < 0 || (g.Owner(tr) == tn.seat && g.Owner(best) != tn.seat) {
				best = tr
			}
		}
		if best < 0 {
			return nil, present.T(loc, "passenger.no_route", "from", b.Cities[at].Name, "to", b.Cities[c].Name)
		}
		path = append(path, best)
		at = c
	}
	if len(path) == 0 {
		return nil, present.T(loc, "passenger.no_trip")
	}
	return path, ""
}
