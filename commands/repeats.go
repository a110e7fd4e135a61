package commands

import "sync"

// recentIDs remembers the last interaction ids handled, so that an
// interaction delivered twice is applied once.
type recentIDs struct {
	mu   sync.Mutex
	ids  map[string]struct{}
	ring []string
	next int
}

const recentCap = 4096

// seen records id and reports whether it was already there.
func (r *recentIDs) seen(id string) bool {
	if id == "" {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids == nil {
		r.ids = make(map[string]struct{}, recentCap)
		r.ring = make([]string, recentCap)
	}
	if _, ok := r.ids[id]; ok {
		return true
	}
	if old := r.ring[r.next]; old != "" {
		delete(r.ids, old)
	}
	r.ring[r.next] = id
	r.next = (r.next + 1) % recentCap
	r.ids[id] = struct{}{}
	return false
}
