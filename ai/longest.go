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
	total  int              // the length of this seat's tracks
	sums   []int            // by seat: the length of its tracks
	touch  []bool           // by city: this seat holds a track there
}

// newLongestWatch reads s's longest paths into the decision's watch.
func newLongestWatch(s *situation) *longestWatch {
	w := &s.w.longest
	w.s, w.bonus, w.mine, w.theirs = s, s.rules.LongestPathBonus, 0, 0
	if w.bonus == 0 {
		return w
	}
	w.mine, _ = w.search.Longest(s.b, s.ownTracks)
	w.total = 0
	w.touch = grow(w.touch, len(s.b.Cities))
	clear(w.touch)
	for _, t := range s.ownTracks {
		tr := &s.b.Tracks[t]
		w.total += tr.Length
		w.touch[tr.A], w.touch[tr.B] = true, true
	}
	for len(w.per) < s.n {
		w.per = append(w.per, nil)
	}
	for i := range w.per {
		w.per[i] = w.per[i][:0]
	}
	w.sums = grow(w.sums, s.n)
	clear(w.sums)
	for t, o := range s.v.Owners {
		if o >= 0 && int(o) != s.seat {
			w.per[o] = append(w.per[o], data.TrackID(t))
			w.sums[o] += s.b.Tracks[t].Length
		}
	}
	// The longest of the others' paths: a seat whose tracks add up to no
	// more than the longest found so far cannot beat it.
	for {
		next := -1
		for o, sum := range w.sums[:s.n] {
			if sum > w.theirs && (next < 0 || sum > w.sums[next]) {
				next = o
			}
		}
		if next < 0 {
			break
		}
		l, _ := w.search.Longest(s.b, w.per[next])
		w.theirs = max(w.theirs, l)
		w.sums[next] = 0
	}
	return w
}

// gain is the change in bonus points claiming t would bring at the end.
func (w *longestWatch) gain(t data.TrackID) float64 {
	if w.bonus == 0 {
		return 0
	}
	has := func(l int) int {
		if l > 0 && l >= w.theirs {
			return 1
		}
		return 0
	}
	// A track never shortens the longest path, nor lengthens it beyond all
	// the seat's tracks and itself; away from them it is a path alone.
	tr := &w.s.b.Tracks[t]
	var after int
	switch {
	case has(w.mine) == 1:
		return 0
	case w.total+tr.Length < w.theirs:
		return 0
	case !w.touch[tr.A] && !w.touch[tr.B]:
		after = max(w.mine, tr.Length)
	default:
		w.with = append(append(w.with[:0], w.s.ownTracks...), t)
		after, _ = w.search.Longest(w.s.b, w.with)
	}
	return float64(w.bonus * (has(after) - has(w.mine)))
}
