package commands

import (
	"encoding/json"
	"time"

	"conductor/data"
	"conductor/engine"
)

// Games at rest cost nothing: a table is loaded when someone (or a
// deadline) acts in its channel and dropped from memory once idle, or when
// more than MaxTables are held (the least recently used first). Nothing
// a table holds is lost: the game is in the store, and what exists only
// in memory (a question waiting for a player's answer, an undo vote, the
// last /board repost) is parked in the store when the table is dropped and
// restored when it is loaded again. A table about to let a bot move is
// kept until the bot has moved.

// Defaults of Config.MaxTables and Config.IdleAfter. A table in memory
// costs some 50 KB (its record with the log, the game, a copy of it for
// autocomplete and the narration for /log).
const (
	DefaultMaxTables = 2000
	DefaultIdleAfter = 15 * time.Minute
)

// lookup finds a channel's table, adding an empty one (fresh) when the
// channel has none in memory, and marks it used.
func (s *Service) lookup(channel string) (t *table, fresh bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.channels[channel]
	if !ok {
		t = &table{svc: s, channel: channel, pending: map[string]pendingAction{}, changed: s.changedHook(channel)}
		s.channels[channel] = t
		t.elem = s.lru.PushFront(t)
	} else {
		s.lru.MoveToFront(t.elem)
	}
	t.used = s.cfg.Now()
	return t, !ok
}

// drop removes a locked table from memory: whoever waits for its lock
// looks the channel up again.
func (s *Service) drop(t *table) {
	t.gone = true
	s.mu.Lock()
	if s.channels[t.channel] == t {
		delete(s.channels, t.channel)
		s.lru.Remove(t.elem)
	}
	s.mu.Unlock()
}

// trim drops the least recently used tables beyond MaxTables. It never
// waits for a table in use.
func (s *Service) trim() {
	for {
		s.mu.Lock()
		if len(s.channels) <= s.cfg.MaxTables {
			s.mu.Unlock()
			return
		}
		victim := s.idleTable(time.Time{})
		s.mu.Unlock()
		if victim == nil {
			return // every table is in use: try again next time
		}
		s.evictLocked(victim)
	}
}

// EvictIdle drops the tables unused for IdleAfter. Run calls it; its cost
// is the tables it drops.
func (s *Service) EvictIdle() {
	before := s.cfg.Now().Add(-s.cfg.IdleAfter)
	for {
		s.mu.Lock()
		victim := s.idleTable(before)
		s.mu.Unlock()
		if victim == nil {
			return
		}
		s.evictLocked(victim)
	}
}

// idleTable returns, locked, the least recently used table that can be
// dropped, among those unused since before (any, when before is zero).
// The caller holds s.mu.
func (s *Service) idleTable(before time.Time) *table {
	for e := s.lru.Back(); e != nil; e = e.Prev() {
		t := e.Value.(*table)
		if !before.IsZero() && t.used.After(before) {
			return nil // the rest were used later
		}
		if !t.mu.TryLock() {
			continue // in use
		}
		if t.botTimer != nil {
			t.mu.Unlock()
			continue // a bot is about to move
		}
		return t
	}
	return nil
}

// evict drops a channel's table from memory if it can be (tests).
func (s *Service) evict(channel string) bool {
	s.mu.Lock()
	t, ok := s.channels[channel]
	s.mu.Unlock()
	if !ok || !t.mu.TryLock() {
		return false
	}
	if t.gone || t.botTimer != nil {
		t.mu.Unlock()
		return false
	}
	s.evictLocked(t)
	return true
}

// evictLocked parks what only the table knows, drops it and unlocks it.
// When the parking fails the table stays.
func (s *Service) evictLocked(t *table) {
	if data := t.parked(s.cfg.Now()); data != nil {
		if err := s.cfg.Store.Park(t.channel, data); err != nil {
			s.log.Warn("park a table", "channel", t.channel, "err", err)
			s.mu.Lock()
			t.used = s.cfg.Now() // not the first victim again at once
			s.lru.MoveToFront(t.elem)
			s.mu.Unlock()
			t.mu.Unlock()
			return
		}
	}
	s.drop(t)
	t.mu.Unlock()
}

// parkedTable is what a table holds besides its game, stored while the
// table is out of memory.
type parkedTable struct {
	Pending    map[string]parkedAction `json:"pending,omitempty"`
	Undo       *parkedUndo             `json:"undo,omitempty"`
	BoardShown time.Time               `json:"board_shown,omitzero"`
}

type parkedAction struct {
	Action engine.Action `json:"action"`
	Pay    bool          `json:"pay,omitempty"`
	Trips  []engine.Trip `json:"trips,omitempty"`
	From   data.CityID   `json:"from,omitempty"`
	Turn   int           `json:"turn"`
}

type parkedUndo struct {
	LogLen int             `json:"log_len"`
	By     string          `json:"by"`
	Voters map[string]bool `json:"voters"`
	Agreed map[string]bool `json:"agreed"`
}

// parked encodes what must survive the table's absence; nil when nothing.
func (t *table) parked(now time.Time) []byte {
	if t.rec == nil {
		return nil
	}
	var p parkedTable
	for user, a := range t.pending {
		if p.Pending == nil {
			p.Pending = map[string]parkedAction{}
		}
		p.Pending[user] = parkedAction{Action: a.action, Pay: a.pay, Trips: a.trips, From: a.from, Turn: a.turn}
	}
	if u := t.undo; u != nil {
		p.Undo = &parkedUndo{LogLen: u.logLen, By: u.by, Voters: u.voters, Agreed: u.agreed}
	}
	if now.Sub(t.boardShown) < boardCooldown {
		p.BoardShown = t.boardShown
	}
	if p.Pending == nil && p.Undo == nil && p.BoardShown.IsZero() {
		return nil
	}
	data, _ := json.Marshal(&p) // plain data always marshals
	return data
}

// unpark restores what a table parked, and clears it from the store.
func (s *Service) unpark(t *table, data []byte) {
	var p parkedTable
	if err := json.Unmarshal(data, &p); err != nil {
		s.log.Warn("unreadable parked table dropped", "channel", t.channel, "err", err)
	}
	for user, a := range p.Pending {
		t.pending[user] = pendingAction{action: a.Action, pay: a.Pay, trips: a.Trips, from: a.From, turn: a.Turn}
	}
	if u := p.Undo; u != nil {
		t.undo = &undoVote{logLen: u.LogLen, by: u.By, voters: u.Voters, agreed: u.Agreed}
		if t.undo.voters == nil {
			t.undo.voters = map[string]bool{}
		}
		if t.undo.agreed == nil {
			t.undo.agreed = map[string]bool{}
		}
	}
	t.boardShown = p.BoardShown
	if err := s.cfg.Store.Park(t.channel, nil); err != nil {
		s.log.Warn("clear a parked table", "channel", t.channel, "err", err)
	}
}
