package commands

import "sync"

// handCache keeps the last hand pictures drawn, so that a player asking
// for their hand again (the "My hand" button, /hand while others play)
// costs no drawing when their hand has not changed. A picture is some
// 65 KB: the cache holds handCacheSize of them, the oldest going first.
type handCache struct {
	mu   sync.Mutex
	pngs map[handKey][]byte
	ring [handCacheSize]handKey
	next int
}

const handCacheSize = 64

// handKey names a hand picture: a seat of a game at a position, in a
// language, under a name (a seat a bot took over is named anew).
type handKey struct {
	channel string
	at      position
	seat    int
	locale  string
	name    string
}

func (c *handCache) get(k handKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	png, ok := c.pngs[k]
	return png, ok
}

func (c *handCache) put(k handKey, png []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pngs == nil {
		c.pngs = make(map[handKey][]byte, handCacheSize)
	}
	if _, ok := c.pngs[k]; ok {
		return
	}
	delete(c.pngs, c.ring[c.next])
	c.ring[c.next] = k
	c.next = (c.next + 1) % handCacheSize
	c.pngs[k] = png
}
