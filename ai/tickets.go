package ai

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"conductor/data"
	"conductor/engine"
)

// bestKeep picks the legal keep (setup or after a draw) whose tickets,
// planned together with those already held, promise the most.
func (p *plannerBot) bestKeep(s *situation, legal []engine.Action) engine.Action {
	best, bestValue := legal[0], math.Inf(-1)
	for _, a := range legal {
		if a.Kind != engine.ActKeep {
			continue
		}
		if v := p.keepValue(s, a); v > bestValue {
			best, bestValue = a, v
		}
	}
	return best
}

// keepValue is what keeping a's pending tickets promises, planned together
// with the tickets already held.
func (p *plannerBot) keepValue(s *situation, a engine.Action) float64 {
	goals := append(s.w.rest[:0], s.incomplete()...)
	sure := 0.0
	for i, id := range s.v.Pending {
		if a.Keep&(1<<uint(i)) == 0 {
			continue
		}
		g := s.goalOf(id)
		if g.done {
			sure += float64(g.points)
			continue
		}
		goals = append(goals, g)
	}
	s.w.rest = goals
	pl := p.planner(s).solve(goals)
	v := assess(s, pl).value + sure
	// Among equals keep fewer tickets: less to go wrong.
	v -= 0.01 * float64(bits.OnesCount64(a.Keep))
	if extra := bits.OnesCount64(a.Keep) - s.v.KeepMin; extra > 0 {
		v -= p.o.keepPerSeat * float64(s.n-2) * float64(extra)
	}
	return v
}

// rankKeeps orders the legal keeps of v by what hard's plans promise,
// best first (bestKeep's choice first).
func (p *plannerBot) rankKeeps(v *engine.PlayerView, legal []engine.Action) []engine.Action {
	p.w.drawSamples, p.w.ticketSamples, p.w.crowd = p.o.drawSamples, p.o.ticketSamples, p.o.crowd
	s := p.w.begin(v)
	var keeps []engine.Action
	var values []float64
	for _, a := range legal {
		if a.Kind == engine.ActKeep {
			keeps = append(keeps, a)
			values = append(values, p.keepValue(s, a))
		}
	}
	idx := make([]int, len(keeps))
	for i := range idx {
		idx[i] = i
	}
	sortBy(idx, func(i int) float64 { return -values[i] })
	out := make([]engine.Action, len(keeps))
	for i, k := range idx {
		out[i] = keeps[k]
	}
	return out
}

// unseen lists the tickets of the variant's decks that are not in this
// seat's hand or pending: those another draw may bring, by pile (0 regular,
// 1 long).
func unseen(s *situation) [2][]data.TicketID {
	out := [2][]data.TicketID{s.w.pool[0][:0], s.w.pool[1][:0]}
	v, ok := s.b.Variant(s.v.Variant)
	if !ok {
		return out
	}
	mine := grow(s.w.mine, len(s.b.Tickets))
	clear(mine)
	s.w.mine = mine
	for _, t := range s.v.Tickets {
		mine[t.Ticket] = true
	}
	for _, t := range s.v.Pending {
		mine[t] = true
	}
	for i := range s.b.Tickets {
		t := &s.b.Tickets[i]
		if mine[t.ID] || !v.Uses(t) {
			continue
		}
		pile := 0
		if t.Long {
			pile = 1
		}
		out[pile] = append(out[pile], t.ID)
	}
	s.w.pool = out
	return out
}

// marginal estimates what adding each ticket to a plan is worth, in points:
// the ticket joined by the cheapest way from the planned network (or
// directly), its route points, less the turns and trains it takes and the
// risk of not finishing. It writes the values into out.
func (p *plannerBot) marginal(s *situation, pl *plan, tickets []data.TicketID, out []float64) []float64 {
	w := s.w
	eff := append(w.eff[:0], w.baseCosts(s, &p.o.model)...)
	w.eff = eff
	joined := &w.joined
	joined.Reset(s.b)
	joined.AddOwned(s.own)
	sources := w.sources[:0]
	seen := grow(w.seen, len(s.b.Cities))
	clear(seen)
	w.seen = seen
	addNode := func(c data.CityID) {
		if !seen[c] && !s.b.Cities[c].Country {
			seen[c] = true
			sources = append(sources, c)
		}
	}
	for t := range s.b.Tracks {
		if s.own[t] || pl.uses[t] > 0 {
			eff[t] = 0
			joined.Add(data.TrackID(t))
			addNode(s.b.Tracks[t].A)
			addNode(s.b.Tracks[t].B)
		}
	}
	w.sources = sources
	base := assess(s, pl)
	var fromNet *router
	if len(sources) > 0 {
		fromNet = w.r2
		fromNet.search(sources, eff, engine.NoCity)
	}
	direct := w.r
	out = grow(out, len(tickets))
	pathA, pathB, path := w.pathA, w.pathB, w.path
	for i, id := range tickets {
		tk := &s.b.Tickets[id]
		if joined.Connected(tk.A, tk.B) {
			out[i] = float64(tk.Points) * (2*base.p - 1)
			continue
		}
		var cost float64
		cost, path = direct.between(tk.A, tk.B, eff, path)
		if fromNet != nil && fromNet.dist[tk.A]+fromNet.dist[tk.B] < cost {
			pathA = fromNet.path(tk.A, pathA)
			pathB = fromNet.path(tk.B, pathB)
			cost = fromNet.dist[tk.A] + fromNet.dist[tk.B]
			path = append(append(path[:0], pathA...), pathB...)
		}
		if cost == blocked {
			out[i] = -float64(tk.Points)
			continue
		}
		claims, cards, routePts := 0, 0, 0
		for _, t := range path {
			if eff[t] == 0 {
				continue
			}
			l := s.b.Tracks[t].Length
			claims++
			cards += l
			routePts += s.b.RoutePoints(l)
		}
		turns := float64(claims) + float64(cards)/usefulPerDraw
		if cards > s.trains-pl.trains {
			out[i] = -float64(tk.Points)
			continue
		}
		slack := s.turnsLeft - base.turns - turns - s.crowding()
		pr := completion(slack)
		out[i] = float64(tk.Points)*(2*pr-1) + pr*float64(routePts) - turnWeight*turns - trainWeight*float64(cards)
	}
	w.pathA, w.pathB, w.path = pathA, pathB, path
	return out
}

// drawValue estimates what drawing k tickets (long of them from the long
// pile) and keeping the best (at least keepMin) is worth, by sampling
// draws from the unseen tickets.
func (w *work) drawValue(values [2][]float64, long, k, keepMin int, rng *rand.Rand) float64 {
	samples := w.ticketSamples
	if samples == 0 {
		samples = ticketSamples
	}
	short := k - long
	if long > len(values[1]) || short > len(values[0]) || k == 0 {
		return math.Inf(-1)
	}
	total := 0.0
	drawn := w.drawn[:0]
	for range samples {
		drawn = drawn[:0]
		drawn = w.appendSample(drawn, values[1], long, rng)
		drawn = w.appendSample(drawn, values[0], short, rng)
		slices.Sort(drawn)
		slices.Reverse(drawn)
		v := 0.0
		for i, x := range drawn {
			if i < keepMin || x > 0 {
				v += x
			}
		}
		total += v
	}
	w.drawn = drawn
	return total / float64(samples)
}

// ticketSamples is the number of ticket draws drawValue samples
// (options.ticketSamples may set another).
const ticketSamples = 120

// appendSample appends n distinct values picked at random: the first n of
// a random permutation, drawn exactly as rand.Rand.Perm draws it.
func (w *work) appendSample(dst, from []float64, n int, rng *rand.Rand) []float64 {
	if n <= 0 {
		return dst
	}
	perm := grow(w.perm, len(from))
	w.perm = perm
	for i := range perm {
		perm[i] = i
	}
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	for _, i := range perm[:n] {
		dst = append(dst, from[i])
	}
	return dst
}

// Salts of the decision's random streams (viewSeed).
const (
	saltDraws   = 0xd7a3 // assess: the draws simulated
	saltTickets = 0x7ec  // bestMix: the tickets a draw may bring
)

// viewSeed seeds a random stream fixed by the position, so that a decision
// depends on the view alone.
func viewSeed(v *engine.PlayerView, salt uint64) uint64 {
	h := uint64(v.Turn)*0x9e3779b97f4a7c15 ^ uint64(v.Seat+1)*0xbf58476d1ce4e5b9 ^ salt
	for _, o := range v.Owners {
		h = h*31 + uint64(o+2)
	}
	return h
}

// ticketValues computes the marginal value of every unseen ticket, by pile.
func (p *plannerBot) ticketValues(s *situation, pl *plan) [2][]float64 {
	pool := unseen(s)
	w := s.w
	w.values[0] = p.marginal(s, pl, pool[0], w.values[0])
	w.values[1] = p.marginal(s, pl, pool[1], w.values[1])
	return w.values
}

// bestMix picks how many long tickets to ask for (Märklin), at setup or
// when drawing during the game.
func (p *plannerBot) bestMix(s *situation, legal []engine.Action, pl *plan, keepMin int) (engine.Action, float64) {
	values := p.ticketValues(s, pl)
	rng := s.w.viewRand(s, saltTickets)
	best, bestV := legal[0], math.Inf(-1)
	for _, a := range legal {
		if a.Kind != engine.ActDrawTickets {
			continue
		}
		k := s.ticketDrawSize()
		v := s.w.drawValue(values, a.Long, k, keepMin, rng)
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best, bestV
}

// ticketDrawSize is how many tickets a draw brings in this position: the
// setup mix, or the variant's draw.
func (s *situation) ticketDrawSize() int {
	v, _ := s.b.Variant(s.v.Variant)
	left := s.v.TicketDecks[0] + s.v.TicketDecks[1]
	if s.v.Phase == engine.PhaseSetup {
		for _, st := range v.Setup {
			if st.Mix > 0 {
				return min(st.Mix, left)
			}
		}
	}
	if !v.DrawMix {
		left = s.v.TicketDecks[0]
	}
	return min(v.Draw, left)
}

// maybeDrawTickets draws tickets when the plan is done, time and trains
// remain, and the unseen tickets promise more than a turn's worth: drawn
// then, they are judged against the network already built.
func (p *plannerBot) maybeDrawTickets(s *situation, pl *plan, legal []engine.Action) (engine.Action, bool) {
	draw, ok := firstOf(legal, engine.ActDrawTickets)
	if !ok || s.v.LastRound {
		return engine.Action{}, false
	}
	if !p.o.ticketDraws {
		if len(pl.claims) == 0 && s.trains >= 20 && s.turnsLeft >= 12 {
			return draw, true
		}
		return engine.Action{}, false
	}
	if p.o.droppedStopsDraws && len(pl.dropped) > 0 {
		return engine.Action{}, false
	}
	// The outlook (a simulation) only when the plan is built.
	if s.trains-pl.trains < 8 || len(pl.claims) > 0 || s.turnsLeft-assess(s, pl).turns < 8 {
		return engine.Action{}, false
	}
	v, _ := s.b.Variant(s.v.Variant)
	best, value := p.bestMix(s, legal, pl, v.DrawKeepMin)
	if value > ticketDrawThreshold+p.o.drawPerSeat*float64(s.n-2) {
		return best, true
	}
	return engine.Action{}, false
}

// ticketDrawThreshold is the expected gain, in points, a ticket draw must
// promise beyond the turn it takes. It was 3: at 0, hard draws a little
// more often once its plan is built and completes more tickets (200-game
// self-play on each edition: +0.07 to +0.24 a game) at the same win rates
// against normal and dest, within the noise (see docs/bots-measurements.md).
const ticketDrawThreshold = 0.0

// shortTicketDraw is the legal draw of tickets with the fewest long ones
// (Märklin's mix; elsewhere the one draw): the route bot's setup, and the
// expert's candidate near the end, where short tickets are those a network
// built can still complete.
func shortTicketDraw(legal []engine.Action) (engine.Action, bool) {
	var draw engine.Action
	found := false
	for _, a := range legal {
		if a.Kind == engine.ActDrawTickets && (!found || a.Long < draw.Long) {
			draw, found = a, true
		}
	}
	return draw, found
}
