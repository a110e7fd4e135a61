package ai

import (
	"conductor/data"
	"conductor/engine"
)

// bestPayment picks, among ways to pay length cards (claims of one track
// without passenger, or one station), the one leaving the hand fittest for
// the tracks still to claim: fewest cards then missing, then fewest wild
// cards spent, then the colour held most.
func bestPayment(s *situation, opts []engine.Action, length int, rest []data.TrackID) engine.Action {
	best, bestScore := opts[0], 1e18
	for _, a := range opts {
		h := spend(s.b, s.hand, a, length)
		n := analyse(s.b, &h, rest)
		score := float64(n.short)*10 + float64(a.Locos)*1.5 + float64(a.Locos4)*1.2
		if a.Color != data.Gray {
			// Keep the colours held in depth; spend the odd cards.
			score -= 0.05 * float64(h[engine.ColorCard(a.Color)])
			score += 0.01 * float64(a.Color) // stable tie-break
		}
		if score < bestScore {
			best, bestScore = a, score
		}
	}
	return best
}
