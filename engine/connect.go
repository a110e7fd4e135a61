package engine

import "conductor/data"

// Connectivity answers "do these tracks join these two places?" for one
// player's network: a union-find over the board's nodes. Tracks into a Märklin
// country are kept aside instead of joined, because a country is a dead end: a
// path may end there but never passes through it, so two tracks into one
// country never link the cities at their other ends.
//
// Reset it for a board, Add tracks, then ask Connected. One value reused for
// many networks allocates nothing once its buffers have grown.
type Connectivity struct {
	board   *data.Board
	parent  []data.CityID
	deadEnd []bool // by TrackID: added tracks with a country at one end
}

// Reset empties the network and sizes it for b.
func (c *Connectivity) Reset(b *data.Board) {
	c.board = b
	c.parent = grow(c.parent, len(b.Cities))
	for i := range c.parent {
		c.parent[i] = data.CityID(i)
	}
	c.deadEnd = grow(c.deadEnd, len(b.Tracks))
	clear(c.deadEnd)
}

// CopyFrom makes c the same network as src, reusing c's buffers.
func (c *Connectivity) CopyFrom(src *Connectivity) {
	c.board = src.board
	c.parent = grow(c.parent, len(src.parent))
	copy(c.parent, src.parent)
	c.deadEnd = grow(c.deadEnd, len(src.deadEnd))
	copy(c.deadEnd, src.deadEnd)
}

// Add puts track t into the network.
func (c *Connectivity) Add(t data.TrackID) {
	tr := &c.board.Tracks[t]
	if c.board.Cities[tr.A].Country || c.board.Cities[tr.B].Country {
		c.deadEnd[t] = true
		return
	}
	ra, rb := c.find(tr.A), c.find(tr.B)
	if ra != rb {
		c.parent[ra] = rb
	}
}

// AddOwned puts every track marked in owned (indexed by TrackID) into the network.
func (c *Connectivity) AddOwned(owned []bool) {
	for t, ok := range owned[:min(len(owned), len(c.board.Tracks))] {
		if ok {
			c.Add(data.TrackID(t))
		}
	}
}

func (c *Connectivity) find(x data.CityID) data.CityID {
	p := c.parent
	for p[x] != x {
		p[x] = p[p[x]] // path halving keeps later finds short
		x = p[x]
	}
	return x
}

// Connected reports whether the network joins a and z. A country end is
// reached through any added track into it (Österreich's two areas are one
// node, so either area will do).
func (c *Connectivity) Connected(a, z data.CityID) bool {
	if a == z {
		return true
	}
	b := c.board
	aCountry, zCountry := b.Cities[a].Country, b.Cities[z].Country
	switch {
	case !aCountry && !zCountry:
		return c.find(a) == c.find(z)
	case aCountry && zCountry:
		for _, t := range b.Adj[a] {
			if c.deadEnd[t] && c.reachesCountry(c.find(b.Tracks[t].Other(a)), z) {
				return true
			}
		}
		return false
	case aCountry:
		a, z = z, a
	}
	return c.reachesCountry(c.find(a), z)
}

// reachesCountry reports whether an added track leads from the component
// with root r into country k. Boards never join two countries
// (data.Validate), so the other end of a track into k is a city.
func (c *Connectivity) reachesCountry(r, k data.CityID) bool {
	b := c.board
	for _, t := range b.Adj[k] {
		if c.deadEnd[t] && c.find(b.Tracks[t].Other(k)) == r {
			return true
		}
	}
	return false
}

// stackNodes is the board size Connected handles without touching the heap.
const stackNodes = 128

// Connected reports whether the tracks marked in owned (indexed by TrackID)
// join a and c, with Märklin countries as dead ends.
func Connected(b *data.Board, owned []bool, a, c data.CityID) bool {
	var parent [stackNodes]data.CityID
	n := Connectivity{board: b, parent: parent[:0]}
	n.parent = grow(n.parent, len(b.Cities))
	for i := range n.parent {
		n.parent[i] = data.CityID(i)
	}
	// Only tracks into countries are looked up in deadEnd, and those of
	// them in the network are exactly the owned ones.
	n.deadEnd = owned
	if len(owned) < len(b.Tracks) {
		n.deadEnd = make([]bool, len(b.Tracks))
		copy(n.deadEnd, owned)
	}
	for t, ok := range owned[:min(len(owned), len(b.Tracks))] {
		if ok {
			tr := &b.Tracks[t]
			if !b.Cities[tr.A].Country && !b.Cities[tr.B].Country {
				if ra, rb := n.find(tr.A), n.find(tr.B); ra != rb {
					n.parent[ra] = rb
				}
			}
		}
	}
	return n.Connected(a, c)
}
