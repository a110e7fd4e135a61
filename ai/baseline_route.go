package ai

import (
	"conductor/data"
	"conductor/engine"
)

// routeFocused is the route-focused reference agent of de Mesentier Silva
// et al. (2017): it scores by claiming long routes. It keeps as few tickets
// as it may (the cheapest), never draws more, claims the longest route its
// hand pays for (on its tickets' shortest paths when lengths tie), and
// otherwise gathers the colour of the longest open routes.
type routeFocused struct{}

func newRouteFocused() *routeFocused { return &routeFocused{} }

// routeMinLength is the shortest route it claims while it has trains to
// spare; late in the game any route will do.
const routeMinLength = 3

func (r *routeFocused) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	if a, ok := forced(legal); ok {
		return a
	}
	s := read(&v)
	switch {
	case legal[0].Kind == engine.ActDrawTickets && v.Phase == engine.PhaseSetup:
		a, _ := shortTicketDraw(legal) // as few long tickets as possible (Märklin)
		return a
	case legal[0].Kind == engine.ActKeep:
		return keepCheapest(s, legal)
	case v.Phase == engine.PhaseTunnel:
		return payTunnel(legal)
	}
	if v.Phase == engine.PhaseTurn {
		minLen := routeMinLength
		if s.trains < 12 || s.minOpponentTrains() < 12 {
			minLen = 1
		}
		if a, ok := longestAffordableOn(s, legal, minLen, ticketPaths(s)); ok {
			return a
		}
	}
	if a, ok := neededFaceUp(s, legal, colorNeeds(s, longestOpen(s))); ok {
		return a
	}
	return fallback(legal)
}

// longestOpen lists the open routes of the greatest length this seat can
// still lay; among them the ones whose colour the hand holds most come first.
func longestOpen(s *situation) []data.TrackID {
	best := 0
	for i, tr := range s.b.Tracks {
		if s.claimable[i] && tr.Length <= s.trains {
			best = max(best, tr.Length)
		}
	}
	var out []data.TrackID
	for i, tr := range s.b.Tracks {
		if s.claimable[i] && tr.Length == best {
			out = append(out, data.TrackID(i))
		}
	}
	// Gather for one of them at a time: the one the hand is closest to.
	bestT, bestHave := noTrack, -1
	for _, t := range out {
		tr := &s.b.Tracks[t]
		have := maxColorCount(&s.hand)
		if tr.Color != data.Gray {
			have = s.hand[engine.ColorCard(tr.Color)]
		}
		if have > bestHave {
			bestT, bestHave = t, have
		}
	}
	if bestT == noTrack {
		return nil
	}
	return []data.TrackID{bestT}
}

// keepCheapest keeps as few tickets as allowed, those with the shortest paths.
func keepCheapest(s *situation, legal []engine.Action) engine.Action {
	pend := make([]goal, len(s.v.Pending))
	for i, id := range s.v.Pending {
		pend[i] = s.goalOf(id)
	}
	_, trains, ok := shortestPaths(s, pend)
	best, bestN, bestTrains := legal[0], 1<<30, 1<<30
	for _, a := range legal {
		if a.Kind != engine.ActKeep {
			continue
		}
		n, tr := 0, 0
		for i := range pend {
			if a.Keep&(1<<uint(i)) == 0 {
				continue
			}
			n++
			switch {
			case pend[i].done:
			case ok[i]:
				tr += trains[i]
			default:
				tr += 1000
			}
		}
		if n < bestN || n == bestN && tr < bestTrains {
			best, bestN, bestTrains = a, n, tr
		}
	}
	return best
}

// ticketPaths marks the tracks on the shortest paths of the held tickets.
func ticketPaths(s *situation) []bool {
	on := make([]bool, len(s.b.Tracks))
	paths, _, ok := shortestPaths(s, s.incomplete())
	for i, path := range paths {
		if ok[i] {
			for _, t := range path {
				on[t] = true
			}
		}
	}
	return on
}

// longestAffordableOn is longestAffordable preferring, among routes of the
// same length, those marked in on.
func longestAffordableOn(s *situation, legal []engine.Action, minLength int, on []bool) (engine.Action, bool) {
	opts := claimOptions(legal)
	bestT, bestScore := noTrack, 2*(minLength-1)
	for _, t := range opts.tracks {
		if !hasPlain(opts.of(t)) {
			continue
		}
		score := 2 * s.b.Tracks[t].Length
		if on[t] {
			score++
		}
		if score > bestScore {
			bestT, bestScore = t, score
		}
	}
	if bestT == noTrack {
		return engine.Action{}, false
	}
	return plainPayment(s, opts.of(bestT)), true
}
