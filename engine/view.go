package engine

import "conductor/data"

// PublicView is what everyone at the table sees: no hand, no ticket, no
// deck order. It is a copy; changing it changes nothing.
type PublicView struct {
	Board     *data.Board
	Variant   string
	Phase     Phase
	Current   int
	Turn      int
	LastRound bool
	Players   []PublicPlayer
	FaceUp    []Card
	Deck      int
	Discards  int
	// TicketDecks counts the regular (short) and long ticket decks.
	TicketDecks [2]int
	Owners      []int8 // per track: seat or -1
	Stations    []int8 // per city: seat or -1
	Passengers  []int8 // per city: seat or -1
	Goods       [][]int
	// Tunnel is the pending tunnel: its revealed cards are face up.
	Tunnel *TunnelView
	// LastMove is what the last action touched, for highlighting.
	LastMoveSeat   int
	LastMoveTracks []data.TrackID
	LastMoveCities []data.CityID
}

// PublicPlayer is a seat as everyone sees it.
type PublicPlayer struct {
	Score    int
	Trains   int
	Stations int // left to build
	Cards    int // count only
	Tickets  int // count only
	Pending  int // tickets drawn, not yet chosen
	// Shown are cards of the hand everyone knows of: taken face up and not
	// played since (the hand holds at least these).
	Shown          Hand
	PassengersLeft int
	Goods          []int
	SetupDone      bool
	// GaveUp is the tunnel the seat gave up on its turn just past, taking
	// its cards back (GaveUpTunnel); its next move clears it. Tried again
	// at once, with the same hand, the same odds meet it.
	GaveUp       data.TrackID
	GaveUpTunnel bool
}

// TunnelView is a pending tunnel claim.
type TunnelView struct {
	Track    data.TrackID
	Revealed []Card
	Extra    int
}

// PlayerView is what one seat sees: the public view plus its own hand and tickets.
type PlayerView struct {
	PublicView
	Seat    int
	Hand    Hand
	Tickets []TicketStatus
	Pending []data.TicketID
	// Returned are the tickets this seat gave back whose place it still
	// knows: out of the game, or in a deck below every ticket drawn since.
	Returned []ReturnedTicket
	// KeepMin and KeepMax bound the pending tickets to keep.
	KeepMin, KeepMax int
}

// TicketStatus is a held ticket and whether it is complete now.
type TicketStatus struct {
	Ticket    data.TicketID
	Completed bool
}

// Public returns the public view.
func (g *Game) Public() PublicView {
	v := PublicView{
		Board: g.board, Variant: g.variant.ID, Phase: g.phase, Current: g.current, Turn: g.turn,
		LastRound: g.finalTurns >= 0,
		FaceUp:    append([]Card(nil), g.faceUp...),
		Deck:      len(g.deck), Discards: len(g.discard),
		TicketDecks:    [2]int{len(g.tickets[0]), len(g.tickets[1])},
		Owners:         append([]int8(nil), g.owner...),
		Stations:       append([]int8(nil), g.station...),
		Passengers:     append([]int8(nil), g.passenger...),
		LastMoveSeat:   g.lastMove.seat,
		LastMoveTracks: append([]data.TrackID(nil), g.lastMove.tracks...),
		LastMoveCities: append([]data.CityID(nil), g.lastMove.cities...),
	}
	v.Goods = make([][]int, len(g.board.Cities))
	for c := range g.board.Cities {
		v.Goods[c] = append([]int(nil), g.GoodsLeft(data.CityID(c))...)
	}
	for i := range g.players {
		p := &g.players[i]
		v.Players = append(v.Players, PublicPlayer{
			Score: p.Score, Trains: p.Trains, Stations: p.Stations, Cards: p.Hand.Total(),
			Tickets: len(p.Tickets), Pending: len(p.Pending), Shown: p.shown, PassengersLeft: p.PassengersLeft,
			Goods: append([]int(nil), p.Goods...), SetupDone: g.SetupDone(i),
			GaveUp: p.gaveUp, GaveUpTunnel: p.gaveUpSet,
		})
	}
	if g.phase == PhaseTunnel {
		v.Tunnel = &TunnelView{Track: g.tunnel.claim.Track, Revealed: append([]Card(nil), g.tunnel.revealed...), Extra: g.tunnel.extra}
	}
	return v
}

// View returns what seat sees.
func (g *Game) View(seat int) PlayerView {
	p := &g.players[seat]
	v := PlayerView{PublicView: g.Public(), Seat: seat, Hand: p.Hand, Pending: append([]data.TicketID(nil), p.Pending...), Returned: p.returnedTickets()}
	v.KeepMin, v.KeepMax = g.KeepRange(seat)
	owned := make([]bool, len(g.board.Tracks))
	for t, o := range g.owner {
		owned[t] = int(o) == seat
	}
	for _, id := range p.Tickets {
		t := &g.board.Tickets[id]
		v.Tickets = append(v.Tickets, TicketStatus{Ticket: id, Completed: Connected(g.board, owned, t.A, t.B)})
	}
	return v
}
