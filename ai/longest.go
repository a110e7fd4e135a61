package ai

import (
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
	per    [][]data.TrackID // by seat: the tracks it holds
	with   []data.TrackID   // scratch: this seat's tracks and one more
}

// newLongestWatch reads s's longest paths into the decision's watch.
func newLongestWatch(s *situation) *longestWatch {
	w := &s.w.longest
	w.s, w.bonus, w.mine, w.theirs = s, s.rules.LongestPathBonus, 0, 0
	if w.bonus == 0 {
		return w
	}
	w.mine, _ = w.search.Longest(s.b, s.ownTracks)
	for len(w.per) < s.n {
		w.per = append(w.per, nil)
	}
	for i := range w.per {
		w.per[i] = w.per[i][:0]
	}
	for t, o := range s.v.Owners {
		if o >= 0 && int(o) != s.seat {
			w.per[o] = append(w.per[o], data.TrackID(t))
		}
	}
	for _, ts := range w.per[:s.n] {
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
	w.with = append(append(w.with[:0], w.s.ownTracks...), t)
	after, _ := w.search.Longest(w.s.b, w.with)
	has := func(l int) int {
		if l > 0 && l >= w.theirs {
			return 1
		}
		return 0
	}
	return float64(w.bonus * (has(after) - has(w.mine)))
}
