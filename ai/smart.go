package ai

import (
	"math"
	"slices"

	"conductor/data"
	"conductor/engine"
)

// plannerBot is the "normal" and "hard" player: it plans a network for its
// tickets, gathers the cards that network needs and claims it, with the
// refinements its options switch on.
type plannerBot struct {
	o options
}

func newPlanner(o options, seed uint64) *plannerBot {
	_ = seed // the planner is deterministic: its choices depend on the view alone
	return &plannerBot{o: o}
}

func (p *plannerBot) planner(s *situation) *planner {
	return newPlanner2(s, &p.o.model, p.o.orders, p.o.reroutes)
}

func (p *plannerBot) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	if len(legal) == 1 {
		return legal[0]
	}
	s := read(&v)
	switch v.Phase {
	case engine.PhaseSetup:
		if legal[0].Kind == engine.ActDrawTickets {
			a, _ := p.bestMix(s, legal, p.emptyPlan(s), setupKeepMin(s))
			return a
		}
		return p.bestKeep(s, legal)
	case engine.PhaseKeepTickets:
		return p.bestKeep(s, legal)
	case engine.PhaseTunnel:
		return p.tunnel(s, legal)
	case engine.PhaseSecondDraw:
		pl := p.currentPlan(s)
		return p.draw(s, legal, pl, p.targets(s, pl))
	}
	return p.turn(s, legal)
}

func (p *plannerBot) emptyPlan(s *situation) *plan {
	return &plan{uses: make([]int8, len(s.b.Tracks))}
}

// setupKeepMin is the fewest tickets the setup's mix step lets a seat keep.
func setupKeepMin(s *situation) int {
	v, _ := s.b.Variant(s.v.Variant)
	for _, st := range v.Setup {
		if st.Mix > 0 {
			return st.KeepMin
		}
	}
	return 1
}

// currentPlan plans the held tickets, giving up (with prune) those whose
// cost outweighs what completing them brings.
func (p *plannerBot) currentPlan(s *situation) *plan {
	goals := s.incomplete()
	pl := p.planner(s).solve(goals)
	if p.o.refine > 0 && len(pl.claims) > 0 {
		pr := p.planner(s)
		creditHand(s, pr.base, pl, p.o.refine)
		pl = pr.solve(goals)
		p.recost(s, pl)
	}
	if !p.o.prune {
		return pl
	}
	value := assess(s, pl).value
	for len(pl.goals) > 0 {
		bestI, bestV, bestPl := -1, value, pl
		for i := range pl.goals {
			rest := slices.Delete(slices.Clone(pl.goals), i, i+1)
			cand := p.planner(s).solve(rest)
			cand.dropped = append(cand.dropped, pl.dropped...)
			cand.dropped = append(cand.dropped, pl.goals[i])
			if v := assess(s, cand).value; v > bestV+0.5 {
				bestI, bestV, bestPl = i, v, cand
			}
		}
		if bestI < 0 {
			break
		}
		pl, value = bestPl, bestV
	}
	return pl
}

// recost prices a plan found with hand credits at the plain costs, so that
// plans compare on one scale.
func (p *plannerBot) recost(s *situation, pl *plan) {
	base := p.planner(s).base
	pl.cost = 0
	for _, t := range pl.claims {
		pl.cost += base[t]
	}
	for _, t := range pl.borrow {
		pl.cost += base[t]
	}
}

// turn chooses the first action of a turn.
func (p *plannerBot) turn(s *situation, legal []engine.Action) engine.Action {
	pl := p.currentPlan(s)
	opts := claimOptions(legal)
	if p.o.endgame && s.v.LastRound {
		return p.finalTurn(s, legal, pl, opts)
	}
	if a, ok := p.passengerMove(s, legal); ok {
		return a
	}
	if a, ok := p.claimPlanned(s, pl, opts); ok {
		return a
	}
	if a, ok := p.buildStation(s, pl, legal); ok {
		return a
	}
	if p.o.surplus {
		if a, ok := p.claimSurplus(s, pl, opts); ok {
			return a
		}
	}
	if a, ok := p.maybeDrawTickets(s, pl, legal); ok {
		return a
	}
	targets := p.targets(s, pl)
	if a, ok := p.claimForPoints(s, pl, targets, opts); ok {
		return a
	}
	return p.draw(s, legal, pl, targets)
}

// targets are the tracks the bot gathers cards for: the plan's claims, or
// with no ticket to pursue, the best routes for points.
func (p *plannerBot) targets(s *situation, pl *plan) []data.TrackID {
	if len(pl.claims) > 0 {
		return pl.claims
	}
	return routeTargets(s, 3)
}

// claimPlanned claims the most pressing planned track the hand can pay.
func (p *plannerBot) claimPlanned(s *situation, pl *plan, opts map[data.TrackID][]engine.Action) (engine.Action, bool) {
	var ready []int
	for k, t := range pl.claims {
		if len(opts[t]) > 0 {
			ready = append(ready, k)
		}
	}
	if len(ready) == 0 {
		return engine.Action{}, false
	}
	var detour []float64
	if p.o.blocking {
		detour = p.planner(s).detour(pl)
	}
	bestK, bestPri := -1, math.Inf(-1)
	for _, k := range ready {
		t := pl.claims[k]
		tr := &s.b.Tracks[t]
		pri := 0.5 * float64(tr.Length)
		if detour != nil {
			pri += min(detour[k], 30) * threat(s, t)
		}
		if p.o.tunnelCare && tr.Tunnel && s.rules.TunnelReveal > 0 && s.turnsLeft > 3 &&
			(detour == nil || detour[k] < 8) && !tunnelSpare(s, t, opts[t]) {
			continue // wait for a spare card: a tunnel often asks for more
		}
		if pri > bestPri {
			bestK, bestPri = k, pri
		}
	}
	if bestK < 0 {
		return engine.Action{}, false
	}
	t := pl.claims[bestK]
	rest := slices.Delete(slices.Clone(pl.claims), bestK, bestK+1)
	return p.payClaim(s, pl, t, opts[t], rest), true
}

// payClaim picks the payment for claiming t, and where to place a
// passenger (Märklin) if one should go.
func (p *plannerBot) payClaim(s *situation, pl *plan, t data.TrackID, opts []engine.Action, rest []data.TrackID) engine.Action {
	plain := plainPayments(opts)
	if len(plain) == 0 {
		return opts[0]
	}
	pay := bestPayment(s, plain, s.b.Tracks[t].Length, rest)
	if city, ok := p.passengerCity(s, pl, t, opts); ok {
		if a, ok := withPassenger(opts, pay, city); ok {
			return a
		}
	}
	return pay
}

// threat is how likely an opponent is to take t: more when their network
// already reaches its ends.
func threat(s *situation, t data.TrackID) float64 {
	tr := &s.b.Tracks[t]
	th := 1.0
	for _, c := range [2]data.CityID{tr.A, tr.B} {
		for _, u := range s.b.Adj[c] {
			if s.oppHeld[u] {
				th += 0.25
				break
			}
		}
	}
	return th
}

// tunnelSpare reports whether, after the cheapest payment for tunnel t, the
// hand keeps a card that could meet the tunnel's surprise.
func tunnelSpare(s *situation, t data.TrackID, opts []engine.Action) bool {
	l := s.b.Tracks[t].Length
	for _, a := range plainPayments(opts) {
		h := spend(s.b, s.hand, a, l)
		spare := h[engine.Locomotive]
		if a.Color != data.Gray {
			spare += h[engine.ColorCard(a.Color)]
		}
		if spare >= 1 {
			return true
		}
	}
	return false
}

// tunnel pays a tunnel's extra cards when the track is worth them.
func (p *plannerBot) tunnel(s *situation, legal []engine.Action) engine.Action {
	cancel, _ := firstOf(legal, engine.ActTunnelCancel)
	pay, ok := firstOf(legal, engine.ActTunnelPay) // fewest locomotives first
	if !ok || s.v.Tunnel == nil {
		return cancel
	}
	t := s.v.Tunnel.Track
	extra := s.v.Tunnel.Extra
	pl := p.currentPlan(s)
	if slices.Contains(pl.claims, t) || s.b.RoutePoints(s.b.Tracks[t].Length) >= 2*extra || s.turnsLeft <= 2 {
		return pay
	}
	return cancel
}

// claimForPoints claims a track for its points when no plan needs the turn:
// a target route, or near the end any route the hand pays for, so that no
// cards are left unused.
func (p *plannerBot) claimForPoints(s *situation, pl *plan, targets []data.TrackID, opts map[data.TrackID][]engine.Action) (engine.Action, bool) {
	endgame := p.o.endgame && (s.turnsLeft <= 3 || s.minOpponentTrains()-s.rules.EndTrains <= 4)
	planBusy := len(pl.claims) > 0
	if planBusy && !endgame {
		return engine.Action{}, false
	}
	if planBusy {
		// Only give up on the plan's turns if it cannot finish anyway.
		if o := assess(s, pl); o.turns <= s.turnsLeft-1 {
			return engine.Action{}, false
		}
	}
	bestT, bestV := noTrack, 0.0
	for _, t := range sortedTracks(opts) {
		as := opts[t]
		if len(plainPayments(as)) == 0 {
			continue
		}
		tr := &s.b.Tracks[t]
		v := float64(s.b.RoutePoints(tr.Length)) + 2*float64(ticketGain(s, t))
		if !endgame && !slices.Contains(targets, t) {
			continue
		}
		if !endgame && tr.Length < 3 {
			continue
		}
		if v > bestV || v == bestV && t < bestT {
			bestT, bestV = t, v
		}
	}
	if bestT == noTrack {
		return engine.Action{}, false
	}
	return p.payClaim(s, pl, bestT, opts[bestT], targets), true
}

// ticketGain is the points of held incomplete tickets that claiming t completes.
func ticketGain(s *situation, t data.TrackID) int {
	var net engine.Connectivity
	net.CopyFrom(&s.net)
	net.Add(t)
	gain := 0
	for _, g := range s.tickets {
		if !g.done && net.Connected(g.a, g.b) {
			gain += g.points
		}
	}
	return gain
}

// routeTargets picks up to k open routes worth claiming for their points,
// longest first, preferring those that extend this seat's network.
func routeTargets(s *situation, k int) []data.TrackID {
	type cand struct {
		t data.TrackID
		v float64
	}
	var cs []cand
	touches := make([]bool, len(s.b.Cities))
	for _, t := range s.ownTracks {
		touches[s.b.Tracks[t].A], touches[s.b.Tracks[t].B] = true, true
	}
	for i := range s.b.Tracks {
		t := data.TrackID(i)
		tr := &s.b.Tracks[i]
		if !s.claimable[t] || tr.Length > s.trains {
			continue
		}
		v := float64(s.b.RoutePoints(tr.Length)) / float64(tr.Length+2)
		if touches[tr.A] || touches[tr.B] {
			v += 0.3
		}
		v -= 0.3 * float64(tr.Locomotives)
		cs = append(cs, cand{t, v})
	}
	slices.SortStableFunc(cs, func(x, y cand) int { return cmpFloat(y.v, x.v) })
	var out []data.TrackID
	for _, c := range cs[:min(k, len(cs))] {
		out = append(out, c.t)
	}
	return out
}

// maybeDrawTickets draws tickets when the plan is nearly done, time and
// trains remain, and the unseen tickets promise more than a turn's worth.
func (p *plannerBot) maybeDrawTickets(s *situation, pl *plan, legal []engine.Action) (engine.Action, bool) {
	draw, ok := firstOf(legal, engine.ActDrawTickets)
	if !ok || s.v.LastRound {
		return engine.Action{}, false
	}
	o := assess(s, pl)
	if !p.o.ticketDraws {
		if len(pl.claims) == 0 && s.trains >= 20 && s.turnsLeft >= 12 {
			return draw, true
		}
		return engine.Action{}, false
	}
	if s.turnsLeft-o.turns < 8 || s.trains-pl.trains < 8 || len(pl.claims) > 0 {
		return engine.Action{}, false
	}
	v, _ := s.b.Variant(s.v.Variant)
	best, value := p.bestMix(s, legal, pl, v.DrawKeepMin)
	if debugf != nil {
		debugf("seat %d turn %d: tickets? value %.1f planTurns %.1f p %.2f turnsLeft %.1f trains %d planTrains %d", s.seat, s.v.Turn, value, o.turns, o.p, s.turnsLeft, s.trains, pl.trains)
	}
	if value > ticketDrawThreshold {
		return best, true
	}
	return engine.Action{}, false
}

// ticketDrawThreshold is the expected gain, in points, a ticket draw must
// promise beyond the turn it takes.
var ticketDrawThreshold = 3.0

// finalTurn plays the last turn for the most points now: a claim (its
// route, the tickets it completes, the longest path), a station that
// completes tickets, or a passenger's trip.
func (p *plannerBot) finalTurn(s *situation, legal []engine.Action, pl *plan, opts map[data.TrackID][]engine.Action) engine.Action {
	best, bestV := fallback(legal), 0.0
	longest := newLongestWatch(s)
	for _, t := range sortedTracks(opts) {
		plain := plainPayments(opts[t])
		if len(plain) == 0 {
			continue
		}
		tr := &s.b.Tracks[t]
		v := float64(s.b.RoutePoints(tr.Length)) + 2*float64(ticketGain(s, t)) + longest.gain(t)
		if v > bestV {
			best, bestV = bestPayment(s, plain, tr.Length, nil), v
		}
	}
	if a, v, ok := bestStationNow(s, legal); ok && v > bestV {
		best, bestV = a, v
	}
	if a, v, ok := bestTrip(s, legal); ok && float64(v) > bestV {
		best = a
	}
	return best
}
