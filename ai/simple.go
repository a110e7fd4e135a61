package ai

import (
	"math/bits"

	"conductor/data"
	"conductor/engine"
)

// Pieces shared by the simple players (the baselines and "easy"): paths
// counted in trains, plain payments and plain draws.

// trainCosts prices each track by its trains: 0 when held, blocked when it
// can no longer be claimed.
func trainCosts(s *situation) []float64 {
	cost := make([]float64, len(s.b.Tracks))
	for i, tr := range s.b.Tracks {
		t := data.TrackID(i)
		switch {
		case s.own[t]:
			cost[t] = 0
		case s.claimable[t] && tr.Length <= s.trains:
			cost[t] = float64(tr.Length)
		default:
			cost[t] = blocked
		}
	}
	return cost
}

// shortestPaths finds, for each goal not done, its path with the fewest
// trains still to lay; unreachable goals get no path (ok false).
func shortestPaths(s *situation, goals []goal) (paths [][]data.TrackID, trains []int, ok []bool) {
	r := newRouter(s.b)
	cost := trainCosts(s)
	for _, g := range goals {
		c, path := r.between(g.a, g.b, cost, nil)
		paths = append(paths, path)
		trains = append(trains, int(c))
		ok = append(ok, c != blocked && !g.done)
	}
	return paths, trains, ok
}

// plainPayment pays with as few locomotives as possible, in the colour held most.
func plainPayment(s *situation, opts []engine.Action) engine.Action {
	best, bestScore := opts[0], 1<<30
	for _, a := range opts {
		if a.Passenger {
			continue
		}
		score := (a.Locos+a.Locos4)*100 + a.Locos4
		if a.Color != data.Gray {
			score -= s.hand[engine.ColorCard(a.Color)]
		}
		if score < bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// colorNeeds counts the cards of each colour that tracks want beyond the
// hand (gray tracks want the colour held most).
func colorNeeds(s *situation, tracks []data.TrackID) [engine.NumCards]int {
	n := analyse(s.b, &s.hand, tracks)
	return n.missing
}

// neededFaceUp returns the legal face-up draw of the colour most wanted, if
// any; face-up locomotives are left alone.
func neededFaceUp(s *situation, legal []engine.Action, want [engine.NumCards]int) (engine.Action, bool) {
	var best engine.Action
	bestN := 0
	for _, a := range legal {
		if a.Kind != engine.ActDraw || a.Slot == engine.DeckSlot {
			continue
		}
		c := s.v.FaceUp[a.Slot]
		if c.IsColor() && want[c] > bestN {
			best, bestN = a, want[c]
		}
	}
	return best, bestN > 0
}

// keepWithinTrains picks the legal keep whose tickets score the most while
// their shortest paths (taken one by one) fit in the trains left; when no
// keep fits, the one needing the fewest trains.
func keepWithinTrains(s *situation, legal []engine.Action) engine.Action {
	held := s.incomplete()
	_, heldTrains, heldOK := shortestPaths(s, held)
	used := 0
	for i := range held {
		if heldOK[i] {
			used += heldTrains[i]
		}
	}
	pend := make([]goal, len(s.v.Pending))
	for i, id := range s.v.Pending {
		pend[i] = s.goalOf(id)
	}
	_, pendTrains, pendOK := shortestPaths(s, pend)
	var best engine.Action
	bestPts, bestTrains, found := -1, 1<<30, false
	var least engine.Action
	leastTrains := 1 << 30
	for _, a := range legal {
		if a.Kind != engine.ActKeep {
			continue
		}
		pts, trains := 0, used
		for i := range pend {
			if a.Keep&(1<<uint(i)) == 0 {
				continue
			}
			pts += pend[i].points
			switch {
			case pend[i].done:
			case pendOK[i]:
				trains += pendTrains[i]
			default:
				trains += 1000 // unreachable
			}
		}
		if trains < leastTrains || trains == leastTrains && bits.OnesCount64(a.Keep) < bits.OnesCount64(least.Keep) {
			least, leastTrains = a, trains
		}
		if trains <= s.trains && (pts > bestPts || pts == bestPts && trains < bestTrains) {
			best, bestPts, bestTrains, found = a, pts, trains, true
		}
	}
	if found {
		return best
	}
	return least
}

// halfMix asks for half the tickets from the long deck (Märklin), or as
// near as the decks allow.
func halfMix(legal []engine.Action) engine.Action {
	n := 0
	for _, a := range legal {
		n = max(n, a.Long)
	}
	best := legal[0]
	for _, a := range legal {
		if a.Kind == engine.ActDrawTickets && abs(a.Long-(n+1)/2) < abs(best.Long-(n+1)/2) {
			best = a
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// longestAffordable returns the longest track the hand pays for (most
// points, then lowest id), with its payment.
func longestAffordable(s *situation, legal []engine.Action, minLength int) (engine.Action, bool) {
	opts := claimOptions(legal)
	bestT, bestL := noTrack, minLength-1
	for _, t := range opts.tracks {
		if l := s.b.Tracks[t].Length; l > bestL {
			bestT, bestL = t, l
		}
	}
	if bestT == noTrack {
		return engine.Action{}, false
	}
	return plainPayment(s, opts.of(bestT)), true
}

// payTunnel pays a tunnel's extra cards when possible.
func payTunnel(legal []engine.Action) engine.Action {
	if a, ok := firstOf(legal, engine.ActTunnelPay); ok {
		return a
	}
	a, _ := firstOf(legal, engine.ActTunnelCancel)
	return a
}

// maxColorCount is the largest number of cards of one colour in a hand.
func maxColorCount(h *engine.Hand) int {
	m := 0
	for _, c := range data.CardColors {
		m = max(m, h[c])
	}
	return m
}
