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
// seat drew) and the seat's choice of its initial tickets in a one-step
// setup (setupWorld); a pending tunnel and the other setups are refused.
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
	variant, err := determinizable(v)
	if err != nil {
		return nil, err
	}
	g := newWorld(v, variant, seed)
	pool, err := unseenCards(v)
	if err != nil {
		return nil, err
	}
	shuffle(&g.rng, pool)
	if err := g.dealCards(v, pool); err != nil {
		return nil, err
	}
	unplaced, err := g.dealUnseenTickets(v, odds)
	if err != nil {
		return nil, err
	}
	g.copyBoard(v)
	g.finalTurns = lastRoundTurns(v)
	if v.Phase == PhaseSetup {
		g.setupWorld(v, unplaced)
	}
	return g, nil
}

// setupWorld puts the seats of a world built during setup where the view
// shows them: those that have chosen are done, the others still choose
// from the tickets they were dealt, or announce their mix first when
// nothing was dealt to them yet (Märklin). The tickets other seats gave
// back to be shuffled under the decks once all have chosen are not in
// the view's deck counts; they are the unseen tickets no seat was dealt.
func (g *Game) setupWorld(v PlayerView, unplaced []data.TicketID) {
	step := g.variant.Setup[0]
	for i := range g.players {
		p := &g.players[i]
		if v.Players[i].SetupDone {
			continue
		}
		p.setupStep = 0
		p.setupNeedMx = step.Mix > 0 && len(p.Pending) == 0
	}
	if step.Discard == data.DiscardBottom && g.cfg.Revision >= Revision2 {
		g.setupReturned = unplaced
	}
}

// determinizable checks that the view is of a phase a world can be built
// for, and returns its variant.
func determinizable(v PlayerView) (*data.Variant, error) {
	switch v.Phase {
	case PhaseTurn, PhaseSecondDraw:
	case PhaseKeepTickets:
		if v.Current != v.Seat {
			return nil, fmt.Errorf("determinize: another seat is choosing tickets")
		}
	case PhaseSetup:
		if v.Players[v.Seat].SetupDone || len(v.Pending) == 0 {
			return nil, fmt.Errorf("determinize: the seat has no initial tickets to choose")
		}
	default:
		return nil, fmt.Errorf("determinize: phase %s is not supported", v.Phase)
	}
	variant, ok := v.Board.Variant(v.Variant)
	if !ok {
		return nil, fmt.Errorf("determinize: unknown variant %q", v.Variant)
	}
	if v.Phase == PhaseSetup && len(variant.Setup) != 1 {
		return nil, fmt.Errorf("determinize: a setup of %d steps is not supported", len(variant.Setup))
	}
	return variant, nil
}

// newWorld is the game a world is dealt into: the view's board, variant,
// phase and turn, and the random stream of the seed, which deals it.
func newWorld(v PlayerView, variant *data.Variant, seed uint64) *Game {
	b := v.Board
	g := &Game{board: b, variant: variant, rng: newRNG(seed), phase: v.Phase, current: v.Current, turn: v.Turn, finalTurns: -1}
	g.cfg = Config{Board: b, Variant: variant.ID, Players: len(v.Players), Seed: seed, Revision: LatestRevision}
	return g
}

// unseenCards lists the train cards the seat cannot place: every card of
// the game but the face-up ones, the seat's own hand and the cards
// everyone saw another seat take (and not play), which are in that seat's
// hand.
func unseenCards(v PlayerView) ([]Card, error) {
	r := &v.Board.Rules
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
	return pool, nil
}

// dealCards seats the players with their public counts and deals the
// shuffled unseen pool: the rest of each other seat's hand (beyond the
// cards it was seen taking), then the discard pile, then the deck.
func (g *Game) dealCards(v PlayerView, pool []Card) error {
	need := v.Deck + v.Discards
	for i, p := range v.Players {
		if i != v.Seat {
			need += p.Cards - p.Shown.Total()
		}
	}
	if need > len(pool) {
		return fmt.Errorf("determinize: %d unseen cards counted, only %d exist", need, len(pool))
	}
	g.players = make([]Player, len(v.Players))
	for i := range g.players {
		pp := &v.Players[i]
		p := &g.players[i]
		p.Trains, p.Stations, p.Score = pp.Trains, pp.Stations, pp.Score
		p.PassengersLeft = pp.PassengersLeft
		p.Goods = append([]int(nil), pp.Goods...)
		p.setupStep = len(g.variant.Setup)
		p.shown = pp.Shown
		p.gaveUp, p.gaveUpSet = pp.GaveUp, pp.GaveUpTunnel
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
	total := g.board.Rules.Cards.Total()
	g.discard = make([]Card, 0, total)
	g.discard = append(g.discard, pool[len(pool)-v.Discards:]...)
	pool = pool[:len(pool)-v.Discards]
	g.deck = make([]Card, 0, total)
	g.deck = append(g.deck, pool[len(pool)-v.Deck:]...)
	g.faceUp = append([]Card(nil), v.FaceUp...)
	return nil
}

// dealUnseenTickets places the tickets. Those the seat holds or drew are
// known, and so is the place of those it gave back (out of the game, or
// under a deck); the rest of the game's tickets are shared between the
// ticket decks (their counts are public) and the other seats' hands, by
// the odds when there are some. It returns the unseen tickets neither in
// a deck nor in a hand: those the other seats put out of the game, or
// gave back to go under a deck once the setup is over.
func (g *Game) dealUnseenTickets(v PlayerView, odds TicketOdds) ([]data.TicketID, error) {
	own, under := g.knownTickets(v)
	held := 0
	for i, p := range v.Players {
		if i != v.Seat {
			held += p.Tickets + p.Pending
		}
	}
	bonus := ticketUniverse(g.board, g.variant, false) < held+v.TicketDecks[0]+v.TicketDecks[1]+len(v.Tickets)+len(v.Pending)
	var others []data.TicketID
	for pile := range 2 {
		var err error
		if others, err = g.fillTicketDeck(v, pile, own, under[pile], bonus, odds, others); err != nil {
			return nil, err
		}
	}
	me := &g.players[v.Seat]
	for _, r := range v.Returned {
		pile := g.pileOf(r.Ticket)
		me.givenBack = append(me.givenBack, givenBack{ticket: r.Ticket, boxed: r.Boxed, above: v.TicketDecks[pile] - len(under[pile])})
	}
	if held > len(others) {
		return nil, fmt.Errorf("determinize: %d tickets held by others, only %d unseen", held, len(others))
	}
	return g.dealOthersTickets(v, others, odds), nil
}

// knownTickets gives the seat its tickets and pending ones and lists what
// it knows: every ticket it holds, drew or gave back (own), and, by pile,
// those it gave back that still lie under a deck.
func (g *Game) knownTickets(v PlayerView) (own map[data.TicketID]bool, under [2][]data.TicketID) {
	own = make(map[data.TicketID]bool, len(v.Tickets)+len(v.Pending)+len(v.Returned))
	me := &g.players[v.Seat]
	for _, t := range v.Tickets {
		own[t.Ticket] = true
		me.Tickets = append(me.Tickets, t.Ticket)
	}
	for _, t := range v.Pending {
		own[t] = true
		me.Pending = append(me.Pending, t)
	}
	for _, r := range v.Returned {
		own[r.Ticket] = true
		if !r.Boxed {
			pile := g.pileOf(r.Ticket)
			under[pile] = append(under[pile], r.Ticket)
		}
	}
	return own, under
}

// fillTicketDeck builds one ticket deck (pile 0 the regular tickets, 1 the
// long ones): the tickets given back at its bottom, then as many of the
// pile's unseen tickets as its public count leaves room for. Those left
// out, which the other seats hold, are appended to others. With odds, the
// tickets left out are the likeliest to be held by some other seat.
func (g *Game) fillTicketDeck(v PlayerView, pile int, own map[data.TicketID]bool, under []data.TicketID, bonus bool, odds TicketOdds, others []data.TicketID) ([]data.TicketID, error) {
	var hidden []data.TicketID
	for _, t := range g.board.Tickets {
		if (g.variant.Uses(&t) || (bonus && t.Deck == "bonus")) && t.Long == (pile == 1) && !own[t.ID] {
			hidden = append(hidden, t.ID)
		}
	}
	shuffle(&g.rng, hidden)
	if len(under) > v.TicketDecks[pile] {
		return nil, fmt.Errorf("determinize: %d tickets known under a deck of %d", len(under), v.TicketDecks[pile])
	}
	k := min(v.TicketDecks[pile]-len(under), len(hidden))
	if odds == nil {
		g.tickets[pile] = append(append([]data.TicketID(nil), under...), hidden[:k]...)
		return append(others, hidden[k:]...), nil
	}
	hidden = pickWeighted(&g.rng, hidden, len(hidden)-k, heldByAnyOther(v, odds))
	g.tickets[pile] = append(append([]data.TicketID(nil), under...), hidden[len(hidden)-k:]...)
	return append(others, hidden[:len(hidden)-k]...), nil
}

// heldByAnyOther weighs a ticket by the odds that some other seat holds it.
func heldByAnyOther(v PlayerView, odds TicketOdds) func(data.TicketID) float64 {
	return func(t data.TicketID) float64 {
		w := 0.0
		for s := range v.Players {
			if s != v.Seat {
				w += odds(s, t)
			}
		}
		return w
	}
}

// dealOthersTickets deals the tickets out of the decks to the other seats,
// in their public counts, held then pending. Without odds they are
// shuffled and dealt in turn; with odds each seat draws a ticket in
// proportion to its share of the odds, so that a seat dealt first does not
// take the tickets another seat is far likelier to hold. It returns those
// left over.
func (g *Game) dealOthersTickets(v PlayerView, others []data.TicketID, odds TicketOdds) []data.TicketID {
	if odds == nil {
		shuffle(&g.rng, others)
	}
	for i, pp := range v.Players {
		if i == v.Seat {
			continue
		}
		p := &g.players[i]
		if odds != nil {
			others = pickWeighted(&g.rng, others, pp.Tickets+pp.Pending, seatShare(v, odds, i))
		}
		p.Tickets, others = append([]data.TicketID(nil), others[:pp.Tickets]...), others[pp.Tickets:]
		p.Pending, others = append([]data.TicketID(nil), others[:pp.Pending]...), others[pp.Pending:]
	}
	return others
}

// seatShare weighs a ticket by seat's share of the odds that the other
// seats hold it.
func seatShare(v PlayerView, odds TicketOdds, seat int) func(data.TicketID) float64 {
	heldByAny := heldByAnyOther(v, odds)
	return func(t data.TicketID) float64 {
		all := heldByAny(t)
		if all <= 0 {
			return 0
		}
		return odds(seat, t) / all
	}
}

// copyBoard copies the public board: the tracks' and stations' owners,
// the passengers standing in cities, the goods taken, and from them each
// seat's passengers used.
func (g *Game) copyBoard(v PlayerView) {
	b := g.board
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
		p.PassengersUsed = max(0, b.Rules.Passengers-p.PassengersLeft-onBoard)
	}
}

// lastRoundTurns is the turns left in the last round (finalTurns), -1
// before it. The seat that started it is the first one whose trains fell
// low; if several did, the one that leaves the fewest turns.
func lastRoundTurns(v PlayerView) int {
	if !v.LastRound {
		return -1
	}
	n := len(v.Players)
	turns := n
	for s, p := range v.Players {
		if p.Trains <= v.Board.Rules.EndTrains {
			turns = min(turns, n-(v.Current-s-1+2*n)%n)
		}
	}
	return turns
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
