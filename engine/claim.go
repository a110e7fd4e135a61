package engine

import (
	"fmt"
	"strings"

	"conductor/data"
)

// TrackLabel is "Paris – Frankfurt (white, 3)", how errors name a track.
func (g *Game) TrackLabel(t data.TrackID) string {
	tr := &g.board.Tracks[t]
	kind := ""
	switch {
	case tr.Tunnel:
		kind = ", tunnel"
	case tr.Locomotives > 0:
		kind = fmt.Sprintf(", ferry with %d locomotive%s", tr.Locomotives, plural(tr.Locomotives))
	}
	return fmt.Sprintf("%s (%s, %d%s)", g.board.TrackName(t), tr.Color, tr.Length, kind)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

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
		return errorf(ErrNotAvailable, "%s is already claimed by player %d", g.TrackLabel(t), o+1)
	}
	for _, o := range g.board.Parallel(t) {
		if o == t || g.owner[o] < 0 {
			continue
		}
		if int(g.owner[o]) == seat {
			return errorf(ErrNotAllowed, "you already hold %s: one player never takes two tracks between the same cities", g.TrackLabel(o))
		}
		if len(g.players) <= 3 {
			return errorf(ErrNotAllowed, "with 2 or 3 players only one track between the same cities can be used, and %s is taken", g.TrackLabel(o))
		}
	}
	return nil
}

// checkPayment validates paying length cards for a track or station: locos
// locomotives, locos4 Locomotive +4 and the rest in colour c. need is the
// colour the cards must have (Gray: any one colour). It returns the number
// of colour cards.
func (g *Game) checkPayment(seat int, what string, length int, need data.Color, c data.Color, locos, locos4, ferry int) (int, *Error) {
	p := &g.players[seat]
	r := &g.board.Rules
	if locos < 0 || locos4 < 0 {
		return 0, errorf(ErrBadAction, "card counts cannot be negative")
	}
	colored := length - locos - locos4
	if colored < 0 {
		return 0, errorf(ErrBadAction, "%s needs %d cards, but you offered %d wild cards", what, length, locos+locos4)
	}
	if locos4 > 0 {
		if r.Cards.Locomotives4 == 0 {
			return 0, errorf(ErrBadAction, "there are no Locomotive +4 cards in this edition")
		}
		if length < r.Locomotive4MinLength {
			return 0, errorf(ErrNotAllowed, "Locomotive +4 cards only pay for routes of %d or more spaces; %s has %d: use locomotives or %s cards",
				r.Locomotive4MinLength, what, length, colorWord(need))
		}
	}
	if colored > 0 {
		if c == data.Gray || c > data.Red {
			return 0, errorf(ErrBadAction, "say which colour of cards pays for %s", what)
		}
		if need != data.Gray && c != need {
			return 0, errorf(ErrNotAllowed, "%s is %s: pay with %s cards and locomotives, not %s", what, need, need, c)
		}
	}
	if locos < ferry {
		return 0, errorf(ErrNotAllowed, "%s is a ferry: it needs %d locomotive%s among the cards", what, ferry, plural(ferry))
	}
	short := (colored > 0 && p.Hand[c] < colored) || p.Hand[Locomotive] < locos || p.Hand[Locomotive4] < locos4
	if short {
		return 0, errorf(ErrCannotAfford, "%s needs %s; you have %s", what, g.describeNeed(length, need, ferry), g.describeHolding(seat, need, length))
	}
	return colored, nil
}

func colorWord(c data.Color) string {
	if c == data.Gray {
		return "same-colour"
	}
	return c.String()
}

// describeNeed is "3 white cards", "3 cards of one colour" or "2 locomotives
// and 4 cards of one colour".
func (g *Game) describeNeed(length int, need data.Color, ferry int) string {
	rest := length - ferry
	var parts []string
	if ferry > 0 {
		parts = append(parts, fmt.Sprintf("%d locomotive%s", ferry, plural(ferry)))
	}
	if rest > 0 {
		if need == data.Gray {
			parts = append(parts, fmt.Sprintf("%d card%s of one colour", rest, plural(rest)))
		} else {
			parts = append(parts, fmt.Sprintf("%d %s card%s", rest, need, plural(rest)))
		}
	}
	return strings.Join(parts, " and ")
}

// describeHolding lists the cards that could pay: "1 white and 1 locomotive".
func (g *Game) describeHolding(seat int, need data.Color, length int) string {
	h := &g.players[seat].Hand
	var parts []string
	if need != data.Gray {
		parts = append(parts, fmt.Sprintf("%d %s", h[need], need))
	} else {
		best := data.Pink
		for _, c := range data.CardColors {
			if h[c] > h[best] {
				best = c
			}
		}
		parts = append(parts, fmt.Sprintf("at most %d of one colour (%s)", h[best], best))
	}
	parts = append(parts, fmt.Sprintf("%d locomotive%s", h[Locomotive], plural(h[Locomotive])))
	if g.board.Rules.Cards.Locomotives4 > 0 && length >= g.board.Rules.Locomotive4MinLength {
		parts = append(parts, fmt.Sprintf("%d locomotive+4", h[Locomotive4]))
	}
	return strings.Join(parts, " and ")
}

func (g *Game) checkClaim(seat int, a Action) error {
	b := g.board
	if a.Track < 0 || int(a.Track) >= len(b.Tracks) {
		return errorf(ErrBadAction, "there is no such route")
	}
	if err := g.claimBlocked(seat, a.Track); err != nil {
		return err
	}
	t := &b.Tracks[a.Track]
	p := &g.players[seat]
	if p.Trains < t.Length {
		return errorf(ErrNotAllowed, "%s needs %d trains; you have %d left", g.TrackLabel(a.Track), t.Length, p.Trains)
	}
	if _, err := g.checkPayment(seat, g.TrackLabel(a.Track), t.Length, t.Color, a.Color, a.Locos, a.Locos4, t.Locomotives); err != nil {
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
	case b.Rules.Passengers == 0:
		return errorf(ErrBadAction, "there are no passengers in this edition")
	case g.players[seat].PassengersLeft == 0:
		return errorf(ErrNotAvailable, "all your passengers are on the board or gone: claim without placing one")
	case a.City != t.A && a.City != t.B:
		return errorf(ErrBadAction, "a passenger goes on one end of the route: %s or %s", b.Cities[t.A].Name, b.Cities[t.B].Name)
	case b.Cities[a.City].Country:
		return errorf(ErrNotAllowed, "a passenger cannot stand in a country: choose %s", b.Cities[t.Other(a.City)].Name)
	case g.passenger[a.City] >= 0:
		return errorf(ErrNotAvailable, "a passenger already stands in %s: only one passenger per city", b.Cities[a.City].Name)
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
	cities := []data.CityID{t.A, t.B}
	if a.Passenger {
		g.passenger[a.City] = int8(seat)
		p.PassengersLeft--
		g.emit(Event{Kind: EvPassengerPlaced, Seat: seat, City: a.City})
	}
	g.setLastMove(seat, []data.TrackID{a.Track}, cities)
	g.endTurn()
}

func (g *Game) setLastMove(seat int, tracks []data.TrackID, cities []data.CityID) {
	if g.narrate {
		g.lastMove = lastMove{seat: seat, tracks: tracks, cities: cities}
	}
}
