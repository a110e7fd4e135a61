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
//
// Plans come from the decision's scratch space (work.newPlan) and do not
// change once made, so what is worked out about one (its outlook, its
// detours) is kept with it for the rest of the decision.
type plan struct {
	goals   []goal           // pursued tickets
	paths   [][]data.TrackID // per goal, every track of its path (read only: shared with the path memo)
	dropped []goal           // incomplete tickets given up: unreachable, or no trains for them
	claims  []data.TrackID   // open tracks to claim, each once
	borrow  []data.TrackID   // opponents' tracks to borrow with a station
	uses    []int8           // by track: pursued goals whose path takes it
	inUse   []uint64         // bitset by track: uses > 0
	cost    float64          // card-equivalents of the claims and stations
	trains  int              // trains the claims need
	cards   int              // cards the claims need

	assessed bool    // outlook is set
	outlook  outlook // assess's verdict
	detoured bool    // detours is set
	detours  []float64
}

func (pl *plan) reset(tracks int) {
	pl.goals, pl.paths, pl.dropped = pl.goals[:0], pl.paths[:0], pl.dropped[:0]
	pl.claims, pl.borrow = pl.claims[:0], pl.borrow[:0]
	pl.uses = grow(pl.uses, tracks)
	clear(pl.uses)
	pl.inUse = grow(pl.inUse, (tracks+63)/64)
	clear(pl.inUse)
	pl.cost, pl.trains, pl.cards = 0, 0, 0
	pl.assessed, pl.detoured = false, false
	pl.detours = pl.detours[:0]
}

// planner finds plans for one situation. Planners come from the decision's
// scratch space (work.planner), each with its own copy of the base costs.
type planner struct {
	s        *situation
	w        *work
	r        *router
	base     []float64 // cost of each track (costModel.fillBaseCosts)
	orders   int       // ticket orders tried (1 to 3)
	reroutes int       // rip-up-and-reroute rounds
	// ctx names the costs in base for the path memo: planners whose base
	// is the decision's share one, a planner that changes its base takes
	// a new one (work.newCtx).
	ctx uint32

	open    []goal
	alone   []aloneCost
	drop    []goal
	ords    [3][]goal
	paths   [][]data.TrackID
	ok      []bool
	pathBuf []data.TrackID
}

// aloneCost is a goal's cheapest path cost on the base costs, alone.
type aloneCost struct {
	ticket data.TicketID
	cost   float64
}

// changedBase gives the planner a new memo context: its base costs are no
// longer the decision's.
func (p *planner) changedBase() { p.ctx = p.w.newCtx() }

// solve plans a network joining as many of goals as the trains allow.
func (p *planner) solve(goals []goal) *plan {
	p.open, p.drop, p.alone = p.open[:0], p.drop[:0], p.alone[:0]
	for _, g := range goals {
		if g.done || p.s.net.Connected(g.a, g.b) {
			continue
		}
		_, c, _ := p.route1(g, nil)
		if c == blocked {
			p.drop = append(p.drop, g)
			continue
		}
		p.alone = append(p.alone, aloneCost{g.ticket, c})
		p.open = append(p.open, g)
	}
	for {
		best := p.bestOrder(p.open)
		best.dropped = append(best.dropped, p.drop...)
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
		gone := best.goals[worst].ticket
		p.drop = append(p.drop, best.goals[worst])
		p.open = slices.DeleteFunc(p.open, func(g goal) bool { return g.ticket == gone })
	}
}

// aloneOf is the cost of ticket t's path alone (solve computed it).
func (p *planner) aloneOf(t data.TicketID) float64 {
	for _, a := range p.alone {
		if a.ticket == t {
			return a.cost
		}
	}
	return 0
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
	p.changedBase()
}

// bestOrder routes the goals in a few orders and keeps the cheapest plan.
// An order that repeats an earlier one is not routed again: it would give
// the same plan, which never replaces the first.
func (p *planner) bestOrder(open []goal) *plan {
	n := 1
	p.ords[0] = append(p.ords[0][:0], open...)
	slices.SortStableFunc(p.ords[0], func(x, y goal) int { return y.points - x.points })
	if p.orders > 1 {
		p.ords[1] = append(p.ords[1][:0], open...)
		slices.SortStableFunc(p.ords[1], func(x, y goal) int { return cmpFloat(p.aloneOf(y.ticket), p.aloneOf(x.ticket)) })
		n++
	}
	if p.orders > 2 {
		p.ords[2] = append(p.ords[2][:0], open...)
		slices.SortStableFunc(p.ords[2], func(x, y goal) int { return cmpFloat(p.aloneOf(x.ticket), p.aloneOf(y.ticket)) })
		n++
	}
	var best *plan
	for i, o := range p.ords[:n] {
		repeat := false
		for _, earlier := range p.ords[:i] {
			if sameOrder(o, earlier) {
				repeat = true
				break
			}
		}
		if repeat {
			continue
		}
		pl := p.route(o)
		if best == nil || len(pl.dropped) < len(best.dropped) || len(pl.dropped) == len(best.dropped) && pl.cost < best.cost-1e-9 {
			best = pl
		}
	}
	return best
}

// sameOrder reports whether two orders list the same tickets in the same order.
func sameOrder(x, y []goal) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].ticket != y[i].ticket {
			return false
		}
	}
	return true
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
	pl := p.w.newPlan()
	p.paths = grow(p.paths, len(order))
	p.ok = grow(p.ok, len(order))
	paths, ok := p.paths, p.ok
	for i, g := range order {
		paths[i], ok[i] = p.routeOne(g, pl)
		p.take(pl, paths[i], 1)
	}
	for range p.reroutes {
		for i, g := range order {
			if !ok[i] {
				continue
			}
			p.take(pl, paths[i], -1)
			paths[i], ok[i] = p.routeOne(g, pl)
			p.take(pl, paths[i], 1)
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

// routeOne finds g's cheapest path with the tracks pl uses free.
func (p *planner) routeOne(g goal, pl *plan) ([]data.TrackID, bool) {
	path, c, _ := p.route1(g, pl)
	return path, c != blocked
}

// route1 finds g's cheapest path and its cost with the tracks pl uses (nil:
// none) free, through the decision's path memo: the same costs and free
// tracks give the same path, so it is searched once.
func (p *planner) route1(g goal, pl *plan) ([]data.TrackID, float64, bool) {
	m := &p.w.memo
	var inUse []uint64
	if pl != nil {
		inUse = pl.inUse
	}
	key := m.key(p.ctx, g.a, g.b, inUse)
	if path, c, ok := m.get(key); ok {
		return path, c, true
	}
	path, c := p.search(g, inUse)
	return m.put(key, path, c), c, false
}

// search finds g's cheapest path with the tracks in inUse (nil: none)
// free, without the memo.
func (p *planner) search(g goal, inUse []uint64) ([]data.TrackID, float64) {
	c, path := p.r.betweenFree(g.a, g.b, p.base, inUse, p.pathBuf)
	p.pathBuf = path
	return path, c
}

// take adds d (±1) to the uses of path's tracks.
func (p *planner) take(pl *plan, path []data.TrackID, d int8) {
	for _, t := range path {
		pl.uses[t] += d
		if pl.uses[t] > 0 {
			pl.inUse[t>>6] |= 1 << (uint(t) & 63)
		} else {
			pl.inUse[t>>6] &^= 1 << (uint(t) & 63)
		}
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
// critical, how blockable, each track is. The answer is kept with the plan.
func (p *planner) detour(pl *plan) []float64 {
	if pl.detoured {
		return pl.detours
	}
	out := grow(pl.detours, len(pl.claims))
	clear(out)
	saved := p.w.saved[:0]
	for k, t := range pl.claims {
		group := append(p.w.group[:0], t)
		if p.s.n <= 3 {
			group = append(group[:0], p.s.b.Parallel(t)...)
		}
		p.w.group = group
		saved = saved[:0]
		for _, o := range group {
			saved = append(saved, p.base[o])
			p.base[o] = blocked
		}
		for i, g := range pl.goals {
			if !slices.Contains(pl.paths[i], t) {
				continue
			}
			p.take(pl, pl.paths[i], -1)
			before := 0.0
			for _, u := range pl.paths[i] {
				if pl.uses[u] == 0 {
					before += saved0(p.base, saved, group, u)
				}
			}
			// The base is changed here: no memo.
			path, c := p.search(g, pl.inUse)
			if c != blocked {
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
			p.take(pl, pl.paths[i], 1)
		}
		for i, o := range group {
			p.base[o] = saved[i]
		}
	}
	p.w.saved = saved
	pl.detours, pl.detoured = out, true
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
