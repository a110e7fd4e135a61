package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// longestWatch tracks the longest-path bonus (USA, Europe): how long this
// seat's longest path is against the longest of the opponents.
type longestWatch struct {
	s      *situation
	bonus  int
	mine   int
	theirs int
	search engine.PathSearch
}

func newLongestWatch(s *situation) *longestWatch {
	w := &longestWatch{s: s, bonus: s.rules.LongestPathBonus}
	if w.bonus == 0 {
		return w
	}
	w.mine, _ = w.search.Longest(s.b, s.ownTracks)
	per := make([][]data.TrackID, s.n)
	for t, o := range s.v.Owners {
		if o >= 0 && int(o) != s.seat {
			per[o] = append(per[o], data.TrackID(t))
		}
	}
	for _, ts := range per {
		if len(ts) > 0 {
			l, _ := w.search.Longest(s.b, ts)
			w.theirs = max(w.theirs, l)
		}
	}
	return w
}

// gain is the change in bonus points claiming t would bring at the end.
func (w *longestWatch) gain(t data.TrackID) float64 {
	if w.bonus == 0 {
		return 0
	}
	after, _ := w.search.Longest(w.s.b, append(slices.Clone(w.s.ownTracks), t))
	has := func(l int) int {
		if l > 0 && l >= w.theirs {
			return 1
		}
		return 0
	}
	return float64(w.bonus * (has(after) - has(w.mine)))
}
