package engine

import "conductor/data"

// givenBack is a ticket a seat was offered and gave back, kept for as long
// as that seat knows where it is: out of the game, or in its deck below
// every ticket drawn since. Only that seat has seen it, so only its view
// shows it; a search determinising the game from that view must neither
// deal it to another seat nor move it out of the deck.
type givenBack struct {
	ticket data.TicketID
	boxed  bool // out of the game for good
	// waiting: returned during setup, to go under the deck once everyone
	// has chosen (Revision2).
	waiting bool
	// above counts the tickets lying above it in its deck when it went
	// under (every one of them above the whole returned batch): once more
	// than that have been dealt from the deck, it may have been dealt too.
	above int
}

// ReturnedTicket is a ticket the viewing seat gave back and still knows the
// place of: out of the game (Boxed) or in a ticket deck.
type ReturnedTicket struct {
	Ticket data.TicketID
	Boxed  bool
}

// giveBack records tickets a seat gave back. Unless boxed or waiting, they
// have just gone under their decks, which held before[pile] tickets.
func (g *Game) giveBack(seat int, ts []data.TicketID, boxed, waiting bool, before [2]int) {
	p := &g.players[seat]
	for _, t := range ts {
		p.givenBack = append(p.givenBack, givenBack{ticket: t, boxed: boxed, waiting: waiting, above: before[g.pileOf(t)]})
	}
}

// settleGivenBack puts the waiting tickets under their decks, which held
// before[pile] tickets.
func (g *Game) settleGivenBack(before [2]int) {
	for i := range g.players {
		for j := range g.players[i].givenBack {
			r := &g.players[i].givenBack[j]
			if r.waiting {
				r.waiting, r.above = false, before[g.pileOf(r.ticket)]
			}
		}
	}
}

// dealtFrom notes that n tickets were dealt from a pile: the tickets given
// back into it that those deals could have reached are forgotten.
func (g *Game) dealtFrom(pile, n int) {
	for i := range g.players {
		p := &g.players[i]
		kept := p.givenBack[:0]
		for _, r := range p.givenBack {
			if !r.boxed && !r.waiting && g.pileOf(r.ticket) == pile {
				r.above -= n
				if r.above < 0 {
					continue
				}
			}
			kept = append(kept, r)
		}
		p.givenBack = kept
	}
}

// forgetInDecks forgets where the tickets given back into the decks are:
// the decks were shuffled.
func (g *Game) forgetInDecks() {
	for i := range g.players {
		p := &g.players[i]
		kept := p.givenBack[:0]
		for _, r := range p.givenBack {
			if r.boxed {
				kept = append(kept, r)
			}
		}
		p.givenBack = kept
	}
}

// returnedTickets is the view of a seat's givenBack: the tickets settled.
func (p *Player) returnedTickets() []ReturnedTicket {
	var out []ReturnedTicket
	for _, r := range p.givenBack {
		if !r.waiting {
			out = append(out, ReturnedTicket{Ticket: r.ticket, Boxed: r.boxed})
		}
	}
	return out
}

// deckSizes counts the tickets in the regular and the long deck.
func (g *Game) deckSizes() [2]int { return [2]int{len(g.tickets[0]), len(g.tickets[1])} }
