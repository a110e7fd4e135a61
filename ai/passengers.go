package ai

import (
	"conductor/data"
	"conductor/engine"
)

// Märklin passengers. A passenger stands on a city until its owner moves it
// along claimed routes, collecting the top goods token of every city it
// enters. Trips are worth most late, over a long network of one's own; the
// legal actions already offer each passenger's best trip per number of
// Passenger cards spent.

// tripPoints counts the goods a legal passenger move collects, from the
// tokens the view shows.
func tripPoints(s *situation, a engine.Action) int {
	s.w.taken = grow(s.w.taken, len(s.b.Cities))
	return tripGoods(s.b, s.v.Goods, s.w.taken, a)
}

// tripGoods counts the goods a passenger move collects from the goods
// stacks, with taken (by city, all zero) counting the tokens taken on the
// way; it leaves taken at zero.
func tripGoods(b *data.Board, goods [][]int, taken []int8, a engine.Action) int {
	at, pts := a.City, 0
	for _, t := range a.Path {
		at = b.Tracks[t].Other(at)
		if at == a.City {
			continue
		}
		if stack := goods[at]; int(taken[at]) < len(stack) {
			pts += stack[taken[at]]
			taken[at]++
		}
	}
	at = a.City
	for _, t := range a.Path {
		at = b.Tracks[t].Other(at)
		taken[at] = 0
	}
	return pts
}

// bestTrip returns the legal passenger move collecting the most goods.
func bestTrip(s *situation, legal []engine.Action) (engine.Action, int, bool) {
	s.w.taken = grow(s.w.taken, len(s.b.Cities))
	return richestIn(s.b, s.v.Goods, s.w.taken, legal)
}

// richestTrip is bestTrip for a view alone (the expert's candidates).
func richestTrip(v *engine.PlayerView, legal []engine.Action) (engine.Action, bool) {
	if v.Board.Rules.Passengers == 0 {
		return engine.Action{}, false
	}
	a, _, ok := richestIn(v.Board, v.Goods, make([]int8, len(v.Board.Cities)), legal)
	return a, ok
}

// richestIn returns the legal passenger move collecting the most goods
// (tripGoods, with taken all zero), and whether one collects any.
func richestIn(b *data.Board, goods [][]int, taken []int8, legal []engine.Action) (engine.Action, int, bool) {
	var best engine.Action
	bestV := 0
	for _, a := range legal {
		if a.Kind != engine.ActMovePassenger {
			continue
		}
		if v := tripGoods(b, goods, taken, a); v > bestV {
			best, bestV = a, v
		}
	}
	return best, bestV, bestV > 0
}

// passengersOnBoard counts this seat's passengers standing on cities.
func passengersOnBoard(s *situation) int {
	n := 0
	for _, o := range s.v.Passengers {
		if int(o) == s.seat {
			n++
		}
	}
	return n
}

// richTrip is the goods a trip must collect to be made before the end
// (hard's options.richTrip). A rich trip made early takes
// its tokens before another passenger does. Hard with 20 against hard with
// 30, 2,000 games a line on Märklin, seed 301 (TestTuningMatch, "rich"):
// +4.2, +1.7, +2.0 and +1.6 points of win share (± 0.9–1.0, paired) at 2,
// 3, 4 and 5 seats; 16 and 25 did about as well, 12 worse at 2 and 5
// seats, 45 worse at 4. On seed 90000: +2.1, +3.1, +2.6, +3.0. Only
// against normal, whose passengers stand until its last turn, did waiting
// for 30 pay (3 points at 4 seats; docs/bots-measurements.md).
const richTrip = 20.0

// passengerMove moves a passenger when the turns left are only just enough
// to move every passenger still standing, or when a trip is rich enough to
// beat what a turn usually brings several times over.
func (p *plannerBot) passengerMove(s *situation, legal []engine.Action) (engine.Action, bool) {
	a, v, ok := bestTrip(s, legal)
	if !ok {
		return engine.Action{}, false
	}
	if !p.o.passengers {
		return engine.Action{}, false
	}
	standing := passengersOnBoard(s)
	if s.turnsLeft <= float64(standing)+1.5 || float64(v) >= p.o.richTrip {
		return a, true
	}
	return engine.Action{}, false
}

// passengerCity says where to place a passenger with a claim of t: an end
// of the track far out on the planned network (a trip runs along it), when
// a passenger is left.
func (p *plannerBot) passengerCity(s *situation, pl *plan, t data.TrackID, opts []engine.Action) (data.CityID, bool) {
	if s.rules.Passengers == 0 || s.v.Players[s.seat].PassengersLeft == 0 {
		return engine.NoCity, false
	}
	tr := &s.b.Tracks[t]
	offered := func(c data.CityID) bool {
		for _, a := range opts {
			if a.Passenger && a.City == c {
				return true
			}
		}
		return false
	}
	if !p.o.passengers {
		for _, c := range [2]data.CityID{tr.A, tr.B} {
			if offered(c) {
				return c, true
			}
		}
		return engine.NoCity, false
	}
	degree := func(c data.CityID) int {
		d := 0
		for _, u := range s.b.Adj[c] {
			if s.own[u] || pl.uses[u] > 0 || u == t {
				d++
			}
		}
		return d
	}
	best, bestScore := engine.NoCity, 1<<30
	for _, c := range [2]data.CityID{tr.A, tr.B} {
		if !offered(c) {
			continue
		}
		// A city at the end of a line starts the longest trip; its own
		// token is not collected by the passenger standing there.
		score := degree(c)*10 + firstToken(s, c)
		if score < bestScore {
			best, bestScore = c, score
		}
	}
	return best, best != engine.NoCity
}

// firstToken is the value of a city's top goods token (0 when none).
func firstToken(s *situation, c data.CityID) int {
	if stack := s.v.Goods[c]; len(stack) > 0 {
		return stack[0]
	}
	return 0
}

// passengerCardValue prices a Passenger card for the draw: it lets a trip
// cross opponents' routes, worth having a few of when passengers are out.
func passengerCardValue(s *situation) float64 {
	if s.rules.Passengers == 0 {
		return 0
	}
	out := passengersOnBoard(s) + s.v.Players[s.seat].PassengersLeft
	if out > 0 && s.hand[engine.Passenger] < 3 {
		return 0.3
	}
	return 0.05
}
