package ai

import (
	"conductor/data"
	"conductor/engine"
)

// rollout plays determinised games to their end, fast. It works on the
// engine game the expert built from its own view (never the real game),
// reading it directly instead of rebuilding a view each step, and reuses
// its buffers so that a playout allocates (almost) nothing.
//
// Its policy is cheap but informed: each seat keeps the tracks on the
// shortest paths of its unfinished tickets ("wanted"), claims them when it
// can (longest first), draws the colours they need, and claims the longest
// routes it can when it has nothing to connect or few trains left.
type rollout struct {
	board  *data.Board
	buf    []engine.Action
	rng    uint64
	random bool // uniform random legal moves instead of the policy

	want  [][]bool // per seat, per track
	dirty []bool   // per seat: replan before its next move
	need  [][data.NumColors]int
	any   []bool // per seat: something wanted is left

	dist []int
	prev []data.TrackID
	done []bool

	tracks   []data.TrackID       // random mode: the claimable tracks
	cities   []data.CityID        // random mode: where the seat's passengers stand
	trips    []*engine.TripSearch // random mode: a search per passenger
	found    [][]engine.Trip      // random mode: their trips, once searched
	searched []bool
}

func newRollout(b *data.Board, seats int, seed uint64) *rollout {
	r := &rollout{board: b, rng: seed | 1, buf: make([]engine.Action, 0, 512)}
	r.want = make([][]bool, seats)
	for i := range r.want {
		r.want[i] = make([]bool, len(b.Tracks))
	}
	r.dirty = make([]bool, seats)
	r.need = make([][data.NumColors]int, seats)
	r.any = make([]bool, seats)
	r.dist = make([]int, len(b.Cities))
	r.prev = make([]data.TrackID, len(b.Cities))
	r.done = make([]bool, len(b.Cities))
	return r
}

func (r *rollout) next() uint64 {
	// xorshift64*: fast, and the playouts need no more.
	r.rng ^= r.rng >> 12
	r.rng ^= r.rng << 25
	r.rng ^= r.rng >> 27
	return r.rng * 2685821657736338717
}

func (r *rollout) intn(n int) int { return int((r.next() >> 33) % uint64(n)) }

// maxSteps stops a playout that would not end (passes end games anyway).
const maxSteps = 3000

// play plays g to its end and returns the steps it took.
func (r *rollout) play(g *engine.Game) (steps int) {
	for i := range r.dirty {
		r.dirty[i] = true
	}
	for ; g.Phase() != engine.PhaseOver && steps < maxSteps; steps++ {
		s := g.Current()
		var a engine.Action
		fast := false
		if r.random && g.Phase() == engine.PhaseTurn {
			if m, ok := r.randomTurn(g, s); ok {
				if g.Play(s, m) == nil {
					continue
				}
			}
		}
		if !r.random && (g.Phase() == engine.PhaseTurn || g.Phase() == engine.PhaseSecondDraw) {
			// The policy looks only at the claims and draws it cares for;
			// the full list of legal actions is the fallback.
			r.buf = r.policyMoves(g, s, r.buf[:0])
			fast = len(r.buf) > 0
		}
		if !fast {
			r.buf = g.LegalActions(s, r.buf[:0])
			if len(r.buf) == 0 {
				return steps
			}
		}
		if r.random {
			a = r.buf[r.intn(len(r.buf))]
		} else {
			a = r.choose(g, s)
		}
		if err := g.Play(s, a); err != nil {
			if !fast {
				return steps
			}
			r.buf = g.LegalActions(s, r.buf[:0])
			if len(r.buf) == 0 {
				return steps
			}
			a = r.choose(g, s)
			if g.Play(s, a) != nil {
				return steps
			}
		}
		if a.Kind == engine.ActClaim {
			for o := range r.want {
				if o != s && r.want[o][a.Track] {
					r.dirty[o] = true
				}
			}
			r.dirty[s] = true
		}
	}
	return steps
}

// choose picks the policy's move for seat s among r.buf.
func (r *rollout) choose(g *engine.Game, s int) engine.Action {
	switch g.Phase() {
	case engine.PhaseTunnel:
		for _, a := range r.buf {
			if a.Kind == engine.ActTunnelPay {
				return a
			}
		}
		return r.buf[len(r.buf)-1]
	case engine.PhaseKeepTickets:
		return r.keep(g, s)
	}
	if r.dirty[s] {
		r.plan(g, s)
	}
	p := g.Player(s)
	few := p.Trains < 8 || !r.any[s]
	best, bestScore := -1, -1<<30
	draw, drawScore := -1, -1<<30
	for i := range r.buf {
		a := &r.buf[i]
		switch a.Kind {
		case engine.ActClaim:
			t := &r.board.Tracks[a.Track]
			sc := -1 << 30
			switch {
			case r.want[s][a.Track]:
				sc = 100 + 10*t.Length
			case few:
				sc = 10 * t.Length
			case t.Length >= 5:
				sc = 5 * t.Length
			}
			if sc == -1<<30 {
				continue
			}
			sc -= 4*a.Locos + 8*a.Locos4
			if a.Passenger {
				sc++
			}
			if sc > bestScore {
				best, bestScore = i, sc
			}
		case engine.ActDraw:
			sc := 0
			if a.Slot != engine.DeckSlot {
				c := g.FaceUp()[a.Slot]
				switch {
				case c == engine.Locomotive:
					sc = 2
				case int(c) < data.NumColors && r.need[s][c] > p.Hand[c]:
					sc = 3 + r.need[s][c] - p.Hand[c]
				default:
					sc = -1
				}
			}
			sc += r.intn(2)
			if sc > drawScore {
				draw, drawScore = i, sc
			}
		}
	}
	if best >= 0 && (bestScore >= 100 || few || draw < 0 || r.intn(3) == 0) {
		return r.buf[best]
	}
	if draw >= 0 {
		return r.buf[draw]
	}
	if best >= 0 {
		return r.buf[best]
	}
	// Nothing the policy cares for: anything but more tickets.
	for _, a := range r.buf {
		if a.Kind != engine.ActDrawTickets {
			return a
		}
	}
	return r.buf[0]
}

// plan marks the tracks on the cheapest paths of s's unfinished tickets.
func (r *rollout) plan(g *engine.Game, s int) {
	r.dirty[s] = false
	want := r.want[s]
	clear(want)
	r.need[s] = [data.NumColors]int{}
	r.any[s] = false
	p := g.Player(s)
	for _, id := range p.Tickets {
		t := &r.board.Tickets[id]
		if r.path(g, s, t.A, t.B) {
			for c := t.B; c != t.A; {
				tr := r.prev[c]
				if g.Owner(tr) < 0 {
					want[tr] = true
					r.any[s] = true
					tt := &r.board.Tracks[tr]
					r.need[s][tt.Color] = max(r.need[s][tt.Color], tt.Length)
				}
				c = r.board.Tracks[tr].Other(c)
			}
		}
	}
}

// path runs Dijkstra from a to b over s's tracks (free) and unclaimed ones
// (their length and a turn); it reports whether b is reachable.
func (r *rollout) path(g *engine.Game, s int, a, b data.CityID) bool {
	const inf = 1 << 30
	for i := range r.dist {
		r.dist[i], r.done[i] = inf, false
	}
	r.dist[a] = 0
	for {
		u, du := -1, inf
		for i, d := range r.dist {
			if !r.done[i] && d < du {
				u, du = i, d
			}
		}
		if u < 0 {
			return false
		}
		if data.CityID(u) == b {
			return true
		}
		r.done[u] = true
		for _, tr := range r.board.Adj[u] {
			o := g.Owner(tr)
			var w int
			switch {
			case o == s:
				w = 0
			case o < 0:
				w = r.board.Tracks[tr].Length + 2
			default:
				continue
			}
			v := r.board.Tracks[tr].Other(data.CityID(u))
			if du+w < r.dist[v] {
				r.dist[v] = du + w
				r.prev[v] = tr
			}
		}
	}
}

// policyMoves appends the moves the policy would consider: claims of the
// wanted tracks (of every track with few trains left or nothing wanted,
// else of the long ones too) and the draws.
func (r *rollout) policyMoves(g *engine.Game, s int, buf []engine.Action) []engine.Action {
	second := g.Phase() == engine.PhaseSecondDraw
	if !second {
		if r.dirty[s] {
			r.plan(g, s)
		}
		few := g.Player(s).Trains < 8 || !r.any[s]
		for t := range r.board.Tracks {
			if r.want[s][t] || few || r.board.Tracks[t].Length >= 5 {
				buf = g.AppendClaims(s, data.TrackID(t), buf)
			}
		}
	}
	if g.DeckSize()+g.DiscardSize() > 0 {
		buf = append(buf, engine.Draw(engine.DeckSlot))
	}
	for i, c := range g.FaceUp() {
		if c == engine.NoCard || (second && c == engine.Locomotive) {
			continue
		}
		buf = append(buf, engine.Draw(i))
	}
	return buf
}

// randomTurn samples a uniformly random move of a turn without listing
// every payment: one option per face-up slot and the blind draw, one per
// claimable track (then one of its payments at random) and one for
// everything else (tickets, stations, passengers' trips: then one of those
// at random, see other). Rejection sampling over every track keeps the
// choice uniform without scanning the board: a track drawn that the seat
// cannot claim is drawn again. It reports false when there is nothing to
// choose.
func (r *rollout) randomTurn(g *engine.Game, s int) (engine.Action, bool) {
	draws := 0
	deck := g.DeckSize()+g.DiscardSize() > 0
	if deck {
		draws++
	}
	face := g.FaceUp()
	for _, c := range face {
		if c != engine.NoCard {
			draws++
		}
	}
	tracks := len(r.board.Tracks)
	n := draws + tracks + 1
	other := true
	for range 8 * n {
		k := r.intn(n)
		switch {
		case k < draws:
			if deck {
				if k == 0 {
					return engine.Draw(engine.DeckSlot), true
				}
				k--
			}
			for i, c := range face {
				if c == engine.NoCard {
					continue
				}
				if k == 0 {
					return engine.Draw(i), true
				}
				k--
			}
		case k < draws+tracks:
			t := data.TrackID(k - draws)
			if !g.CanClaim(s, t) {
				continue
			}
			r.buf = g.AppendClaims(s, t, r.buf[:0])
			return r.buf[r.intn(len(r.buf))], true
		default:
			if !other {
				continue
			}
			if a, ok := r.other(g, s); ok {
				return a, true
			}
			other = false // nothing else to do: draw or claim
			if draws == 0 && len(g.AppendClaimable(s, r.tracks[:0])) == 0 {
				return engine.Action{}, false
			}
		}
	}
	return engine.Action{}, false
}

// other samples one of the actions of seat s's turn that are neither draws
// nor claims, uniformly, as if picking among LegalActions' list of them but
// without searching every passenger's trips. The ticket draws and stations
// are listed; each passenger has one slot per number of Passenger cards s
// could spend (0 to all), since its best trips are at most one per number
// (engine.TripSearch). A slot drawn is the passenger's trip of that rank,
// its trips searched the first time one of its slots is drawn; a slot
// beyond its trips is drawn again. It reports false when there is no such
// action.
func (r *rollout) other(g *engine.Game, s int) (engine.Action, bool) {
	r.buf = g.AppendTicketsAndStations(s, r.buf[:0])
	fixed := len(r.buf)
	r.cities = r.cities[:0]
	if r.board.Rules.Passengers > 0 {
		for c := range r.board.Cities {
			if g.PassengerAt(data.CityID(c)) == s {
				r.cities = append(r.cities, data.CityID(c))
			}
		}
	}
	for len(r.trips) < len(r.cities) {
		r.trips = append(r.trips, new(engine.TripSearch))
	}
	r.found, r.searched = r.found[:0], r.searched[:0]
	for range r.cities {
		r.found, r.searched = append(r.found, nil), append(r.searched, false)
	}
	per := g.Player(s).Hand[engine.Passenger] + 1
	n := fixed + per*len(r.cities)
	left := n // the slots not known to be empty
	for left > 0 {
		k := r.intn(n)
		if k < fixed {
			return r.buf[k], true
		}
		i, j := (k-fixed)/per, (k-fixed)%per
		if !r.searched[i] {
			r.searched[i] = true
			r.found[i] = r.trips[i].Best(g, s, r.cities[i])
			left -= per - len(r.found[i])
		}
		if j < len(r.found[i]) {
			return engine.Action{Kind: engine.ActMovePassenger, City: r.cities[i], Path: r.found[i][j].Path}, true
		}
	}
	return engine.Action{}, false
}

// keep chooses which drawn tickets to keep: the cheapest to connect (over
// the seat's own and free tracks) up to the minimum, then any other whose
// missing tracks fit in a third of the trains left beyond those.
func (r *rollout) keep(g *engine.Game, s int) engine.Action {
	p := g.Player(s)
	lo, hi := g.KeepRange(s)
	var cost [8]int
	var order [8]int
	n := min(len(p.Pending), len(cost))
	for i := range n {
		t := &r.board.Tickets[p.Pending[i]]
		cost[i] = 1 << 20
		if r.path(g, s, t.A, t.B) {
			cost[i] = r.dist[t.B]
		}
		order[i] = i
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && cost[order[j]] < cost[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var m uint64
	spare := p.Trains
	for k, i := range order[:n] {
		if k >= hi {
			break
		}
		if k >= lo && cost[i] > spare/3 {
			break
		}
		m |= 1 << uint(i)
		spare -= cost[i] * 2 / 3
	}
	if m == 0 && len(r.buf) > 0 {
		return r.buf[0]
	}
	r.dirty[s] = true
	return engine.Action{Kind: engine.ActKeep, Keep: m}
}
