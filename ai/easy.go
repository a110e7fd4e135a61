package ai

import (
	"math/rand/v2"
	"slices"

	"conductor/data"
	"conductor/engine"
)

// easyBot thinks one step at a time, like the one-step agent of de
// Mesentier Silva et al. (2017): it works on a single ticket, the one
// closest to done, along its shortest path, and only then looks at the
// next. It makes human-looking slips: now and then a random draw, or a
// random route claimed on a whim.
type easyBot struct {
	rng *rand.Rand
}

func newEasy(seed uint64) *easyBot {
	return &easyBot{rng: rand.New(rand.NewPCG(seed, 0xea5e))}
}

// How often the easy bot slips.
const (
	easyRandomDraw  = 0.25
	easyRandomClaim = 0.08
)

func (e *easyBot) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	if a, ok := forced(legal); ok {
		return a
	}
	s := read(&v)
	switch {
	case legal[0].Kind == engine.ActDrawTickets && v.Phase == engine.PhaseSetup:
		return legal[e.rng.IntN(len(legal))]
	case legal[0].Kind == engine.ActKeep:
		return e.keep(s, legal)
	case v.Phase == engine.PhaseTunnel:
		return payTunnel(legal)
	}
	focus := e.focus(s)
	if v.Phase == engine.PhaseTurn {
		opts := claimOptions(legal)
		for _, t := range focus {
			if hasPlain(opts.of(t)) {
				return plainPayment(s, opts.of(t))
			}
		}
		if opts.len() > 0 && e.rng.Float64() < easyRandomClaim {
			ts := opts.tracks
			t := ts[e.rng.IntN(len(ts))]
			if hasPlain(opts.of(t)) {
				return plainPayment(s, opts.of(t))
			}
		}
		if len(focus) == 0 {
			if draws := ticketDraws(legal); len(draws) > 0 && s.trains >= 15 && s.turnsLeft > 10 {
				return draws[e.rng.IntN(len(draws))]
			}
			if a, ok := longestAffordable(s, legal, 1); ok {
				return a
			}
		}
	}
	var draws []engine.Action
	for _, a := range legal {
		if a.Kind == engine.ActDraw {
			draws = append(draws, a)
		}
	}
	if len(draws) > 0 && e.rng.Float64() < easyRandomDraw {
		return draws[e.rng.IntN(len(draws))]
	}
	if a, ok := neededFaceUp(s, legal, colorNeeds(s, focus)); ok {
		return a
	}
	return fallback(legal)
}

// focus is the open tracks of the one ticket worked on: the incomplete
// ticket with the fewest trains still to lay.
func (e *easyBot) focus(s *situation) []data.TrackID {
	goals := s.incomplete()
	paths, trains, ok := shortestPaths(s, goals)
	best := -1
	for i := range goals {
		if ok[i] && (best < 0 || trains[i] < trains[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	var out []data.TrackID
	for _, t := range paths[best] {
		if !s.own[t] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// keep keeps the fewest tickets allowed, mostly the cheap ones, sometimes
// one more on a hunch.
func (e *easyBot) keep(s *situation, legal []engine.Action) engine.Action {
	if e.rng.Float64() < 0.3 {
		return legal[e.rng.IntN(len(legal))]
	}
	return keepCheapest(s, legal)
}
