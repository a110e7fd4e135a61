package engine

// popDeck takes the top card, reshuffling the discards into a new deck when
// the deck runs out. It returns NoCard when there is no card anywhere.
func (g *Game) popDeck() Card {
	if len(g.deck) == 0 {
		if len(g.discard) == 0 {
			return NoCard
		}
		g.deck, g.discard = g.discard, g.deck[:0]
		shuffle(&g.rng, g.deck)
		g.emit(Event{Kind: EvReshuffle, Count: len(g.deck)})
	}
	c := g.deck[len(g.deck)-1]
	g.deck = g.deck[:len(g.deck)-1]
	return c
}

// cardsLeft counts the cards that can still be drawn from deck and discards.
func (g *Game) cardsLeft() int { return len(g.deck) + len(g.discard) }

// refill turns up a card into an empty face-up slot, then checks for a flush.
func (g *Game) refill(slot int) {
	g.faceUp[slot] = g.popDeck()
	if g.faceUp[slot] != NoCard {
		g.emit(Event{Kind: EvFaceUp, Slot: slot, Card: g.faceUp[slot]})
	}
	g.checkFlush()
}

// refillEmpty turns up cards into the face-up slots left empty while the
// deck and the discards were both exhausted, now that cards came back (a
// payment discarded some). The rules replace face-up cards from the deck,
// reshuffling the discards when it runs out.
func (g *Game) refillEmpty() {
	for i, c := range g.faceUp {
		if c == NoCard && g.cardsLeft() > 0 {
			g.refill(i)
		}
	}
}

// checkFlush discards the display when it shows three locomotives (or three
// Märklin Passenger cards), at most MaxFlushes times in a row.
func (g *Game) checkFlush() {
	r := &g.board.Rules
	for range r.MaxFlushes {
		locos, pass := 0, 0
		for _, c := range g.faceUp {
			switch c {
			case Locomotive:
				locos++
			case Passenger:
				pass++
			}
		}
		if !(r.FlushLocomotives > 0 && locos >= r.FlushLocomotives) && !(r.FlushPassengers > 0 && pass >= r.FlushPassengers) {
			return
		}
		// Discard first so that a deck running out reshuffles them back in,
		// as the rules shuffle every discard into the new deck.
		for i, c := range g.faceUp {
			if c != NoCard {
				g.discard = append(g.discard, c)
				g.faceUp[i] = NoCard
			}
		}
		g.emit(Event{Kind: EvFlush})
		for i := range g.faceUp {
			g.faceUp[i] = g.popDeck()
		}
		g.emit(Event{Kind: EvDisplay, Cards: append([]Card(nil), g.faceUp...)})
	}
}

// pay moves n cards of kind c from a hand to the discards, for all to see.
func (g *Game) pay(p *Player, c Card, n int) {
	p.Hand[c] -= n
	// The table cannot tell whether the cards it saw taken were among them:
	// it assumes they were, so that what it knows stays a lower bound.
	p.shown[c] = max(0, p.shown[c]-n)
	for range n {
		g.discard = append(g.discard, c)
	}
}
