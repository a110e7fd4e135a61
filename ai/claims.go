package ai

import (
	"math"
	"slices"

	"conductor/data"
	"conductor/engine"
)

// claimPlanned claims the most pressing planned track the hand can pay.
func (p *plannerBot) claimPlanned(s *situation, pl *plan, opts *claimSet) (engine.Action, bool) {
	ready := s.w.ints[:0]
	for k, t := range pl.claims {
		if len(opts.of(t)) > 0 {
			ready = append(ready, k)
		}
	}
	s.w.ints = ready
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
		pri := p.o.claimLength * float64(tr.Length)
		if detour != nil {
			pri += min(detour[k], 30) * threat(s, t)
		}
		if p.o.tunnelCare && tr.Tunnel && s.rules.TunnelReveal > 0 && s.turnsLeft > 3 &&
			(detour == nil || detour[k] < 8) && !tunnelSpare(s, t, opts.of(t)) {
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
	rest := append(append(s.w.rest2[:0], pl.claims[:bestK]...), pl.claims[bestK+1:]...)
	s.w.rest2 = rest
	return p.payClaim(s, pl, t, opts.of(t), rest), true
}

// payClaim picks the payment for claiming t, and where to place a
// passenger (Märklin) if one should go.
func (p *plannerBot) payClaim(s *situation, pl *plan, t data.TrackID, opts []engine.Action, rest []data.TrackID) engine.Action {
	plain := appendPlain(s.w.acts[:0], opts)
	s.w.acts = plain
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

// claimForPoints claims a track for its points when no plan needs the turn:
// a target route, or near the end any route the hand pays for, so that no
// cards are left unused.
func (p *plannerBot) claimForPoints(s *situation, pl *plan, targets []data.TrackID, opts *claimSet) (engine.Action, bool) {
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
	for _, t := range opts.tracks {
		if !hasPlain(opts.of(t)) {
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
	return p.payClaim(s, pl, bestT, opts.of(bestT), targets), true
}

// ticketGain is the points of held incomplete tickets that claiming t completes.
func ticketGain(s *situation, t data.TrackID) int {
	net := &s.w.net
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
	cs := s.w.cands[:0]
	touches := grow(s.w.touches, len(s.b.Cities))
	clear(touches)
	s.w.touches = touches
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
		// Keep the k best, the first met first among equals (what a
		// stable sort, best first, would put at the front).
		at := len(cs)
		for at > 0 && v > cs[at-1].v {
			at--
		}
		if at < k {
			cs = slices.Insert(cs, at, routeCand{t, v})
			cs = cs[:min(len(cs), k)]
		}
	}
	s.w.cands = cs
	out := s.w.targets[:0]
	for _, c := range cs {
		out = append(out, c.t)
	}
	s.w.targets = out
	return out
}

// routeCand is a route weighed by routeTargets.
type routeCand struct {
	t data.TrackID
	v float64
}
