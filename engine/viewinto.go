package engine

import "conductor/data"

// ViewInto fills v with what seat sees, as View does, reusing v's slices:
// a search that reads thousands of views a second allocates nothing once
// they have grown. v's slices are overwritten by the next ViewInto into it,
// so a caller that keeps a view beyond that takes View instead.
func (g *Game) ViewInto(seat int, v *PlayerView) {
	g.publicInto(&v.PublicView)
	p := &g.players[seat]
	v.Seat = seat
	v.Hand = p.Hand
	v.Pending = append(v.Pending[:0], p.Pending...)
	v.Returned = v.Returned[:0]
	for _, r := range p.givenBack {
		if !r.waiting {
			v.Returned = append(v.Returned, ReturnedTicket{Ticket: r.ticket, Boxed: r.boxed})
		}
	}
	v.KeepMin, v.KeepMax = g.KeepRange(seat)
	v.Tickets = v.Tickets[:0]
	if len(p.Tickets) == 0 {
		return
	}
	// The seat's network, on the stack for any board of ordinary size (as
	// Connected builds it).
	b := g.board
	var parent [stackNodes]data.CityID
	var owned [4 * stackNodes]bool
	n := Connectivity{board: b, parent: parent[:0], deadEnd: owned[:0]}
	n.parent = grow(n.parent, len(b.Cities))
	for i := range n.parent {
		n.parent[i] = data.CityID(i)
	}
	n.deadEnd = grow(n.deadEnd, len(b.Tracks))
	for t, o := range g.owner {
		mine := int(o) == seat
		n.deadEnd[t] = mine // only tracks into countries are looked up
		if tr := &b.Tracks[t]; mine && !b.Cities[tr.A].Country && !b.Cities[tr.B].Country {
			if ra, rb := n.find(tr.A), n.find(tr.B); ra != rb {
				n.parent[ra] = rb
			}
		}
	}
	for _, id := range p.Tickets {
		t := &g.board.Tickets[id]
		v.Tickets = append(v.Tickets, TicketStatus{Ticket: id, Completed: n.Connected(t.A, t.B)})
	}
}

// publicInto fills v with the public view, as Public does, reusing v's slices.
func (g *Game) publicInto(v *PublicView) {
	v.Board, v.Variant, v.Phase, v.Current, v.Turn = g.board, g.variant.ID, g.phase, g.current, g.turn
	v.LastRound = g.finalTurns >= 0
	v.FaceUp = append(v.FaceUp[:0], g.faceUp...)
	v.Deck, v.Discards = len(g.deck), len(g.discard)
	v.TicketDecks = [2]int{len(g.tickets[0]), len(g.tickets[1])}
	v.Owners = append(v.Owners[:0], g.owner...)
	v.Stations = append(v.Stations[:0], g.station...)
	v.Passengers = append(v.Passengers[:0], g.passenger...)
	v.LastMoveSeat = g.lastMove.seat
	v.LastMoveTracks = append(v.LastMoveTracks[:0], g.lastMove.tracks...)
	v.LastMoveCities = append(v.LastMoveCities[:0], g.lastMove.cities...)
	if cap(v.Goods) < len(g.board.Cities) {
		v.Goods = make([][]int, len(g.board.Cities))
	}
	v.Goods = v.Goods[:len(g.board.Cities)]
	for c := range g.board.Cities {
		v.Goods[c] = append(v.Goods[c][:0], g.GoodsLeft(data.CityID(c))...)
	}
	if cap(v.Players) < len(g.players) {
		v.Players = append(v.Players[:cap(v.Players)], make([]PublicPlayer, len(g.players)-cap(v.Players))...)
	}
	v.Players = v.Players[:len(g.players)]
	for i := range g.players {
		p := &g.players[i]
		pp := &v.Players[i]
		goods := pp.Goods
		*pp = PublicPlayer{
			Score: p.Score, Trains: p.Trains, Stations: p.Stations, Cards: p.Hand.Total(),
			Tickets: len(p.Tickets), Pending: len(p.Pending), Shown: p.shown, PassengersLeft: p.PassengersLeft,
			Goods: append(goods[:0], p.Goods...), SetupDone: g.SetupDone(i),
			GaveUp: p.gaveUp, GaveUpTunnel: p.gaveUpSet,
		}
	}
	v.Tunnel = nil
	if g.phase == PhaseTunnel {
		v.Tunnel = &TunnelView{Track: g.tunnel.claim.Track, Revealed: append([]Card(nil), g.tunnel.revealed...), Extra: g.tunnel.extra}
	}
}
