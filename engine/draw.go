package engine

func (g *Game) checkDraw(seat int, a Action) error {
	if a.Slot == DeckSlot {
		if g.cardsLeft() == 0 {
			return g.refuse(ErrNotAvailable, "draw.empty")
		}
		return nil
	}
	if a.Slot < 0 || a.Slot >= len(g.faceUp) {
		return g.refuse(ErrBadAction, "draw.no_slot", "slot", a.Slot+1, "slots", len(g.faceUp))
	}
	c := g.faceUp[a.Slot]
	if c == NoCard {
		return g.refuse(ErrNotAvailable, "draw.slot_empty", "slot", a.Slot+1)
	}
	if c == Locomotive && g.phase == PhaseSecondDraw {
		return g.refuse(ErrNotAllowed, "draw.loco_second")
	}
	return nil
}

func (g *Game) performDraw(seat int, a Action) {
	p := &g.players[seat]
	first := g.phase == PhaseTurn
	var c Card
	if a.Slot == DeckSlot {
		c = g.popDeck()
		p.Hand[c]++
		g.emit(Event{Kind: EvDrawBlind, Seat: seat})
		g.emit(Event{Kind: EvDrawnCard, Seat: seat, Private: true, Card: c})
	} else {
		c = g.faceUp[a.Slot]
		g.faceUp[a.Slot] = NoCard
		p.Hand[c]++
		p.shown[c]++
		g.emit(Event{Kind: EvDrawFaceUp, Seat: seat, Slot: a.Slot, Card: c})
		g.refill(a.Slot)
	}
	g.setLastMove(seat, nil, nil)
	if first && !(a.Slot != DeckSlot && c == Locomotive) && g.canDrawSecond() {
		g.phase = PhaseSecondDraw
		return
	}
	g.endTurn()
}

// canDrawSecond reports whether any card may be taken as a second card.
func (g *Game) canDrawSecond() bool {
	if g.cardsLeft() > 0 {
		return true
	}
	for _, c := range g.faceUp {
		if c != NoCard && c != Locomotive {
			return true
		}
	}
	return false
}

// canDrawFirst reports whether any train card can be drawn at all.
func (g *Game) canDrawFirst() bool {
	if g.cardsLeft() > 0 {
		return true
	}
	for _, c := range g.faceUp {
		if c != NoCard {
			return true
		}
	}
	return false
}
