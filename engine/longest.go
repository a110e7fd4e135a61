package engine

import "conductor/data"

// PathSearch finds a player's longest continuous path: the trail of their own
// tracks with the most train cars, which may pass through a city several
// times but never uses a track twice. A Märklin country only ever ends a
// path. One value reused for many searches allocates nothing once its buffers
// have grown.
type PathSearch struct {
	local   []int16 // board node -> local vertex, -1 when the player has no track there
	held    []bool  // by TrackID: already taken from the input (duplicates are ignored)
	country []bool  // by local vertex
	reached []bool  // by local vertex: visited by some search already

	// Adjacency in compressed rows: the edges at vertex v are
	// adjEdge[adjStart[v]:adjStart[v+1]], leading to adjOther at the same index.
	adjStart []int32
	adjEdge  []int16
	adjOther []int16
	fill     []int32

	edgeTrack []data.TrackID
	edgeLen   []int
	edgeEnds  [][2]int16
	used      []bool

	trail    []int16 // edges of the trail being explored
	best     []int16
	bestLen  int
	start    int16
	maxTotal int // every held car: no trail can be longer

	// reachableCars' marks: current when equal to epoch.
	vmark, emark []uint32
	epoch        uint32
	queue        []int16
	out          []data.TrackID
}

// LongestPath returns the number of train cars on the longest continuous path
// made of tracks, and its tracks in order from one end to the other.
func LongestPath(b *data.Board, tracks []data.TrackID) (int, []data.TrackID) {
	var s PathSearch
	return s.Longest(b, tracks)
}

// Longest is LongestPath using s's buffers; the returned slice is valid until
// the next call.
func (s *PathSearch) Longest(b *data.Board, tracks []data.TrackID) (int, []data.TrackID) {
	n := s.build(b, tracks)
	s.bestLen, s.best = 0, s.best[:0]
	if len(s.edgeTrack) == 0 {
		return 0, s.out[:0]
	}
	// A longest trail cannot be extended. Open, it ends at a country or at
	// a city of odd degree (every track there used); closed, it covers its
	// whole component, whose cities then all have even degree. So search
	// from countries and odd cities, then once from each component never
	// reached.
	for v := range n {
		if s.country[v] || (s.adjStart[v+1]-s.adjStart[v])%2 == 1 {
			s.searchFrom(int16(v))
			if s.bestLen == s.maxTotal {
				break
			}
		}
	}
	for v := range n {
		if !s.reached[v] && s.bestLen < s.maxTotal {
			s.searchFrom(int16(v))
		}
	}
	s.out = s.out[:0]
	for _, e := range s.best {
		s.out = append(s.out, s.edgeTrack[e])
	}
	return s.bestLen, s.out
}

// build indexes the tracks into local vertices and edges and returns the
// number of vertices.
func (s *PathSearch) build(b *data.Board, tracks []data.TrackID) int {
	s.local = grow(s.local, len(b.Cities))
	for i := range s.local {
		s.local[i] = -1
	}
	s.held = grow(s.held, len(b.Tracks))
	clear(s.held)
	s.edgeTrack, s.edgeLen, s.edgeEnds = s.edgeTrack[:0], s.edgeLen[:0], s.edgeEnds[:0]
	s.country = s.country[:0]
	s.maxTotal = 0
	vertex := func(c data.CityID) int16 {
		if s.local[c] < 0 {
			s.local[c] = int16(len(s.country))
			s.country = append(s.country, b.Cities[c].Country)
		}
		return s.local[c]
	}
	for _, t := range tracks {
		if int(t) < 0 || int(t) >= len(b.Tracks) || s.held[t] {
			continue
		}
		s.held[t] = true
		tr := &b.Tracks[t]
		s.edgeTrack = append(s.edgeTrack, t)
		s.edgeLen = append(s.edgeLen, tr.Length)
		s.edgeEnds = append(s.edgeEnds, [2]int16{vertex(tr.A), vertex(tr.B)})
		s.maxTotal += tr.Length
	}
	n := len(s.country)
	s.adjStart = grow(s.adjStart, n+1)
	clear(s.adjStart)
	for _, ends := range s.edgeEnds {
		s.adjStart[ends[0]+1]++
		s.adjStart[ends[1]+1]++
	}
	for v := range n {
		s.adjStart[v+1] += s.adjStart[v]
	}
	s.fill = append(s.fill[:0], s.adjStart[:n]...)
	s.adjEdge = grow(s.adjEdge, 2*len(s.edgeEnds))
	s.adjOther = grow(s.adjOther, 2*len(s.edgeEnds))
	for e, ends := range s.edgeEnds {
		for side := range 2 {
			v := ends[side]
			s.adjEdge[s.fill[v]] = int16(e)
			s.adjOther[s.fill[v]] = ends[1-side]
			s.fill[v]++
		}
	}
	s.used = grow(s.used, len(s.edgeEnds))
	clear(s.used)
	s.reached = grow(s.reached, n)
	clear(s.reached)
	s.vmark = grow(s.vmark, n)
	clear(s.vmark)
	s.emark = grow(s.emark, len(s.edgeEnds))
	clear(s.emark)
	s.epoch = 0
	return n
}

func (s *PathSearch) searchFrom(v int16) {
	s.start = v
	s.trail = s.trail[:0]
	s.walk(v, 0)
}

// walk extends the current trail, which ends at v and holds length cars.
func (s *PathSearch) walk(v int16, length int) {
	s.reached[v] = true
	if length > s.bestLen {
		s.bestLen = length
		s.best = append(s.best[:0], s.trail...)
	}
	if s.country[v] && v != s.start {
		return // a path ends in a country
	}
	// Where the trail may branch, give up if even every track still
	// reachable would not beat the best. (Counting costs a walk over the
	// network, wasted where there is no choice to cut.)
	if s.unusedAt(v) > 1 && length+s.reachableCars(v) <= s.bestLen {
		return
	}
	for i := s.adjStart[v]; i < s.adjStart[v+1]; i++ {
		e := s.adjEdge[i]
		o := s.adjOther[i]
		if s.used[e] || o == s.start && s.country[o] {
			continue // a country is touched by one track of a path at most
		}
		s.used[e] = true
		s.trail = append(s.trail, e)
		s.walk(o, length+s.edgeLen[e])
		s.trail = s.trail[:len(s.trail)-1]
		s.used[e] = false
		if s.bestLen == s.maxTotal {
			return
		}
	}
}

// unusedAt counts the unused tracks at v.
func (s *PathSearch) unusedAt(v int16) int {
	n := 0
	for i := s.adjStart[v]; i < s.adjStart[v+1]; i++ {
		if !s.used[s.adjEdge[i]] {
			n++
		}
	}
	return n
}

// reachableCars sums the unused tracks reachable from v without passing
// through a country: no continuation of the trail can be longer.
func (s *PathSearch) reachableCars(v int16) int {
	s.epoch++
	if s.epoch == 0 { // wrapped: old marks could look current
		clear(s.vmark)
		clear(s.emark)
		s.epoch = 1
	}
	sum := 0
	s.queue = append(s.queue[:0], v)
	s.vmark[v] = s.epoch
	for len(s.queue) > 0 {
		u := s.queue[len(s.queue)-1]
		s.queue = s.queue[:len(s.queue)-1]
		if s.country[u] && u != v {
			continue
		}
		for i := s.adjStart[u]; i < s.adjStart[u+1]; i++ {
			e, o := s.adjEdge[i], s.adjOther[i]
			if s.used[e] || s.emark[e] == s.epoch || o == s.start && s.country[o] {
				continue
			}
			s.emark[e] = s.epoch
			sum += s.edgeLen[e]
			if s.vmark[o] != s.epoch {
				s.vmark[o] = s.epoch
				s.queue = append(s.queue, o)
			}
		}
	}
	return sum
}

// grow returns buf resized to n, reallocating only when it is too small.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
