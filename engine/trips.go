package engine

import "conductor/data"

// Trip is a passenger's journey: the routes taken, the goods points it
// collects and the Passenger cards it costs.
type Trip struct {
	Path   []data.TrackID
	Points int
	Cost   int
}

// tripSearchLimit bounds the search of BestTrips: the claimed network of a
// late game can hold very many trails, and a move must stay cheap.
const tripSearchLimit = 20000

// BestTrips returns, for a passenger of seat standing on from, the best trip
// found for each number of Passenger cards the seat can spend: a list of
// trips of rising cost and strictly rising points. The search is exhaustive
// on small networks and bounded on large ones.
func (g *Game) BestTrips(seat int, from data.CityID) []Trip {
	var s TripSearch
	return s.Best(g, seat, from)
}

// TripSearch is BestTrips' search with buffers of its own: one value reused
// for many searches allocates nothing once its buffers have grown. Playouts
// that list the passengers' trips at every turn keep one.
type TripSearch struct {
	g      *Game
	seat   int
	from   data.CityID
	cards  int
	best   []Trip
	path   []data.TrackID
	used   [4]uint64
	taken  []int8 // tokens taken per city along the current path
	budget int
	out    []Trip
	paths  []data.TrackID // the listed trips' paths, end to end (appendTrips)
}

// Best is BestTrips using s's buffers: the trips returned, and their paths,
// are valid until s's next search. They are at most one per number of
// Passenger cards the seat could spend (0 to all it holds).
func (s *TripSearch) Best(g *Game, seat int, from data.CityID) []Trip {
	cards := g.players[seat].Hand[Passenger]
	s.best = grow(s.best, cards+1)
	for i := range s.best {
		s.best[i] = Trip{Path: s.best[i].Path[:0], Points: -1}
	}
	s.g, s.seat, s.from, s.cards, s.budget = g, seat, from, cards, tripSearchLimit
	s.path, s.used = s.path[:0], [4]uint64{}
	s.taken = grow(s.taken, len(g.board.Cities))
	clear(s.taken)
	s.walk(from, 0, 0)
	s.g = nil
	s.out = s.out[:0]
	top := 0
	for _, t := range s.best {
		if t.Points > top && len(t.Path) > 0 {
			s.out = append(s.out, t)
			top = t.Points
		}
	}
	return s.out
}

func (s *TripSearch) walk(at data.CityID, points, cost int) {
	if s.budget <= 0 {
		return
	}
	s.budget--
	if len(s.path) > 0 {
		b := &s.best[cost]
		if points > b.Points || (points == b.Points && len(s.path) < len(b.Path)) {
			b.Points = points
			b.Cost = cost
			b.Path = append(b.Path[:0], s.path...)
		}
	}
	g := s.g
	for _, t := range g.board.Adj[at] {
		o := g.owner[t]
		if o < 0 || s.used[t/64]&(1<<(t%64)) != 0 {
			continue
		}
		next := g.board.Tracks[t].Other(at)
		if g.board.Cities[next].Country {
			continue
		}
		c := cost
		if int(o) != s.seat {
			c++
		}
		if c > s.cards {
			continue
		}
		gain := 0
		if next != s.from {
			k := int(g.goods[next]) + int(s.taken[next])
			if stack := g.board.Cities[next].GoodsStack; k < len(stack) {
				gain = stack[k]
				s.taken[next]++
			}
		}
		s.used[t/64] |= 1 << (t % 64)
		s.path = append(s.path, t)
		s.walk(next, points+gain, c)
		s.path = s.path[:len(s.path)-1]
		s.used[t/64] &^= 1 << (t % 64)
		if gain > 0 {
			s.taken[next]--
		}
	}
}
