package engine

import (
	"fmt"
	"math"

	"conductor/data"
)

// Determinize builds a whole game consistent with what one seat sees: the
// seat's own hand, tickets and pending tickets, the face-up cards and
// everything public stay as they are; what the seat cannot see (the other
// hands and tickets, the order of the train and ticket decks, the discard
// pile) is dealt at random, by the seed, from the cards and tickets the
// seat has not seen, in the public counts. The tickets the seat gave back
// stay where it knows them to be (out of the game, or under their deck),
// so no other seat is dealt one. It reads only the view, so a search built
// on it cannot peek at the real game's hidden state.
//
// It handles the turn phases (a turn, the second draw, keeping tickets the
// seat drew); setup and a pending tunnel are refused.
func Determinize(v PlayerView, seed uint64) (*Game, error) {
	return DeterminizeWeighted(v, seed, nil)
}

// TicketOdds weighs how likely another seat is to hold a ticket the
// determinising seat has not seen (positive; the same weight for every
// ticket is a uniform deal). A search infers it from public play, such as
// the tracks a seat has claimed.
type TicketOdds func(seat int, t data.TicketID) float64

// DeterminizeWeighted is Determinize with the other seats' tickets dealt by
// odds instead of uniformly: which unseen tickets are in the seats' hands
// rather than the ticket decks, and which seat holds which, are drawn with
// chances in proportion to the odds (weighted sampling without
// replacement). The counts stay the public ones. With nil odds it deals
// exactly as Determinize.
func DeterminizeWeighted(v PlayerView, seed uint64, odds TicketOdds) (*Game, error) {
	switch v.Phase {
	case PhaseTurn, PhaseSecondDraw:
	case PhaseKeepTickets:
		if v.Current != v.Seat {
			return nil, fmt.Errorf("determinize: another seat is choosing tickets")
		}
	default:
		return nil, fmt.Errorf("determinize: phase %s is not supported", v.Phase)
	}
	b := v.Board
	variant, ok := b.Variant(v.Variant)
	if !ok {
		return nil, fmt.Errorf("determinize: unknown variant %q", v.Variant)
	}
	n := len(v.Players)
	g := &Game{board: b, variant: variant, rng: newRNG(seed), phase: v.Phase, current: v.Current, turn: v.Turn, finalTurns: -1}
	g.cfg = Config{Board: b, Variant: variant.ID, Players: n, Seed: seed, Revision: LatestRevision}
	r := &b.Rules

	// Train cards: the unseen pool is every card but the face-up ones and
	// the seat's own hand.
	var unseen Hand
	for _, c := range data.CardColors {
		unseen[ColorCard(c)] += r.Cards.Colors
	}
	unseen[Locomotive] += r.Cards.Locomotives
	unseen[Locomotive4] += r.Cards.Locomotives4
	unseen[Passenger] += r.Cards.Passengers
	for _, c := range v.FaceUp {
		if c != NoCard {
			unseen[c]--
		}
	}
	for c, k := range v.Hand {
		unseen[c] -= k
	}
	// The cards everyone saw another seat take (and not play) are in its
	// hand: only the rest of its hand is dealt at random.
	for i, p := range v.Players {
		if i == v.Seat {
			continue
		}
		if p.Shown.Total() > p.Cards {
			return nil, fmt.Errorf("determinize: seat %d holds %d cards, fewer than the %d it was seen taking", i, p.Cards, p.Shown.Total())
		}
		for c, k := range p.Shown {
			unseen[c] -= k
		}
	}
	pool := make([]Card, 0, r.Cards.Total())
	for c, k := range unseen {
		if k < 0 {
			return nil, fmt.Errorf("determinize: more %v cards seen than exist", Card(c))
		}
		pool = appendN(pool, Card(c), k)
	}
	shuffle(&g.rng, pool)
	need := v.Deck + v.Discards
	for i, p := range v.Players {
		if i != v.Seat {
			need += p.Cards - p.Shown.Total()
		}
	}
	if need > len(pool) {
		return nil, fmt.Errorf("determinize: %d unseen cards counted, only %d exist", need, len(pool))
	}

	g.players = make([]Player, n)
	for i := range g.players {
		pp := &v.Players[i]
		p := &g.players[i]
		p.Trains, p.Stations, p.Score = pp.Trains, pp.Stations, pp.Score
		p.PassengersLeft = pp.PassengersLeft
		p.Goods = append([]int(nil), pp.Goods...)
		p.setupStep = len(variant.Setup)
		p.shown = pp.Shown
		if i == v.Seat {
			p.Hand = v.Hand
			continue
		}
		p.Hand = pp.Shown
		for range pp.Cards - pp.Shown.Total() {
			p.Hand[pool[len(pool)-1]]++
			pool = pool[:len(pool)-1]
		}
	}
	g.discard = make([]Card, 0, r.Cards.Total())
	g.discard = append(g.discard, pool[len(pool)-v.Discards:]...)
	pool = pool[:len(pool)-v.Discards]
	g.deck = make([]Card, 0, r.Cards.Total())
	g.deck = append(g.deck, pool[len(pool)-v.Deck:]...)
	g.faceUp = append([]Card(nil), v.FaceUp...)

	// Tickets: those the seat holds or drew are known, and so is the place
	// of those it gave back (out of the game, or under a deck); the rest of
	// the game's tickets are shared between the ticket decks (their counts
	// are public) and the other seats' hands.
	own := make(map[data.TicketID]bool, len(v.Tickets)+len(v.Pending)+len(v.Returned))
	me := &g.players[v.Seat]
	for _, t := range v.Tickets {
		own[t.Ticket] = true
		me.Tickets = append(me.Tickets, t.Ticket)
	}
	for _, t := range v.Pending {
		own[t] = true
		me.Pending = append(me.Pending, t)
	}
	held := 0
	for i, p := range v.Players {
		if i != v.Seat {
			held += p.Tickets + p.Pending
		}
	}
	bonus := ticketUniverse(b, variant, false) < held+v.TicketDecks[0]+v.TicketDecks[1]+len(v.Tickets)+len(v.Pending)
	var under [2][]data.TicketID // given back, still in the decks
	for _, r := range v.Returned {
		own[r.Ticket] = true
		if !r.Boxed {
			pile := g.pileOf(r.Ticket)
			under[pile] = append(under[pile], r.Ticket)
		}
	}
	var others []data.TicketID
	for pile := range 2 {
		var hidden []data.TicketID
		for _, t := range b.Tickets {
			if (variant.Uses(&t) || (bonus && t.Deck == "bonus")) && t.Long == (pile == 1) && !own[t.ID] {
				hidden = append(hidden, t.ID)
			}
		}
		shuffle(&g.rng, hidden)
		if len(under[pile]) > v.TicketDecks[pile] {
			return nil, fmt.Errorf("determinize: %d tickets known under a deck of %d", len(under[pile]), v.TicketDecks[pile])
		}
		// The tickets given back lie at the bottom of their deck.
		k := min(v.TicketDecks[pile]-len(under[pile]), len(hidden))
		if odds != nil {
			// The tickets out of the deck are the likeliest to be held.
			hidden = pickWeighted(&g.rng, hidden, len(hidden)-k, func(t data.TicketID) float64 {
				w := 0.0
				for s := range v.Players {
					if s != v.Seat {
						w += odds(s, t)
					}
				}
				return w
			})
			others = append(others, hidden[:len(hidden)-k]...)
			g.tickets[pile] = append(append([]data.TicketID(nil), under[pile]...), hidden[len(hidden)-k:]...)
			continue
		}
		g.tickets[pile] = append(append([]data.TicketID(nil), under[pile]...), hidden[:k]...)
		others = append(others, hidden[k:]...)
	}
	for _, r := range v.Returned {
		pile := g.pileOf(r.Ticket)
		me.givenBack = append(me.givenBack, givenBack{ticket: r.Ticket, boxed: r.Boxed, above: v.TicketDecks[pile] - len(under[pile])})
	}
	if held > len(others) {
		return nil, fmt.Errorf("determinize: %d tickets held by others, only %d unseen", held, len(others))
	}
	if odds == nil {
		shuffle(&g.rng, others)
	}
	for i, pp := range v.Players {
		if i == v.Seat {
			continue
		}
		p := &g.players[i]
		if odds != nil {
			// A ticket goes to this seat in proportion to this seat's share
			// of the odds, so a seat dealt first does not take the tickets
			// another seat is far likelier to hold.
			others = pickWeighted(&g.rng, others, pp.Tickets+pp.Pending, func(t data.TicketID) float64 {
				all := 0.0
				for s := range v.Players {
					if s != v.Seat {
						all += odds(s, t)
					}
				}
				if all <= 0 {
					return 0
				}
				return odds(i, t) / all
			})
		}
		p.Tickets, others = append([]data.TicketID(nil), others[:pp.Tickets]...), others[pp.Tickets:]
		p.Pending, others = append([]data.TicketID(nil), others[:pp.Pending]...), others[pp.Pending:]
	}

	g.owner = append([]int8(nil), v.Owners...)
	g.station = append([]int8(nil), v.Stations...)
	g.passenger = append([]int8(nil), v.Passengers...)
	g.goods = make([]int8, len(b.Cities))
	for c := range b.Cities {
		if c < len(v.Goods) {
			g.goods[c] = int8(len(b.Cities[c].GoodsStack) - len(v.Goods[c]))
		}
	}
	for i := range g.players {
		p := &g.players[i]
		onBoard := 0
		for _, s := range g.passenger {
			if int(s) == i {
				onBoard++
			}
		}
		p.PassengersUsed = max(0, r.Passengers-p.PassengersLeft-onBoard)
	}
	if v.LastRound {
		// The seat that started the last round is the first one whose trains
		// fell low; if several did, the one that leaves the fewest turns.
		g.finalTurns = n
		for s, p := range v.Players {
			if p.Trains <= r.EndTrains {
				g.finalTurns = min(g.finalTurns, n-(v.Current-s-1+2*n)%n)
			}
		}
	}
	return g, nil
}

// pickWeighted moves n tickets of s to its front, drawn without
// replacement with chances in proportion to weight (Efraimidis–Spirakis:
// the n largest keys u^(1/w)); the order of the rest is kept. A weight of
// zero or less is picked only when nothing else is left.
func pickWeighted(r *rng, s []data.TicketID, n int, weight func(data.TicketID) float64) []data.TicketID {
	if n <= 0 {
		return s
	}
	keys := make([]float64, len(s))
	for i, t := range s {
		u := (float64(r.next()>>11) + 0.5) / (1 << 53)
		if w := weight(t); w > 0 {
			keys[i] = math.Log(u) / w
		} else {
			keys[i] = math.Inf(-1)
		}
	}
	for i := range min(n, len(s)) {
		best := i
		for j := i + 1; j < len(s); j++ {
			if keys[j] > keys[best] {
				best = j
			}
		}
		// Rotate rather than swap, so that the rest keeps its order.
		t, k := s[best], keys[best]
		copy(s[i+1:best+1], s[i:best])
		copy(keys[i+1:best+1], keys[i:best])
		s[i], keys[i] = t, k
	}
	return s
}

// ticketUniverse counts the tickets a game of the variant is played with.
func ticketUniverse(b *data.Board, v *data.Variant, bonus bool) int {
	n := 0
	for _, t := range b.Tickets {
		if v.Uses(&t) || (bonus && t.Deck == "bonus") {
			n++
		}
	}
	return n
}
