package engine

import "conductor/data"

// passengerTrip is a checked passenger move: the Passenger cards it costs
// and the goods it collects.
type passengerTrip struct {
	cost  int
	goods []int
	taken []data.CityID // cities whose top token is taken, in order
}

// checkPassenger validates moving seat's passenger from a.City along a.Path:
// over claimed routes only, never a route twice, never into a country, one
// Passenger card for each opponent's route.
func (g *Game) checkPassenger(seat int, a Action) (passengerTrip, error) {
	var trip passengerTrip
	b := g.board
	if !b.Rules.HasPassengers() {
		return trip, g.refuse(ErrBadAction, "passenger.none_edition")
	}
	if a.City < 0 || int(a.City) >= len(b.Cities) || int(g.passenger[a.City]) != seat {
		if cities := g.passengerCities(seat); len(cities) > 0 {
			return trip, g.refuse(ErrBadAction, "passenger.not_there", "cities", cities)
		}
		return trip, g.refuse(ErrBadAction, "passenger.none_placed")
	}
	if len(a.Path) == 0 {
		return trip, g.refuse(ErrBadAction, "passenger.no_path")
	}
	at := a.City
	var used [4]uint64 // bitset of tracks used; boards have < 256 tracks
	taken := make([]int8, len(b.Cities))
	for i, t := range a.Path {
		if t < 0 || int(t) >= len(b.Tracks) || int(t) >= 256 {
			return trip, g.refuse(ErrBadAction, "passenger.bad_step", "step", i+1)
		}
		tr := &b.Tracks[t]
		if tr.A != at && tr.B != at {
			return trip, g.refuse(ErrBadAction, "passenger.step_off", "step", i+1, "route", t, "city", at)
		}
		if g.owner[t] < 0 {
			return trip, g.refuse(ErrNotAllowed, "passenger.unclaimed", "route", t)
		}
		if used[t/64]&(1<<(t%64)) != 0 {
			return trip, g.refuse(ErrNotAllowed, "passenger.twice", "route", t)
		}
		used[t/64] |= 1 << (t % 64)
		next := tr.Other(at)
		if b.Cities[next].Country {
			return trip, g.refuse(ErrNotAllowed, "passenger.country", "city", next)
		}
		if int(g.owner[t]) != seat {
			trip.cost++
		}
		at = next
		if at == a.City {
			continue // no token at the starting city
		}
		k := int(g.goods[at]) + int(taken[at])
		if stack := b.Cities[at].GoodsStack; k < len(stack) {
			trip.goods = append(trip.goods, stack[k])
			trip.taken = append(trip.taken, at)
			taken[at]++
		}
	}
	if have := g.players[seat].Hand[Passenger]; trip.cost > have {
		return trip, g.refuse(ErrCannotAfford, "passenger.cannot_afford", "cost", trip.cost, "have", have)
	}
	return trip, nil
}

// passengerCities lists the cities where seat's passengers stand.
func (g *Game) passengerCities(seat int) []data.CityID {
	var out []data.CityID
	for c, o := range g.passenger {
		if int(o) == seat {
			out = append(out, data.CityID(c))
		}
	}
	return out
}

func (g *Game) performPassenger(seat int, a Action) {
	trip, _ := g.checkPassenger(seat, a)
	p := &g.players[seat]
	g.pay(p, Passenger, trip.cost)
	pts := 0
	for i, c := range trip.taken {
		g.goods[c]++
		p.Goods = append(p.Goods, trip.goods[i])
		pts += trip.goods[i]
	}
	p.Score += pts
	g.passenger[a.City] = -1
	p.PassengersUsed++
	g.emit(Event{Kind: EvPassengerMoved, Seat: seat, City: a.City, Tracks: append([]data.TrackID(nil), a.Path...), Goods: trip.goods, Points: pts})
	g.setLastMove(seat, append([]data.TrackID(nil), a.Path...), trip.taken)
	g.endTurn()
}

// PassengerTripValue returns the goods points and Passenger cards of a trip,
// or an error saying why it is not allowed.
func (g *Game) PassengerTripValue(seat int, from data.CityID, path []data.TrackID) (points, cost int, err error) {
	trip, err := g.checkPassenger(seat, Action{Kind: ActMovePassenger, City: from, Path: path})
	if err != nil {
		return 0, 0, err
	}
	for _, v := range trip.goods {
		points += v
	}
	return points, trip.cost, nil
}
