package ai

import (
	"slices"

	"conductor/data"
)

// plan is a network to build: the open tracks to claim (and, in Europe, the
// opponents' tracks to borrow with stations) so that every pursued ticket is
// joined. Tickets share track wherever that is cheaper: it is a Steiner
// forest, found by routing the tickets one after another over the tracks
// already planned for free, then ripping up and rerouting each in turn.
type plan struct {
	goals   []goal           // pursued tickets
	paths   [][]data.TrackID // per goal, every track of its path
	dropped []goal           // incomplete tickets given up: unreachable, or no trains for them
	claims  []data.TrackID   // open tracks to claim, each once
	borrow  []data.TrackID   // opponents' tracks to borrow with a station
	uses    []int8           // by track: pursued goals whose path takes it
	cost    float64          // card-equivalents of the claims and stations
	trains  int              // trains the claims need
	cards   int              // cards the claims need
}

// planner finds plans for one situation.
type planner struct {
	s        *situation
	r        *router
	base     []float64 // cost of each track (costModel.baseCosts)
	eff      []float64 // scratch: base with planned tracks free
	orders   int       // ticket orders tried (1 to 3)
	reroutes int       // rip-up-and-reroute rounds
	buf      []data.TrackID
}

func newPlanner(s *situation, m *costModel, orders, reroutes int) *planner {
	return &planner{s: s, r: newRouter(s.b), base: m.baseCosts(s), eff: make([]float64, len(s.b.Tracks)),
		orders: max(orders, 1), reroutes: reroutes}
}

// solve plans a network joining as many of goals as the trains allow.
func (p *planner) solve(goals []goal) *plan {
	var open, dropped []goal
	alone := map[data.TicketID]float64{}
	for _, g := range goals {
		if g.done || p.s.net.Connected(g.a, g.b) {
			continue
		}
		c, _ := p.r.between(g.a, g.b, p.base, p.buf)
		if c == blocked {
			dropped = append(dropped, g)
			continue
		}
		alone[g.ticket] = c
		open = append(open, g)
	}
	for {
		best := p.bestOrder(open, alone)
		best.dropped = append(best.dropped, dropped...)
		if best.trains <= p.s.trains && len(best.borrow) <= p.s.stations+p.ownStationsLending(best) {
			return best
		}
		if len(best.borrow) > p.s.stations+p.ownStationsLending(best) {
			// Too many stations: plan without new ones.
			p.noNewStations()
			continue
		}
		// Too few trains: give up the ticket worth least per train of its own.
		worst, worstRate := -1, 0.0
		for i, g := range best.goals {
			own := 1
			for _, t := range best.paths[i] {
				if best.uses[t] == 1 && !p.s.own[t] && !p.s.oppHeld[t] {
					own += p.s.b.Tracks[t].Length
				}
			}
			if rate := float64(g.points) / float64(own); worst < 0 || rate < worstRate {
				worst, worstRate = i, rate
			}
		}
		dropped = append(dropped, best.goals[worst])
		open = slices.DeleteFunc(slices.Clone(open), func(g goal) bool { return g.ticket == best.goals[worst].ticket })
	}
}

// ownStationsLending counts the planned borrowed tracks an existing station
// of this seat already lends (they need no new station).
func (p *planner) ownStationsLending(pl *plan) int {
	n := 0
	for _, t := range pl.borrow {
		if p.s.ownStationAt(t) {
			n++
		}
	}
	return n
}

// noNewStations stops planning with stations not yet built.
func (p *planner) noNewStations() {
	for t := range p.base {
		if p.s.oppHeld[t] && !p.s.ownStationAt(data.TrackID(t)) {
			p.base[t] = blocked
		}
	}
}

// bestOrder routes the goals in a few orders and keeps the cheapest plan.
func (p *planner) bestOrder(open []goal, alone map[data.TicketID]float64) *plan {
	orders := [][]goal{slices.Clone(open)}
	byPoints := orders[0]
	slices.SortStableFunc(byPoints, func(x, y goal) int { return y.points - x.points })
	if p.orders > 1 {
		far := slices.Clone(open)
		slices.SortStableFunc(far, func(x, y goal) int { return cmpFloat(alone[y.ticket], alone[x.ticket]) })
		orders = append(orders, far)
	}
	if p.orders > 2 {
		near := slices.Clone(open)
		slices.SortStableFunc(near, func(x, y goal) int { return cmpFloat(alone[x.ticket], alone[y.ticket]) })
		orders = append(orders, near)
	}
	var best *plan
	for _, o := range orders {
		pl := p.route(o)
		if best == nil || len(pl.dropped) < len(best.dropped) || len(pl.dropped) == len(best.dropped) && pl.cost < best.cost-1e-9 {
			best = pl
		}
	}
	return best
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// route plans goals in the given order, then reroutes each with the others fixed.
func (p *planner) route(order []goal) *plan {
	pl := &plan{uses: make([]int8, len(p.s.b.Tracks))}
	paths := make([][]data.TrackID, len(order))
	ok := make([]bool, len(order))
	for i, g := range order {
		paths[i], ok[i] = p.routeOne(g, pl.uses)
		p.take(pl.uses, paths[i], 1)
	}
	for range p.reroutes {
		for i, g := range order {
			if !ok[i] {
				continue
			}
			p.take(pl.uses, paths[i], -1)
			paths[i], ok[i] = p.routeOne(g, pl.uses)
			p.take(pl.uses, paths[i], 1)
		}
	}
	for i, g := range order {
		if !ok[i] {
			pl.dropped = append(pl.dropped, g)
			continue
		}
		pl.goals = append(pl.goals, g)
		pl.paths = append(pl.paths, paths[i])
	}
	p.total(pl)
	return pl
}

// routeOne finds g's cheapest path with the tracks in use free.
func (p *planner) routeOne(g goal, uses []int8) ([]data.TrackID, bool) {
	for t, c := range p.base {
		if uses[t] > 0 {
			c = 0
		}
		p.eff[t] = c
	}
	c, path := p.r.between(g.a, g.b, p.eff, nil)
	return path, c != blocked
}

func (p *planner) take(uses []int8, path []data.TrackID, d int8) {
	for _, t := range path {
		uses[t] += d
	}
}

// total fills the plan's claims, borrowings, cost, trains and cards.
func (p *planner) total(pl *plan) {
	for t, u := range pl.uses {
		if u <= 0 {
			continue
		}
		id := data.TrackID(t)
		switch {
		case p.s.own[id]:
		case p.s.oppHeld[id]:
			pl.borrow = append(pl.borrow, id)
			pl.cost += p.base[t]
		default:
			pl.claims = append(pl.claims, id)
			pl.cost += p.base[t]
			pl.trains += p.s.b.Tracks[t].Length
			pl.cards += p.s.b.Tracks[t].Length
		}
	}
}

// detour returns, for each claim of pl, how much dearer the plan becomes if
// that track is lost to an opponent (with 2 or 3 players its parallel
// tracks go with it): the cost of rerouting the tickets through it, or the
// value of those tickets when no other way remains. It measures how
// critical, how blockable, each track is.
func (p *planner) detour(pl *plan) []float64 {
	out := make([]float64, len(pl.claims))
	saved := make([]float64, 0, 4)
	for k, t := range pl.claims {
		group := []data.TrackID{t}
		if p.s.n <= 3 {
			group = p.s.b.Parallel(t)
		}
		saved = saved[:0]
		for _, o := range group {
			saved = append(saved, p.base[o])
			p.base[o] = blocked
		}
		for i, g := range pl.goals {
			if !slices.Contains(pl.paths[i], t) {
				continue
			}
			p.take(pl.uses, pl.paths[i], -1)
			before := 0.0
			for _, u := range pl.paths[i] {
				if pl.uses[u] == 0 {
					before += saved0(p.base, saved, group, u)
				}
			}
			path, ok := p.routeOne(g, pl.uses)
			if ok {
				after := 0.0
				for _, u := range path {
					if pl.uses[u] == 0 {
						after += p.base[u]
					}
				}
				out[k] += max(after-before, 0)
			} else {
				out[k] += 2*float64(g.points)/pointsPerCard + 4
			}
			p.take(pl.uses, pl.paths[i], 1)
		}
		for i, o := range group {
			p.base[o] = saved[i]
		}
	}
	return out
}

// saved0 is base[u], or its saved value when u is one of the blocked group.
func saved0(base, saved []float64, group []data.TrackID, u data.TrackID) float64 {
	for i, o := range group {
		if o == u {
			return saved[i]
		}
	}
	return base[u]
}
