package engine

import (
	"math/bits"

	"conductor/data"
)

// pileOf is the ticket deck a ticket returns to: 1 for long tickets.
func (g *Game) pileOf(t data.TicketID) int {
	if g.board.Tickets[t].Long {
		return 1
	}
	return 0
}

// dealTickets moves n tickets from the top of a pile to a player's pending ones.
func (g *Game) dealTickets(p *Player, pile, n int) {
	s := g.tickets[pile]
	n = min(n, len(s))
	for range n {
		p.Pending = append(p.Pending, s[len(s)-1])
		s = s[:len(s)-1]
	}
	g.tickets[pile] = s
	if n > 0 {
		g.dealtFrom(pile, n)
	}
}

// toBottom puts tickets under their decks.
func (g *Game) toBottom(ts []data.TicketID) {
	for _, t := range ts {
		pile := g.pileOf(t)
		g.tickets[pile] = append(g.tickets[pile], 0)
		copy(g.tickets[pile][1:], g.tickets[pile])
		g.tickets[pile][0] = t
	}
}

// startSetupStep deals the tickets of a player's current setup step, or
// waits for the player to announce a mix.
func (g *Game) startSetupStep(seat int) {
	p := &g.players[seat]
	s := g.variant.Setup[p.setupStep]
	if s.Mix > 0 {
		p.setupNeedMx = true
		return
	}
	g.dealTickets(p, 1, s.Long)
	g.dealTickets(p, 0, s.Regular)
	g.emit(Event{Kind: EvTicketsOffered, Seat: seat, Private: true, Tickets: append([]data.TicketID(nil), p.Pending...)})
}

// SetupDone reports whether a seat has chosen its initial tickets.
func (g *Game) SetupDone(seat int) bool {
	return g.players[seat].setupStep >= len(g.variant.Setup)
}

// NeedsMix reports whether a seat must announce how many long tickets it
// wants before its tickets are dealt (Märklin), and how many tickets in all.
func (g *Game) NeedsMix(seat int) (bool, int) {
	p := &g.players[seat]
	if g.phase == PhaseSetup && p.setupNeedMx {
		return true, g.variant.Setup[p.setupStep].Mix
	}
	if g.phase == PhaseTurn && seat == g.current && g.variant.DrawMix {
		return true, g.variant.Draw
	}
	return false, 0
}

// KeepRange returns how many of the pending tickets a seat must and may keep.
func (g *Game) KeepRange(seat int) (lo, hi int) {
	p := &g.players[seat]
	n := len(p.Pending)
	if g.phase == PhaseSetup {
		if g.SetupDone(seat) {
			return 0, 0 // nothing pending: it waits for the others
		}
		s := g.variant.Setup[p.setupStep]
		lo = max(s.KeepMin, s.TotalKeepMin-p.setupKept)
		hi = n
		if s.KeepMax > 0 {
			hi = min(hi, s.KeepMax)
		}
		return min(lo, n), hi
	}
	return min(g.variant.DrawKeepMin, n), n
}

func (g *Game) checkSetup(seat int, a Action) error {
	p := &g.players[seat]
	if g.SetupDone(seat) {
		return g.refuse(ErrWrongPhase, "setup.done")
	}
	if p.setupNeedMx {
		if a.Kind != ActDrawTickets {
			return g.refuse(ErrWrongPhase, "setup.mix_first", "tickets", g.variant.Setup[p.setupStep].Mix)
		}
		return g.checkMix(a.Long, g.variant.Setup[p.setupStep].Mix)
	}
	if a.Kind != ActKeep {
		return g.refuse(ErrWrongPhase, "setup.keep_first")
	}
	return g.checkKeep(seat, a)
}

// checkMix validates taking long of n tickets from the long deck and the
// rest from the short one; when fewer than n are left, all are taken.
func (g *Game) checkMix(long, n int) error {
	availL, availS := len(g.tickets[1]), len(g.tickets[0])
	if availL+availS == 0 {
		return g.refuse(ErrNotAvailable, "tickets.decks_empty")
	}
	n = min(n, availL+availS)
	switch {
	case long < 0 || long > n:
		return g.refuse(ErrBadAction, "tickets.mix_range", "max", n)
	case long > availL:
		return g.refuse(ErrNotAvailable, "tickets.few_long", "left", availL)
	case n-long > availS:
		return g.refuse(ErrNotAvailable, "tickets.few_short", "left", availS, "long", n-availS)
	}
	return nil
}

func (g *Game) checkKeep(seat int, a Action) error {
	p := &g.players[seat]
	n := len(p.Pending)
	if n < 64 && a.Keep>>uint(n) != 0 {
		return g.refuse(ErrBadAction, "tickets.keep_index", "tickets", n)
	}
	k := bits.OnesCount64(a.Keep)
	lo, hi := g.KeepRange(seat)
	switch {
	case k < lo && g.phase == PhaseSetup && lo > g.variant.Setup[p.setupStep].KeepMin:
		return g.refuse(ErrNotAllowed, "tickets.keep_min_setup", "min", lo, "total", g.variant.Setup[p.setupStep].TotalKeepMin)
	case k < lo:
		return g.refuse(ErrNotAllowed, "tickets.keep_min", "min", lo)
	case k > hi:
		return g.refuse(ErrNotAllowed, "tickets.keep_max", "max", hi)
	}
	return nil
}

// splitKeep moves the kept pending tickets to the hand and returns the rest.
func (g *Game) splitKeep(p *Player, mask uint64) (kept, returned []data.TicketID) {
	for i, t := range p.Pending {
		if mask&(1<<uint(i)) != 0 {
			kept = append(kept, t)
		} else {
			returned = append(returned, t)
		}
	}
	p.Tickets = append(p.Tickets, kept...)
	p.Pending = p.Pending[:0]
	return kept, returned
}

func (g *Game) performSetup(seat int, a Action) {
	p := &g.players[seat]
	s := g.variant.Setup[p.setupStep]
	if a.Kind == ActDrawTickets {
		p.setupNeedMx = false
		g.dealTickets(p, 1, a.Long)
		g.dealTickets(p, 0, s.Mix-a.Long)
		g.emit(Event{Kind: EvTicketsDrawn, Seat: seat, Count: len(p.Pending)})
		g.emit(Event{Kind: EvTicketsOffered, Seat: seat, Private: true, Tickets: append([]data.TicketID(nil), p.Pending...)})
		return
	}
	kept, returned := g.splitKeep(p, a.Keep)
	p.setupKept += len(kept)
	switch s.Discard {
	case data.DiscardBottom:
		if g.cfg.Revision >= Revision2 {
			// Everyone's returned tickets are shuffled together once all
			// have chosen.
			g.setupReturned = append(g.setupReturned, returned...)
			g.giveBack(seat, returned, false, true, [2]int{})
			break
		}
		before := g.deckSizes()
		shuffle(&g.rng, returned)
		g.toBottom(returned)
		g.giveBack(seat, returned, false, false, before)
	case data.DiscardReshuffle:
		before := g.deckSizes()
		g.toBottom(returned)
		g.giveBack(seat, returned, false, false, before)
	default: // data.DiscardBox
		g.giveBack(seat, returned, true, false, [2]int{})
	}
	g.emit(Event{Kind: EvTicketsKept, Seat: seat, Count: len(kept)})
	g.emit(Event{Kind: EvTicketsChosen, Seat: seat, Private: true, Tickets: kept})
	p.setupStep++
	if p.setupStep < len(g.variant.Setup) {
		g.startSetupStep(seat)
		return
	}
	for i := range g.players {
		if !g.SetupDone(i) {
			return
		}
	}
	if len(g.setupReturned) > 0 {
		before := g.deckSizes()
		shuffle(&g.rng, g.setupReturned)
		g.toBottom(g.setupReturned)
		g.settleGivenBack(before)
		g.setupReturned = nil
	}
	for _, st := range g.variant.Setup {
		if st.Discard == data.DiscardReshuffle {
			shuffle(&g.rng, g.tickets[0])
			shuffle(&g.rng, g.tickets[1])
			g.forgetInDecks()
			break
		}
	}
	g.phase = PhaseTurn
	g.current = 0
	g.emit(Event{Kind: EvTurn, Seat: 0})
}

func (g *Game) checkDrawTickets(seat int, a Action) error {
	if g.variant.DrawMix {
		return g.checkMix(a.Long, g.variant.Draw)
	}
	if a.Long != 0 {
		return g.refuse(ErrBadAction, "tickets.single_deck")
	}
	if len(g.tickets[0]) == 0 {
		return g.refuse(ErrNotAvailable, "tickets.deck_empty")
	}
	return nil
}

func (g *Game) performDrawTickets(seat int, a Action) {
	p := &g.players[seat]
	if g.variant.DrawMix {
		n := min(g.variant.Draw, len(g.tickets[0])+len(g.tickets[1]))
		g.dealTickets(p, 1, a.Long)
		g.dealTickets(p, 0, n-a.Long)
	} else {
		g.dealTickets(p, 0, g.variant.Draw)
	}
	g.phase = PhaseKeepTickets
	g.setLastMove(seat, nil, nil)
	g.emit(Event{Kind: EvTicketsDrawn, Seat: seat, Count: len(p.Pending)})
	g.emit(Event{Kind: EvTicketsOffered, Seat: seat, Private: true, Tickets: append([]data.TicketID(nil), p.Pending...)})
}

func (g *Game) performKeep(seat int, a Action) {
	p := &g.players[seat]
	kept, returned := g.splitKeep(p, a.Keep)
	before := g.deckSizes()
	g.toBottom(returned)
	g.giveBack(seat, returned, false, false, before)
	g.emit(Event{Kind: EvTicketsKept, Seat: seat, Count: len(kept)})
	g.emit(Event{Kind: EvTicketsChosen, Seat: seat, Private: true, Tickets: kept})
	g.endTurn()
}
