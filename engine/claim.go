package engine

import "conductor/data"

// claimFree reports whether seat may claim t as far as its holders go.
func (g *Game) claimFree(seat int, t data.TrackID) bool {
	if g.owner[t] >= 0 {
		return false
	}
	for _, o := range g.board.Parallel(t) {
		if o != t && g.owner[o] >= 0 && (int(g.owner[o]) == seat || len(g.players) <= 3) {
			return false
		}
	}
	return true
}

// claimBlocked says why seat may not claim t because of who holds it or its
// parallel tracks, or returns nil.
func (g *Game) claimBlocked(seat int, t data.TrackID) *Error {
	if o := g.owner[t]; o >= 0 {
		return g.refuse(ErrNotAvailable, "claim.taken", "route", t, "player", Seat(o))
	}
	for _, o := range g.board.Parallel(t) {
		if o == t || g.owner[o] < 0 {
			continue
		}
		if int(g.owner[o]) == seat {
			return g.refuse(ErrNotAllowed, "claim.double_own", "route", o)
		}
		if len(g.players) <= 3 {
			return g.refuse(ErrNotAllowed, "claim.double_few", "route", o)
		}
	}
	return nil
}

// checkPayment validates paying length cards for a track or station: locos
// locomotives, locos4 Locomotive +4 and the rest in colour c. need is the
// colour the cards must have (Gray: any one colour). what names the thing
// paid for in refusals: a data.TrackID or a StationSite. It returns the
// number of colour cards.
func (g *Game) checkPayment(seat int, what any, length int, need data.Color, c data.Color, locos, locos4, ferry int) (int, *Error) {
	p := &g.players[seat]
	r := &g.board.Rules
	if locos < 0 || locos4 < 0 {
		return 0, g.refuse(ErrBadAction, "pay.negative")
	}
	colored := length - locos - locos4
	if colored < 0 {
		return 0, g.refuse(ErrBadAction, "pay.too_many_wild",
			"what", what, "length", length, "wild", locos+locos4)
	}
	if locos4 > 0 {
		if r.Cards.Locomotives4 == 0 {
			return 0, g.refuse(ErrBadAction, "pay.no_locos4")
		}
		if length < r.Locomotive4MinLength {
			return 0, g.refuse(ErrNotAllowed, "pay.locos4_short",
				"min", r.Locomotive4MinLength, "what", what, "length", length, "colour", need)
		}
	}
	if colored > 0 {
		if c == data.Gray || c > data.Red {
			return 0, g.refuse(ErrBadAction, "pay.which_colour", "what", what)
		}
		if need != data.Gray && c != need {
			return 0, g.refuse(ErrNotAllowed, "pay.wrong_colour",
				"what", what, "need", need, "colour", c)
		}
	}
	if locos < ferry {
		return 0, g.refuse(ErrNotAllowed, "pay.ferry",
			"what", what, "locos", CardsNeeded{Locos: ferry})
	}
	short := (colored > 0 && p.Hand[c] < colored) || p.Hand[Locomotive] < locos || p.Hand[Locomotive4] < locos4
	if short {
		return 0, g.refuse(ErrCannotAfford, "pay.short",
			"what", what, "need", CardsNeeded{Locos: ferry, Count: length - ferry, Color: need}, "held", g.cardsHeld(seat, need, length))
	}
	return colored, nil
}

// cardsHeld is what seat holds that could pay length cards of need.
func (g *Game) cardsHeld(seat int, need data.Color, length int) CardsHeld {
	h := &g.players[seat].Hand
	held := CardsHeld{Color: need, Count: h[need], Locos: h[Locomotive], Locos4: h[Locomotive4]}
	if need == data.Gray {
		best := data.Pink
		for _, c := range data.CardColors {
			if h[c] > h[best] {
				best = c
			}
		}
		held.Color, held.Count, held.Best = best, h[best], true
	}
	held.ShowLocos4 = g.board.Rules.Cards.Locomotives4 > 0 && length >= g.board.Rules.Locomotive4MinLength
	return held
}

func (g *Game) checkClaim(seat int, a Action) error {
	b := g.board
	if a.Track < 0 || int(a.Track) >= len(b.Tracks) {
		return g.refuse(ErrBadAction, "claim.no_route")
	}
	if err := g.claimBlocked(seat, a.Track); err != nil {
		return err
	}
	t := &b.Tracks[a.Track]
	p := &g.players[seat]
	if p.Trains < t.Length {
		return g.refuse(ErrNotAllowed, "claim.trains",
			"route", a.Track, "trains", t.Length, "left", p.Trains)
	}
	if _, err := g.checkPayment(seat, a.Track, t.Length, t.Color, a.Color, a.Locos, a.Locos4, t.Locomotives); err != nil {
		return err
	}
	if a.Passenger {
		return g.checkPlacePassenger(seat, a)
	}
	return nil
}

func (g *Game) checkPlacePassenger(seat int, a Action) error {
	b := g.board
	t := &b.Tracks[a.Track]
	switch {
	case !b.Rules.HasPassengers():
		return g.refuse(ErrBadAction, "passenger.none_edition")
	case g.players[seat].PassengersLeft == 0:
		return g.refuse(ErrNotAvailable, "claim.passengers_gone")
	case a.City != t.A && a.City != t.B:
		return g.refuse(ErrBadAction, "claim.passenger_end", "a", t.A, "b", t.B)
	case b.Cities[a.City].Country:
		return g.refuse(ErrNotAllowed, "claim.passenger_country", "city", t.Other(a.City))
	case g.passenger[a.City] >= 0:
		return g.refuse(ErrNotAvailable, "claim.passenger_taken", "city", a.City)
	}
	return nil
}

func (g *Game) performClaim(seat int, a Action) {
	t := &g.board.Tracks[a.Track]
	if a.Locos+a.Locos4 == t.Length {
		a.Color = data.Gray
	}
	if t.Tunnel && g.board.Rules.TunnelReveal > 0 {
		g.revealTunnel(seat, a)
		return
	}
	g.completeClaim(seat, a, 0, 0)
}

// completeClaim pays for a claim (plus extra tunnel cards) and takes the track.
func (g *Game) completeClaim(seat int, a Action, extraColored, extraLocos int) {
	p := &g.players[seat]
	t := &g.board.Tracks[a.Track]
	colored := t.Length - a.Locos - a.Locos4
	var cards []Card
	if g.narrate {
		cards = appendN(cards, ColorCard(a.Color), colored+extraColored)
		cards = appendN(cards, Locomotive, a.Locos+extraLocos)
		cards = appendN(cards, Locomotive4, a.Locos4)
	}
	if colored+extraColored > 0 {
		g.pay(p, ColorCard(a.Color), colored+extraColored)
	}
	g.pay(p, Locomotive, a.Locos+extraLocos)
	g.pay(p, Locomotive4, a.Locos4)
	g.owner[a.Track] = int8(seat)
	p.Trains -= t.Length
	pts := g.board.RoutePoints(t.Length)
	p.Score += pts
	g.emit(Event{Kind: EvClaim, Seat: seat, Track: a.Track, Cards: cards, Points: pts})
	if a.Passenger {
		g.passenger[a.City] = int8(seat)
		p.PassengersLeft--
		g.emit(Event{Kind: EvPassengerPlaced, Seat: seat, City: a.City})
	}
	if g.narrate { // searches play without narrating: no garbage for them
		g.setLastMove(seat, []data.TrackID{a.Track}, []data.CityID{t.A, t.B})
	}
	g.endTurn()
}

func (g *Game) setLastMove(seat int, tracks []data.TrackID, cities []data.CityID) {
	if g.narrate {
		g.lastMove = lastMove{seat: seat, tracks: tracks, cities: cities}
	}
}

// ClaimFree reports whether seat may claim t as far as its holders go: t
// is free, and no parallel track closes it (the seat's own, or any at two
// or three players). Cards and trains aside, it is what the rules say of a
// double route's twin.
func (g *Game) ClaimFree(seat int, t data.TrackID) bool { return g.claimFree(seat, t) }
