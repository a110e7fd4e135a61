package engine

import "conductor/data"

// Apply plays an action for a seat and returns what happened. On error the
// game is unchanged. The events slice is the caller's.
func (g *Game) Apply(seat int, a Action) ([]Event, error) {
	g.narrate, g.events = true, nil
	err := g.Play(seat, a)
	ev := g.events
	g.narrate, g.events = false, nil
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// Play is Apply without narration: bots and replays use it.
func (g *Game) Play(seat int, a Action) error {
	if err := g.check(seat, a); err != nil {
		return err
	}
	g.log = append(g.log, Move{Seat: seat, Action: cloneAction(a)})
	g.perform(seat, a)
	return nil
}

func cloneAction(a Action) Action {
	if a.Path != nil {
		a.Path = append([]data.TrackID(nil), a.Path...)
	}
	return a
}

// check validates an action without changing anything.
func (g *Game) check(seat int, a Action) error {
	if seat < 0 || seat >= len(g.players) {
		return g.refuse(ErrBadAction, "seat.none", "seat", seat+1)
	}
	switch g.phase {
	case PhaseOver:
		return g.refuse(ErrGameOver, "game.over")
	case PhaseSetup:
		return g.checkSetup(seat, a)
	}
	if seat != g.current {
		return g.refuse(ErrNotYourTurn, "turn.other", "player", Seat(g.current))
	}
	switch g.phase {
	case PhaseSecondDraw:
		if a.Kind != ActDraw {
			return g.refuse(ErrWrongPhase, "draw.second")
		}
		return g.checkDraw(seat, a)
	case PhaseKeepTickets:
		if a.Kind != ActKeep {
			return g.refuse(ErrWrongPhase, "tickets.keep_first")
		}
		return g.checkKeep(seat, a)
	case PhaseTunnel:
		switch a.Kind {
		case ActTunnelPay:
			return g.checkTunnelPay(seat, a)
		case ActTunnelCancel:
			return nil
		}
		return g.refuse(ErrWrongPhase, "tunnel.pending", "extra", g.tunnel.extra)
	}
	switch a.Kind {
	case ActDraw:
		return g.checkDraw(seat, a)
	case ActClaim:
		return g.checkClaim(seat, a)
	case ActDrawTickets:
		return g.checkDrawTickets(seat, a)
	case ActStation:
		return g.checkStation(seat, a)
	case ActMovePassenger:
		_, err := g.checkPassenger(seat, a)
		return err
	case ActPass:
		if g.canAct(seat) {
			return g.refuse(ErrNotAllowed, "pass.can_play")
		}
		return nil
	case ActKeep:
		return g.refuse(ErrWrongPhase, "tickets.none_pending")
	case ActTunnelPay, ActTunnelCancel:
		return g.refuse(ErrWrongPhase, "tunnel.none")
	}
	return g.refuse(ErrBadAction, "action.unknown")
}

// perform applies a checked action.
func (g *Game) perform(seat int, a Action) {
	if g.phase == PhaseSetup {
		g.performSetup(seat, a)
		return
	}
	if a.Kind != ActTunnelCancel {
		g.players[seat].gaveUpSet = false // its next move, whatever it is
	}
	switch a.Kind {
	case ActDraw:
		g.performDraw(seat, a)
	case ActClaim:
		g.performClaim(seat, a)
	case ActDrawTickets:
		g.performDrawTickets(seat, a)
	case ActKeep:
		g.performKeep(seat, a)
	case ActStation:
		g.performStation(seat, a)
	case ActTunnelPay:
		g.performTunnelPay(seat, a)
	case ActTunnelCancel:
		g.performTunnelCancel(seat)
	case ActMovePassenger:
		g.performPassenger(seat, a)
	case ActPass:
		g.emit(Event{Kind: EvPass, Seat: seat})
		g.passes++
		if g.passes >= len(g.players) {
			// Nobody can do anything any more: the game would never end.
			g.finish()
			return
		}
		g.endTurn()
	}
	if a.Kind != ActPass {
		g.passes = 0
	}
	if g.cfg.Revision >= Revision2 && g.phase != PhaseOver {
		g.refillEmpty()
	}
}

// endTurn passes the turn on, starting and counting down the last round.
func (g *Game) endTurn() {
	p := &g.players[g.current]
	g.turn++
	g.phase = PhaseTurn
	if g.finalTurns >= 0 {
		g.finalTurns--
		if g.finalTurns == 0 {
			g.finish()
			return
		}
	} else if p.Trains <= g.board.Rules.EndTrains {
		g.finalTurns = len(g.players)
		g.emit(Event{Kind: EvLastRound, Seat: g.current, Count: p.Trains})
	}
	g.current = (g.current + 1) % len(g.players)
	g.emit(Event{Kind: EvTurn, Seat: g.current})
}

// finish scores the game.
func (g *Game) finish() {
	g.phase = PhaseOver
	hs := make([]Holding, len(g.players))
	for i := range g.players {
		hs[i] = g.holding(i)
	}
	fs := Score(g.board, hs)
	g.final = &fs
	g.emit(Event{Kind: EvGameOver})
}

// holding is a seat's end-of-game position for scoring.
func (g *Game) holding(seat int) Holding {
	p := &g.players[seat]
	h := Holding{Name: "", Goods: 0}
	for t, o := range g.owner {
		if int(o) == seat {
			h.Tracks = append(h.Tracks, data.TrackID(t))
		}
	}
	for c, o := range g.station {
		if int(o) == seat {
			h.Stations = append(h.Stations, data.CityID(c))
		}
	}
	for _, id := range p.Tickets {
		t := &g.board.Tickets[id]
		h.Tickets = append(h.Tickets, HeldTicket{A: t.A, B: t.B, Points: t.Points})
	}
	for _, v := range p.Goods {
		h.Goods += v
	}
	return h
}
