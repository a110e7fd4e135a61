package engine

import (
	"math/bits"

	"conductor/data"
)

// LegalActions appends every legal action of seat to buf and returns it.
// Payments are enumerated in full (every colour and locomotive count); a
// passenger is offered its best trip for each affordable number of Passenger
// cards (see BestTrips), since trips are paths and cannot all be listed.
func (g *Game) LegalActions(seat int, buf []Action) []Action {
	return g.LegalActionsWith(seat, buf, new(TripSearch))
}

// LegalActionsWith is LegalActions searching the passengers' trips with
// ts, whose buffers it reuses: the trips' paths stay valid until ts's next
// search (a search listing legal moves thousands of times a second).
func (g *Game) LegalActionsWith(seat int, buf []Action, ts *TripSearch) []Action {
	switch g.phase {
	case PhaseOver:
		return buf
	case PhaseSetup:
		if g.SetupDone(seat) {
			return buf
		}
		if mix, n := g.NeedsMix(seat); mix {
			return g.appendMixes(buf, n)
		}
		return g.appendKeeps(seat, buf)
	}
	if seat != g.current {
		return buf
	}
	switch g.phase {
	case PhaseSecondDraw:
		return g.appendDraws(buf, true)
	case PhaseKeepTickets:
		return g.appendKeeps(seat, buf)
	case PhaseTunnel:
		for _, l := range g.CanPayTunnel(seat) {
			buf = append(buf, Action{Kind: ActTunnelPay, Locos: l})
		}
		return append(buf, Action{Kind: ActTunnelCancel})
	}
	n0 := len(buf)
	buf = g.appendDraws(buf, false)
	// Searches call this for every step of thousands of playouts: tracks
	// taken, too long or beyond the hand are skipped before the payments
	// are enumerated (a necessary condition only; AppendClaims decides).
	p := &g.players[seat]
	reach := handReachOf(p)
	for t := range g.board.Tracks {
		tr := &g.board.Tracks[t]
		if g.owner[t] >= 0 || !reach.mayPay(p, tr) {
			continue
		}
		buf = g.AppendClaims(seat, data.TrackID(t), buf)
	}
	buf = g.appendTicketsAndStations(seat, buf)
	buf = g.appendTrips(seat, buf, ts)
	if len(buf) == n0 {
		buf = append(buf, Action{Kind: ActPass})
	}
	return buf
}

// AppendTicketsAndStations appends the ticket draws and station builds
// seat may choose at the start of its turn, in LegalActions' order. The
// passengers' trips follow them there: BestTrips (or a TripSearch) for each
// city PassengerAt gives seat, in city order; and a seat with no draw, no
// claim and none of these passes. Searches sampling a random move use it
// instead of listing every payment of every claim and every trip.
func (g *Game) AppendTicketsAndStations(seat int, buf []Action) []Action {
	if g.phase != PhaseTurn || seat != g.current {
		return buf
	}
	return g.appendTicketsAndStations(seat, buf)
}

func (g *Game) appendTicketsAndStations(seat int, buf []Action) []Action {
	if g.variant.DrawMix {
		buf = g.appendMixes(buf, g.variant.Draw)
	} else if len(g.tickets[0]) > 0 {
		buf = append(buf, Action{Kind: ActDrawTickets})
	}
	return g.appendStations(seat, buf)
}

func (g *Game) appendDraws(buf []Action, second bool) []Action {
	if g.cardsLeft() > 0 {
		buf = append(buf, Draw(DeckSlot))
	}
	for i, c := range g.faceUp {
		if c == NoCard || (second && c == Locomotive) {
			continue
		}
		buf = append(buf, Draw(i))
	}
	return buf
}

func (g *Game) appendMixes(buf []Action, n int) []Action {
	availL, availS := len(g.tickets[1]), len(g.tickets[0])
	n = min(n, availL+availS)
	if n == 0 {
		return buf
	}
	for l := 0; l <= n; l++ {
		if l <= availL && n-l <= availS {
			buf = append(buf, Action{Kind: ActDrawTickets, Long: l})
		}
	}
	return buf
}

func (g *Game) appendKeeps(seat int, buf []Action) []Action {
	n := len(g.players[seat].Pending)
	lo, hi := g.KeepRange(seat)
	for m := uint64(0); m < 1<<uint(n); m++ {
		if k := bits.OnesCount64(m); k >= lo && k <= hi {
			buf = append(buf, Action{Kind: ActKeep, Keep: m})
		}
	}
	return buf
}

// AppendClaims appends every legal way for seat to claim track t.
func (g *Game) AppendClaims(seat int, t data.TrackID, buf []Action) []Action {
	tr := &g.board.Tracks[t]
	p := &g.players[seat]
	if p.Trains < tr.Length || !g.claimFree(seat, t) {
		return buf
	}
	start := len(buf)
	buf = g.appendPayments(p, tr.Length, tr.Color, tr.Locomotives, g.loco4Allowed(tr.Length), buf, Action{Kind: ActClaim, Track: t})
	if g.board.Rules.HasPassengers() && p.PassengersLeft > 0 {
		// The same payments with a passenger placed on either free end.
		plain := buf[start:]
		for _, end := range [2]data.CityID{tr.A, tr.B} {
			if g.board.Cities[end].Country || g.passenger[end] >= 0 {
				continue
			}
			for _, a := range plain {
				a.Passenger, a.City = true, end
				buf = append(buf, a)
			}
		}
	}
	return buf
}

func (g *Game) loco4Allowed(length int) bool {
	r := &g.board.Rules
	return r.Cards.Locomotives4 > 0 && length >= r.Locomotive4MinLength
}

// appendPayments appends base with every affordable payment of length cards
// in colour need (Gray: any one colour) with at least ferry locomotives.
func (g *Game) appendPayments(p *Player, length int, need data.Color, ferry int, loco4 bool, buf []Action, base Action) []Action {
	maxL4 := 0
	if loco4 {
		maxL4 = min(p.Hand[Locomotive4], length)
	}
	for l4 := 0; l4 <= maxL4; l4++ {
		for l := ferry; l <= min(p.Hand[Locomotive], length-l4); l++ {
			colored := length - l - l4
			a := base
			a.Locos, a.Locos4 = l, l4
			if colored == 0 {
				a.Color = data.Gray
				buf = append(buf, a)
				continue
			}
			if need != data.Gray {
				if p.Hand[need] >= colored {
					a.Color = need
					buf = append(buf, a)
				}
				continue
			}
			for _, c := range data.CardColors {
				if p.Hand[c] >= colored {
					a.Color = c
					buf = append(buf, a)
				}
			}
		}
	}
	return buf
}

func (g *Game) appendStations(seat int, buf []Action) []Action {
	p := &g.players[seat]
	if p.Stations == 0 {
		return buf
	}
	cost := g.StationCost(seat)
	for c := range g.board.Cities {
		if g.station[c] >= 0 || g.board.Cities[c].Country {
			continue
		}
		buf = g.appendPayments(p, cost, data.Gray, 0, false, buf, Action{Kind: ActStation, City: data.CityID(c)})
	}
	return buf
}

// appendTrips appends the best trips of seat's passengers (see BestTrips),
// searched with ts: their paths, copied into ts's path store, stay valid
// until its next search.
func (g *Game) appendTrips(seat int, buf []Action, ts *TripSearch) []Action {
	if !g.board.Rules.HasPassengers() {
		return buf
	}
	ts.paths = ts.paths[:0]
	for c, o := range g.passenger {
		if int(o) != seat {
			continue
		}
		for _, trip := range ts.Best(g, seat, data.CityID(c)) {
			start := len(ts.paths)
			ts.paths = append(ts.paths, trip.Path...)
			path := ts.paths[start:len(ts.paths):len(ts.paths)]
			buf = append(buf, Action{Kind: ActMovePassenger, City: data.CityID(c), Path: path})
		}
	}
	return buf
}

// canAct reports whether seat has any action other than passing.
func (g *Game) canAct(seat int) bool {
	if g.canDrawFirst() {
		return true
	}
	if g.variant.DrawMix {
		if len(g.tickets[0])+len(g.tickets[1]) > 0 {
			return true
		}
	} else if len(g.tickets[0]) > 0 {
		return true
	}
	var buf [64]Action
	for t := range g.board.Tracks {
		if len(g.AppendClaims(seat, data.TrackID(t), buf[:0])) > 0 {
			return true
		}
	}
	if len(g.appendStations(seat, buf[:0])) > 0 {
		return true
	}
	return len(g.appendTrips(seat, buf[:0], new(TripSearch))) > 0
}

// CanClaim reports whether seat has at least one legal way to claim track
// t now (whether AppendClaims would append anything), without listing the
// payments: searches sampling a random move call it for every track.
func (g *Game) CanClaim(seat int, t data.TrackID) bool {
	tr := &g.board.Tracks[t]
	p := &g.players[seat]
	if g.owner[t] >= 0 || p.Trains < tr.Length {
		return false
	}
	return canPay(p, tr.Length, tr.Color, tr.Locomotives, g.loco4Allowed(tr.Length)) && g.claimFree(seat, t)
}

// AppendClaimable appends the tracks seat can claim now (those CanClaim
// accepts), in track order, with one pass of quick checks first.
func (g *Game) AppendClaimable(seat int, buf []data.TrackID) []data.TrackID {
	p := &g.players[seat]
	reach := handReachOf(p)
	for t := range g.board.Tracks {
		tr := &g.board.Tracks[t]
		if g.owner[t] >= 0 || !reach.mayPay(p, tr) {
			continue
		}
		if canPay(p, tr.Length, tr.Color, tr.Locomotives, g.loco4Allowed(tr.Length)) && g.claimFree(seat, data.TrackID(t)) {
			buf = append(buf, data.TrackID(t))
		}
	}
	return buf
}

// canPay reports whether appendPayments would append any payment: using
// as many locomotives as allowed leaves the fewest coloured cards to find.
func canPay(p *Player, length int, need data.Color, ferry int, loco4 bool) bool {
	maxL4 := 0
	if loco4 {
		maxL4 = min(p.Hand[Locomotive4], length)
	}
	for l4 := 0; l4 <= maxL4; l4++ {
		l := min(p.Hand[Locomotive], length-l4)
		if l < ferry {
			continue
		}
		colored := length - l - l4
		if colored == 0 {
			return true
		}
		if need != data.Gray {
			if p.Hand[need] >= colored {
				return true
			}
			continue
		}
		for _, c := range data.CardColors {
			if p.Hand[c] >= colored {
				return true
			}
		}
	}
	return false
}

// handReach is what a hand could put on one track at most: its largest
// colour and its wild cards.
type handReach struct{ best, wild int }

func handReachOf(p *Player) handReach {
	r := handReach{wild: p.Hand[Locomotive] + p.Hand[Locomotive4]}
	for _, c := range data.CardColors {
		r.best = max(r.best, p.Hand[c])
	}
	return r
}

// mayPay is the quick necessary condition for claiming tr: enough trains
// and enough cards of a colour that fits. Only the payment rules decide.
func (r handReach) mayPay(p *Player, tr *data.Track) bool {
	have := r.best
	if tr.Color != data.Gray {
		have = p.Hand[tr.Color]
	}
	return tr.Length <= p.Trains && have+r.wild >= tr.Length
}
