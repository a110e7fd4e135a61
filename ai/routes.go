package ai

import (
	"math"

	"conductor/data"
)

// blocked is the cost of a track nobody can use.
var blocked = math.Inf(1)

// noTrack marks a node reached without a track (a source).
const noTrack data.TrackID = -1

// router finds cheapest paths over a board where every track has a cost
// (blocked: unusable). Märklin countries are dead ends: a path may start or
// end in one but never passes through. Nodes are settled in order of
// distance, the lower node index first on a tie (a heap of (distance,
// node) pairs): the paths are those of a plain scan for the nearest node,
// found faster. It reuses its buffers between searches.
type router struct {
	b    *data.Board
	dist []float64
	via  []data.TrackID
	done []bool
	heap []heapItem
	src  [1]data.CityID
	// The board's adjacency, flat: node u's edges are edges[first[u]:first[u+1]].
	first   []int32
	edges   []edge
	country []bool
	// read, when not nil, collects the tracks whose cost a search looked
	// at (a bitset by TrackID): a search gives the same answer as long as
	// none of them changes cost (pathMemo relies on it).
	read []uint64
}

// edge is a track from a node and the node at its other end.
type edge struct {
	t data.TrackID
	o data.CityID
}

// heapItem is a node waiting to be settled at a tentative distance.
type heapItem struct {
	d float64
	c data.CityID
}

func (x heapItem) less(y heapItem) bool { return x.d < y.d || x.d == y.d && x.c < y.c }

func newRouter(b *data.Board) *router {
	n := len(b.Cities)
	r := &router{b: b, dist: make([]float64, n), via: make([]data.TrackID, n), done: make([]bool, n),
		heap: make([]heapItem, 0, 2*len(b.Tracks)+n), first: make([]int32, n+1), country: make([]bool, n)}
	for u := range b.Cities {
		r.first[u] = int32(len(r.edges))
		r.country[u] = b.Cities[u].Country
		for _, t := range b.Adj[u] {
			r.edges = append(r.edges, edge{t, b.Tracks[t].Other(data.CityID(u))})
		}
	}
	r.first[n] = int32(len(r.edges))
	return r
}

func (r *router) push(it heapItem) {
	h := append(r.heap, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !it.less(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = it
	r.heap = h
}

func (r *router) pop() heapItem {
	h := r.heap
	top := h[0]
	last := h[len(h)-1]
	h = h[:len(h)-1]
	n := len(h)
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1].less(h[c]) {
			c++
		}
		if !h[c].less(last) {
			break
		}
		h[i] = h[c]
		i = c
	}
	if n > 0 {
		h[i] = last
	}
	r.heap = h
	return top
}

// search computes the cheapest cost from any source to every node, stopping
// early once target (when not NoCity) is settled.
func (r *router) search(sources []data.CityID, cost []float64, target data.CityID) {
	r.searchFree(sources, cost, nil, target)
}

// searchFree is search with the tracks in free (a bitset by track; nil:
// none) costing nothing.
func (r *router) searchFree(sources []data.CityID, cost []float64, free []uint64, target data.CityID) {
	for i := range r.dist {
		r.dist[i] = blocked
		r.via[i] = noTrack
		r.done[i] = false
	}
	r.heap = r.heap[:0]
	for _, c := range sources {
		if r.dist[c] != 0 {
			r.dist[c] = 0
			r.push(heapItem{0, c})
		}
	}
	for len(r.heap) > 0 {
		it := r.pop()
		u := it.c
		if r.done[u] || it.d != r.dist[u] {
			continue // settled already, or a stale distance
		}
		r.done[u] = true
		best := it.d
		if u == target {
			return
		}
		if r.country[u] && r.via[u] != noTrack {
			continue // reached a country: the path ends here
		}
		for _, e := range r.edges[r.first[u]:r.first[u+1]] {
			t := e.t
			if r.read != nil {
				r.read[t>>6] |= 1 << (uint(t) & 63)
			}
			c := cost[t]
			if free != nil && free[t>>6]&(1<<(uint(t)&63)) != 0 {
				c = 0
			}
			if c == blocked {
				continue
			}
			o := e.o
			if d := best + c; d < r.dist[o] {
				r.dist[o] = d
				r.via[o] = t
				r.push(heapItem{d, o})
			}
		}
	}
}

// path returns the tracks of the cheapest path found to to, from its end
// back to a source; nil when unreachable or to is a source.
func (r *router) path(to data.CityID, buf []data.TrackID) []data.TrackID {
	buf = buf[:0]
	if r.dist[to] == blocked {
		return buf
	}
	for c := to; r.via[c] != noTrack; {
		t := r.via[c]
		buf = append(buf, t)
		c = r.b.Tracks[t].Other(c)
	}
	return buf
}

// between returns the cheapest path from a to z and its cost (blocked when
// there is none).
func (r *router) between(a, z data.CityID, cost []float64, buf []data.TrackID) (float64, []data.TrackID) {
	return r.betweenFree(a, z, cost, nil, buf)
}

// betweenFree is between with the tracks in free costing nothing.
func (r *router) betweenFree(a, z data.CityID, cost []float64, free []uint64, buf []data.TrackID) (float64, []data.TrackID) {
	r.src[0] = a
	r.searchFree(r.src[:], cost, free, z)
	if r.dist[z] == blocked {
		return blocked, buf[:0]
	}
	return r.dist[z], r.path(z, buf)
}
