package ai

import (
	"conductor/data"
	"conductor/engine"
)

// plannerBot is the "normal" and "hard" player: it plans a network for its
// tickets, gathers the cards that network needs and claims it, with the
// refinements its options switch on.
type plannerBot struct {
	o    options
	w    *work       // scratch space, reused from decision to decision
	keep *planKeeper // playouts only: each seat's plan kept between decisions
}

// newPlannerBot makes a planning bot. It needs no seed: its choices depend
// on the view alone (what it samples, it samples with viewRand).
func newPlannerBot(o options) *plannerBot {
	return &plannerBot{o: o, w: newWork()}
}

func (p *plannerBot) planner(s *situation) *planner {
	return s.w.planner(s, &p.o.model, p.o.orders, p.o.reroutes)
}

func (p *plannerBot) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	return p.choose(&v, legal)
}

// choose is Choose for a view the caller keeps unchanged during the call
// (the expert's playouts fill one view again and again).
func (p *plannerBot) choose(v *engine.PlayerView, legal []engine.Action) engine.Action {
	if without := notGivenUp(v, legal, p.w.legal); len(without) < len(legal) {
		legal, p.w.legal = without, without
	}
	if a, ok := forced(legal); ok {
		return a
	}
	p.w.drawSamples, p.w.ticketSamples, p.w.crowd = p.o.drawSamples, p.o.ticketSamples, p.o.crowd
	s := p.w.begin(v)
	if p.keep != nil {
		p.keep.begin(p.w)
		defer p.keep.end(s)
	}
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
		pl := p.plan(s)
		return p.draw(s, legal, pl, p.targets(s, pl))
	}
	return p.turn(s, legal)
}

func (p *plannerBot) emptyPlan(s *situation) *plan {
	return s.w.newPlan()
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

// plan is the seat's plan for this decision: the current plan, or with a
// plan keeper (playouts) the plan kept while it holds.
func (p *plannerBot) plan(s *situation) *plan {
	if p.keep == nil {
		return p.currentPlan(s)
	}
	return p.keep.plan(s, func() *plan { return p.currentPlan(s) })
}

// currentPlan plans the held tickets, giving up (with prune) those whose
// cost outweighs what completing them brings.
func (p *plannerBot) currentPlan(s *situation) *plan {
	pl := p.refinedPlan(s, s.incomplete())
	if !p.o.prune {
		return pl
	}
	value := assess(s, pl).value
	for len(pl.goals) > 0 {
		bestI, bestV, bestPl := -1, value, pl
		for i := range pl.goals {
			rest := append(append(s.w.rest[:0], pl.goals[:i]...), pl.goals[i+1:]...)
			s.w.rest = rest
			cand := p.refinedPlan(s, rest)
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

// refinedPlan plans goals, then (with refine) plans again with the cards
// in hand credited: the network bends towards the colours held rather than
// waiting for colours that do not come.
func (p *plannerBot) refinedPlan(s *situation, goals []goal) *plan {
	pl := p.planner(s).solve(goals)
	if p.o.refine == 0 || len(pl.claims) == 0 {
		return pl
	}
	pr := p.planner(s)
	creditHand(s, pr.base, pl, p.o.refine)
	pr.changedBase()
	return pr.solve(goals)
}

// turn chooses the first action of a turn.
func (p *plannerBot) turn(s *situation, legal []engine.Action) engine.Action {
	pl := p.plan(s)
	if a, ok := p.payment(s, pl, legal); ok {
		return a
	}
	opts := &s.w.opts
	opts.reset(legal)
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

// payment answers a choice among ways to pay one claim or one station (a
// table asking how to pay a move already chosen): the way that leaves the
// hand fittest for the plan's other tracks (bestPayment).
func (p *plannerBot) payment(s *situation, pl *plan, legal []engine.Action) (engine.Action, bool) {
	t, city, ok := paymentChoice(legal)
	if !ok {
		return engine.Action{}, false
	}
	if city != engine.NoCity {
		return bestPayment(s, legal, s.stationCost(), pl.claims), true
	}
	rest := s.w.rest2[:0]
	for _, c := range pl.claims {
		if c != t {
			rest = append(rest, c)
		}
	}
	s.w.rest2 = rest
	return p.payClaim(s, pl, t, legal, rest), true
}

// paymentChoice reports whether legal offers only ways to pay one move:
// claims of one track without a passenger (its track), or stations on one
// city (its city).
func paymentChoice(legal []engine.Action) (data.TrackID, data.CityID, bool) {
	if len(legal) < 2 {
		return noTrack, engine.NoCity, false
	}
	first := legal[0]
	for _, a := range legal {
		switch {
		case a.Kind != first.Kind || a.Passenger:
			return noTrack, engine.NoCity, false
		case a.Kind == engine.ActClaim && a.Track == first.Track:
		case a.Kind == engine.ActStation && a.City == first.City:
		default:
			return noTrack, engine.NoCity, false
		}
	}
	if first.Kind == engine.ActStation {
		return noTrack, first.City, true
	}
	return first.Track, engine.NoCity, true
}
