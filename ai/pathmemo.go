package ai

import "conductor/data"

// pathMemo remembers the cheapest paths a decision's planners found: a
// planner routes the same ticket over the same costs again and again (alone
// and then first in each order, once more when rerouting changes nothing,
// once per ticket set the pruning and the keeps try), and a search is
// worth a hundred lookups. A path is named by its cost context (the
// planner's base costs, see planner.ctx), its two ends and the tracks made
// free (those in use by the plan's other tickets).
type pathMemo struct {
	words   int // bitset words per mask
	baseCtx uint32
	index   map[memoKey]int32
	entries []memoEntry
	masks   []uint64
	paths   []data.TrackID
	scratch []uint64
}

type memoKey struct {
	ctx  uint32
	a, b data.CityID
	h    uint64 // hash of the free tracks' mask
}

type memoEntry struct {
	key       memoKey
	mask      int32 // offset in masks
	path, end int32 // the path in paths
	cost      float64
}

func (m *pathMemo) init(b *data.Board) {
	m.words = (len(b.Tracks) + 63) / 64
	m.scratch = make([]uint64, m.words)
	m.index = make(map[memoKey]int32, 256)
}

// reset forgets every path (a new decision, or another board).
func (m *pathMemo) reset() {
	clear(m.index)
	m.entries, m.masks, m.paths = m.entries[:0], m.masks[:0], m.paths[:0]
	m.baseCtx = 0
}

// key names the path from a to b with the tracks in inUse (a bitset by
// track; nil: none) free, over the costs of context ctx; the mask is left
// in m.scratch for get and put.
func (m *pathMemo) key(ctx uint32, a, b data.CityID, inUse []uint64) memoKey {
	if inUse == nil {
		clear(m.scratch)
	} else {
		copy(m.scratch, inUse)
	}
	h := uint64(0x9e3779b97f4a7c15)
	for _, w := range m.scratch {
		h = (h ^ w) * 0x100000001b3
		h ^= h >> 29
	}
	return memoKey{ctx: ctx, a: a, b: b, h: h}
}

// get returns the path and cost remembered for key (and the mask in
// m.scratch).
func (m *pathMemo) get(key memoKey) ([]data.TrackID, float64, bool) {
	i, ok := m.index[key]
	if !ok {
		return nil, 0, false
	}
	e := &m.entries[i]
	for k, w := range m.scratch {
		if m.masks[int(e.mask)+k] != w {
			return nil, 0, false // a hash collision
		}
	}
	return m.paths[e.path:e.end:e.end], e.cost, true
}

// put remembers path and cost for key (and the mask in m.scratch), and
// returns the remembered copy of path.
func (m *pathMemo) put(key memoKey, path []data.TrackID, cost float64) []data.TrackID {
	e := memoEntry{key: key, mask: int32(len(m.masks)), path: int32(len(m.paths)), cost: cost}
	m.masks = append(m.masks, m.scratch...)
	m.paths = append(m.paths, path...)
	e.end = int32(len(m.paths))
	m.index[key] = int32(len(m.entries))
	m.entries = append(m.entries, e)
	return m.paths[e.path:e.end:e.end]
}
