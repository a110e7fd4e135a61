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
// end in one but never passes through. Boards are small (under 50 nodes),
// so a plain O(n²) Dijkstra beats a heap.
type router struct {
	b    *data.Board
	dist []float64
	via  []data.TrackID
	done []bool
}

func newRouter(b *data.Board) *router {
	n := len(b.Cities)
	return &router{b: b, dist: make([]float64, n), via: make([]data.TrackID, n), done: make([]bool, n)}
}

// search computes the cheapest cost from any source to every node, stopping
// early once target (when not NoCity) is settled.
func (r *router) search(sources []data.CityID, cost []float64, target data.CityID) {
	for i := range r.dist {
		r.dist[i] = blocked
		r.via[i] = noTrack
		r.done[i] = false
	}
	for _, c := range sources {
		r.dist[c] = 0
	}
	for {
		u, best := -1, blocked
		for i, d := range r.dist {
			if !r.done[i] && d < best {
				u, best = i, d
			}
		}
		if u < 0 {
			return
		}
		r.done[u] = true
		city := data.CityID(u)
		if city == target {
			return
		}
		if r.b.Cities[u].Country && r.via[u] != noTrack {
			continue // reached a country: the path ends here
		}
		for _, t := range r.b.Adj[u] {
			c := cost[t]
			if c == blocked {
				continue
			}
			o := r.b.Tracks[t].Other(city)
			if d := best + c; d < r.dist[o] {
				r.dist[o] = d
				r.via[o] = t
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
	r.search([]data.CityID{a}, cost, z)
	if r.dist[z] == blocked {
		return blocked, buf[:0]
	}
	return r.dist[z], r.path(z, buf)
}
