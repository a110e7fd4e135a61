package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// planKeeper lets a planning bot that plays whole games out (the expert's
// playouts) keep each seat's plan from one decision to the next instead of
// planning afresh every time: the plan is made again only when something
// it was made from changes. A plan depends on the seat's tickets, trains
// and stations, on the owners of the tracks its searches looked at (the
// router records them), the stations built and, on Märklin, the goods
// left; it also leans on the hand (cards held make their tracks cheaper)
// and on a simulation of the draws, which the keeper lets grow stale for
// up to maxAge decisions. The level itself never keeps a plan: hard at a
// table plans every decision.
type planKeeper struct {
	maxAge int // decisions a plan serves at most (0: until something changes)
	seats  []keptPlan
	reads  []uint64 // the router's record for the current decision
	// made and kept count the plans made and the decisions a kept plan
	// served (advanced over own claims: advanced).
	made, kept, advanced int
}

// keptPlan is one seat's plan and what it was made from.
type keptPlan struct {
	ok       bool
	pl       plan
	paths    []data.TrackID // storage of pl.paths
	reads    []uint64       // tracks whose owner the plan depends on (bitset)
	owners   []int8
	stations []int8
	goods    []int // per city: goods tokens left
	tickets  []engine.TicketStatus
	trains   int
	left     int // stations left
	last     bool
	age      int
}

func newPlanKeeper(maxAge int) *planKeeper { return &planKeeper{maxAge: maxAge} }

// forget drops every kept plan (a new game begins); a nil keeper keeps
// none.
func (k *planKeeper) forget() {
	if k == nil {
		return
	}
	for i := range k.seats {
		k.seats[i].ok = false
	}
}

// begin starts recording which tracks the decision's searches look at.
func (k *planKeeper) begin(w *work) {
	k.reads = grow(k.reads, (len(w.b.Tracks)+63)/64)
	clear(k.reads)
	w.r.read = k.reads
}

// plan returns s's seat's kept plan when it still holds, or makes one with
// make and keeps it.
func (k *planKeeper) plan(s *situation, make func() *plan) *plan {
	for len(k.seats) <= s.seat {
		k.seats = append(k.seats, keptPlan{})
	}
	kp := &k.seats[s.seat]
	if kp.holds(s, k.maxAge) || kp.advance(s, k.maxAge) && k.count(&k.advanced) {
		k.kept++
		kp.age++
		kp.pl.assessed = false // the outlook depends on the hand
		return &kp.pl
	}
	k.made++
	pl := make()
	kp.keep(s, pl)
	return &kp.pl
}

func (k *planKeeper) count(n *int) bool {
	*n++
	return true
}

// end adds what the decision's searches looked at to the kept plan of its
// seat (a detour worked out for a kept plan, for one).
func (k *planKeeper) end(s *situation) {
	if s.seat < len(k.seats) && k.seats[s.seat].ok {
		for i, w := range k.reads {
			k.seats[s.seat].reads[i] |= w
		}
	}
	s.w.r.read = nil
}

// holds reports whether the kept plan may serve s.
func (kp *keptPlan) holds(s *situation, maxAge int) bool {
	v := s.v
	if !kp.ok || (maxAge > 0 && kp.age >= maxAge) || s.trains != kp.trains || s.stations != kp.left ||
		v.LastRound != kp.last || !slices.Equal(v.Tickets, kp.tickets) || !slices.Equal(v.Stations, kp.stations) ||
		len(v.Owners) != len(kp.owners) {
		return false
	}
	for t, o := range v.Owners {
		if o != kp.owners[t] && kp.reads[t>>6]&(1<<(uint(t)&63)) != 0 {
			return false
		}
	}
	if s.rules.Passengers > 0 {
		for c, g := range v.Goods {
			if len(g) != kp.goods[c] {
				return false
			}
		}
	}
	return true
}

// advance carries the kept plan over the seat's own claims of planned
// tracks, the usual change between two of its decisions: the tracks
// claimed leave the claims (now held, their paths still join the same
// tickets), and a ticket they completed leaves the goals. It reports
// false, changing nothing, when anything else changed.
func (kp *keptPlan) advance(s *situation, maxAge int) bool {
	v := s.v
	if !kp.ok || (maxAge > 0 && kp.age >= maxAge) || s.stations != kp.left || v.LastRound != kp.last ||
		!slices.Equal(v.Stations, kp.stations) || len(v.Tickets) != len(kp.tickets) || len(v.Owners) != len(kp.owners) {
		return false
	}
	for i, ts := range v.Tickets {
		if ts.Ticket != kp.tickets[i].Ticket {
			return false
		}
	}
	if s.rules.Passengers > 0 {
		for c, g := range v.Goods {
			if len(g) != kp.goods[c] {
				return false
			}
		}
	}
	pl := &kp.pl
	laid := 0
	for t, o := range v.Owners {
		if o == kp.owners[t] {
			continue
		}
		id := data.TrackID(t)
		if int(o) == s.seat && slices.Contains(pl.claims, id) {
			laid += s.b.Tracks[t].Length
			continue
		}
		if kp.reads[t>>6]&(1<<(uint(t)&63)) != 0 {
			return false
		}
	}
	if laid == 0 || kp.trains-laid != s.trains {
		return false
	}
	pl.claims = slices.DeleteFunc(pl.claims, func(t data.TrackID) bool { return s.own[t] })
	pl.trains -= laid
	pl.cards -= laid
	for i := 0; i < len(pl.goals); i++ {
		g := pl.goals[i]
		if !s.net.Connected(g.a, g.b) {
			continue
		}
		for _, t := range pl.paths[i] {
			pl.uses[t]--
			if pl.uses[t] <= 0 {
				pl.inUse[t>>6] &^= 1 << (uint(t) & 63)
			}
		}
		pl.goals = slices.Delete(pl.goals, i, i+1)
		pl.paths = slices.Delete(pl.paths, i, i+1)
		i--
	}
	pl.claims = slices.DeleteFunc(pl.claims, func(t data.TrackID) bool { return pl.uses[t] <= 0 })
	pl.borrow = slices.DeleteFunc(pl.borrow, func(t data.TrackID) bool { return pl.uses[t] <= 0 })
	pl.detoured = false
	kp.trains = s.trains
	kp.tickets = append(kp.tickets[:0], v.Tickets...)
	kp.owners = append(kp.owners[:0], v.Owners...)
	return true
}

// keep copies pl and what it was made from.
func (kp *keptPlan) keep(s *situation, pl *plan) {
	v := s.v
	kp.ok, kp.age = true, 0
	kp.trains, kp.left, kp.last = s.trains, s.stations, v.LastRound
	kp.tickets = append(kp.tickets[:0], v.Tickets...)
	kp.stations = append(kp.stations[:0], v.Stations...)
	kp.owners = append(kp.owners[:0], v.Owners...)
	kp.reads = append(kp.reads[:0], s.w.r.read...)
	kp.goods = kp.goods[:0]
	for _, g := range v.Goods {
		kp.goods = append(kp.goods, len(g))
	}
	q := &kp.pl
	q.reset(len(pl.uses))
	q.goals = append(q.goals, pl.goals...)
	q.dropped = append(q.dropped, pl.dropped...)
	q.claims = append(q.claims, pl.claims...)
	q.borrow = append(q.borrow, pl.borrow...)
	copy(q.uses, pl.uses)
	copy(q.inUse, pl.inUse)
	q.cost, q.trains, q.cards = pl.cost, pl.trains, pl.cards
	kp.paths = kp.paths[:0]
	for _, p := range pl.paths {
		kp.paths = append(kp.paths, p...)
	}
	at := 0
	for _, p := range pl.paths {
		q.paths = append(q.paths, kp.paths[at:at+len(p):at+len(p)])
		at += len(p)
	}
	if pl.detoured {
		q.detours = append(q.detours, pl.detours...)
		q.detoured = true
	}
}
