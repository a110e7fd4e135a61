package commands

import (
	"container/list"
	"sync"
	"time"

	"conductor/store"
)

// Games at rest cost nothing: a table is loaded when someone (or a
// deadline) acts in its channel and dropped from memory once idle, or when
// more than MaxTables are held (the least recently used first). Nothing
// a table holds is lost: the game is in the store, and what exists only
// in memory (a question waiting for a player's answer, an undo vote, the
// last /board repost) is parked in the store when the table is dropped and
// restored when it is loaded again (parked.go). A table about to let a bot
// move is kept until the bot has moved.

// Defaults of Config.MaxTables and Config.IdleAfter. A table in memory
// costs some 50 KB (its record with the log, the game, a copy of it for
// autocomplete and the narration for /log).
const (
	DefaultMaxTables = 2000
	DefaultIdleAfter = 15 * time.Minute
)

// tableCache holds the tables in memory.
type tableCache struct {
	max       int
	idleAfter time.Duration
	now       func() time.Time
	// open makes the empty table of a channel that has none in memory.
	open func(channel string) *table
	// park stores what only a locked table knows before it is dropped;
	// false when it could not (the table stays).
	park func(t *table) bool
	// notes are what the sender learned for the tables: a table takes
	// its own each time it is locked.
	notes *notes

	// mu guards byChannel and lru, and each table's elem and used. A
	// table's lock may be held when mu is taken, never the other way
	// round (TryLock excepted).
	mu        sync.Mutex
	byChannel map[string]*table
	lru       *list.List // most recently used first
}

func newTableCache(max int, idleAfter time.Duration, now func() time.Time, open func(string) *table, park func(*table) bool, notes *notes) *tableCache {
	return &tableCache{max: max, idleAfter: idleAfter, now: now, open: open, park: park, notes: notes,
		byChannel: map[string]*table{}, lru: list.New()}
}

// lookup finds a channel's table, adding an empty one (fresh) when the
// channel has none in memory, and marks it used.
func (c *tableCache) lookup(channel string) (t *table, fresh bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byChannel[channel]
	if !ok {
		t = c.open(channel)
		c.byChannel[channel] = t
		t.elem = c.lru.PushFront(t)
	} else {
		c.lru.MoveToFront(t.elem)
	}
	t.used = c.now()
	return t, !ok
}

// loaded is a channel's table if it is in memory, not locked.
func (c *tableCache) loaded(channel string) (*table, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byChannel[channel]
	return t, ok
}

// all are the tables in memory, not locked.
func (c *tableCache) all() []*table {
	c.mu.Lock()
	defer c.mu.Unlock()
	tables := make([]*table, 0, len(c.byChannel))
	for _, t := range c.byChannel {
		tables = append(tables, t)
	}
	return tables
}

// len is the number of tables in memory.
func (c *tableCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byChannel)
}

// drop removes a locked table from memory: whoever waits for its lock
// looks the channel up again.
func (c *tableCache) drop(t *table) {
	t.gone = true
	c.mu.Lock()
	if c.byChannel[t.channel] == t {
		delete(c.byChannel, t.channel)
		c.lru.Remove(t.elem)
	}
	c.mu.Unlock()
}

// trim drops the least recently used tables beyond max. It never waits
// for a table in use.
func (c *tableCache) trim() {
	for {
		c.mu.Lock()
		if len(c.byChannel) <= c.max {
			c.mu.Unlock()
			return
		}
		victim := c.idle(time.Time{})
		c.mu.Unlock()
		if victim == nil {
			return // every table is in use: try again next time
		}
		c.evictLocked(victim)
	}
}

// evictIdle drops the tables unused for idleAfter; its cost is the tables
// it drops.
func (c *tableCache) evictIdle() {
	before := c.now().Add(-c.idleAfter)
	for {
		c.mu.Lock()
		victim := c.idle(before)
		c.mu.Unlock()
		if victim == nil {
			return
		}
		c.evictLocked(victim)
	}
}

// idle returns, locked, the least recently used table that can be
// dropped, among those unused since before (any, when before is zero).
// The caller holds c.mu.
func (c *tableCache) idle(before time.Time) *table {
	for e := c.lru.Back(); e != nil; e = e.Prev() {
		t := e.Value.(*table)
		if !before.IsZero() && t.used.After(before) {
			return nil // the rest were used later
		}
		if !t.mu.TryLock() {
			continue // in use
		}
		if t.bot.busy() {
			t.mu.Unlock()
			continue // a bot is about to move
		}
		return t
	}
	return nil
}

// evict drops a channel's table from memory if it can be (tests).
func (c *tableCache) evict(channel string) bool {
	t, ok := c.loaded(channel)
	if !ok || !t.mu.TryLock() {
		return false
	}
	if t.gone || t.bot.busy() {
		t.mu.Unlock()
		return false
	}
	c.evictLocked(t)
	return true
}

// evictLocked parks what only the table knows, drops it and unlocks it.
// When the parking fails the table stays.
func (c *tableCache) evictLocked(t *table) {
	if !c.park(t) {
		c.mu.Lock()
		t.used = c.now() // not the first victim again at once
		c.lru.MoveToFront(t.elem)
		c.mu.Unlock()
		t.mu.Unlock()
		return
	}
	c.drop(t)
	t.mu.Unlock()
}

// get returns a channel's table, locked, loading it from the store on
// first use, with the notes the sender left for it taken in. The caller
// unlocks it.
func (c *tableCache) get(channel string) (*table, error) {
	for {
		t, fresh := c.lookup(channel)
		t.mu.Lock()
		if t.gone {
			// Dropped while we waited: look again.
			t.mu.Unlock()
			continue
		}
		if fresh || (t.rec != nil && t.game == nil && t.rec.Status == store.StatusPlaying) {
			if err := t.load(); err != nil {
				c.drop(t)
				t.mu.Unlock()
				return nil, err
			}
		}
		t.learn(c.notes.take(channel))
		if fresh {
			c.trim()
		}
		return t, nil
	}
}

// EvictIdle drops the tables unused for IdleAfter. Run calls it.
func (s *Service) EvictIdle() {
	s.tables.evictIdle()
	s.mirrors.evictIdle(s.cfg.Now().Add(-s.cfg.IdleAfter))
}

// openTable is the empty table of a channel, before it is loaded, with
// what every table works with.
func (s *Service) openTable(channel string) *table {
	return &table{channel: channel, store: s.cfg.Store, fleet: s.cfg.Fleet, catalog: s.cfg.Catalog, now: s.cfg.Now, log: s.log,
		out: s.out, alarm: s.timers.alarm, bots: s.runner,
		botDelay: s.cfg.BotDelay, lobbyExpiry: s.cfg.LobbyExpiry, page: s.cfg.Activity, changed: s.changedHook(channel),
		pending: map[string]pendingAction{}}
}

// parkTable stores what only a locked table knows; false when it could not.
func (s *Service) parkTable(t *table) bool {
	data := t.parked(s.cfg.Now())
	if data == nil {
		return true
	}
	if err := s.cfg.Store.Park(t.channel, data); err != nil {
		s.log.Warn("park a table", "channel", t.channel, "err", err)
		return false
	}
	return true
}
