package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// destHungry is the destination-hungry reference agent of de Mesentier
// Silva, Lee, Togelius and Nealen, "AI-based playtesting of contemporary
// board games" (2017): it lives for its tickets. It keeps the tickets that
// score most within its trains, plans the shortest path (fewest trains) for
// each, gathers the colours of those paths and claims their routes as soon
// as it can; with every ticket done it draws new ones. It ignores stations
// and passengers and never blocks.
type destHungry struct{}

func newDestHungry() *destHungry { return &destHungry{} }

// destMinTrains is the trains below which the agent stops drawing tickets:
// it could complete none.
const destMinTrains = 10

func (d *destHungry) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	if a, ok := forced(legal); ok {
		return a
	}
	s := read(&v)
	switch {
	case legal[0].Kind == engine.ActDrawTickets && v.Phase == engine.PhaseSetup:
		return halfMix(legal)
	case legal[0].Kind == engine.ActKeep:
		return keepWithinTrains(s, legal)
	case v.Phase == engine.PhaseTunnel:
		return payTunnel(legal)
	}
	targets := d.targets(s)
	if v.Phase == engine.PhaseTurn {
		opts := claimOptions(legal)
		// Claim a route of the paths, the longest first.
		bestT, bestL := noTrack, 0
		for _, t := range targets {
			if hasPlain(opts.of(t)) && s.b.Tracks[t].Length > bestL {
				bestT, bestL = t, s.b.Tracks[t].Length
			}
		}
		if bestT != noTrack {
			return plainPayment(s, opts.of(bestT))
		}
		if len(targets) == 0 {
			if s.trains >= destMinTrains {
				if draws := ticketDraws(legal); len(draws) > 0 {
					return halfMix(draws)
				}
			}
			if a, ok := longestAffordable(s, legal, 1); ok {
				return a
			}
		}
	}
	if a, ok := neededFaceUp(s, legal, colorNeeds(s, targets)); ok {
		return a
	}
	return fallback(legal)
}

// targets are the open tracks on the shortest paths of the tickets not done.
func (d *destHungry) targets(s *situation) []data.TrackID {
	goals := s.incomplete()
	paths, _, ok := shortestPaths(s, goals)
	var out []data.TrackID
	for i, path := range paths {
		if !ok[i] {
			continue
		}
		for _, t := range path {
			if !s.own[t] && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	slices.Sort(out)
	return out
}

// ticketDraws keeps the ticket draws among the legal actions.
func ticketDraws(legal []engine.Action) []engine.Action {
	var out []engine.Action
	for _, a := range legal {
		if a.Kind == engine.ActDrawTickets {
			out = append(out, a)
		}
	}
	return out
}
