package commands

import (
	"errors"
	"sync"
	"time"

	"conductor/store"
)

// Several processes may serve one PostgreSQL database, each owning the
// tables of some servers (Config.Owns). A live page opened through one
// process may show a game whose table another owns: this process then
// reads the game from the store into a mirror, never into its table cache
// (a table loaded here could clear what the owner parked, or save over
// it). A mirror is read only: it schedules no bot, sets no deadline, parks
// nothing. It is read again when the store says its channel changed
// (Refresh: the live page's subscription to the store's notifications),
// and its version goes on from the last one, so that a page's frames keep
// their order.
//
// What exists only in the owner's memory (a question waiting for a
// player's answer, an undo vote) shows on a mirror once the owner parked
// it; the moves themselves, and the answer to the reader's own move, are
// always there.

// mirrors are the tables of other processes read here, at most max, the
// least recently read out first.
type mirrors struct {
	max int
	mu  sync.Mutex
	m   map[string]*mirror
}

type mirror struct {
	// load serializes the mirror's reads; t is the read-only table they
	// fill, whose snapshot View reads.
	load sync.Mutex
	t    *table
	used time.Time
}

func newMirrors(max int) *mirrors { return &mirrors{max: max, m: map[string]*mirror{}} }

// owns says whether this process owns the tables of guild.
func (s *Service) owns(guild string) bool { return s.cfg.Owns == nil || s.cfg.Owns(guild) }

// Owns says whether this process plays the moves of guild's games: when
// it does not, another process on the same database does (the live page
// forwards its moves there).
func (s *Service) Owns(guild string) bool { return s.owns(guild) }

// mirrored is the snapshot of a channel's game when another process owns
// it (ok false when this process owns it, or the channel has no game).
func (s *Service) mirrored(channel string) (snap *tableSnapshot, ok bool) {
	if s.cfg.Owns == nil {
		return nil, false
	}
	now := s.cfg.Now()
	s.mirrors.mu.Lock()
	m := s.mirrors.m[channel]
	if m != nil {
		m.used = now
	}
	s.mirrors.mu.Unlock()
	if m == nil {
		if _, loaded := s.tables.loaded(channel); loaded {
			return nil, false // played here
		}
		rec, err := s.cfg.Store.Header(channel)
		if errors.Is(err, store.ErrNotFound) {
			// No game: nothing to load, here or in a mirror (an empty
			// table kept here would hide a game another process opens).
			return nil, true
		}
		if err != nil || s.owns(rec.Guild) {
			return nil, false
		}
		m = s.mirrors.add(channel, s.openTable(channel), now)
	}
	if snap := m.t.snap.Load(); snap != nil {
		return snap, true
	}
	if _, _, err := s.reload(m); err != nil {
		s.log.Warn("read another process's table", "channel", channel, "err", err)
		return nil, true
	}
	return m.t.snap.Load(), true
}

func (ms *mirrors) add(channel string, t *table, now time.Time) *mirror {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if m := ms.m[channel]; m != nil {
		return m
	}
	if len(ms.m) >= ms.max {
		var oldest string
		for ch, m := range ms.m {
			if oldest == "" || m.used.Before(ms.m[oldest].used) {
				oldest = ch
			}
		}
		delete(ms.m, oldest)
	}
	t.mirror, t.changed = true, nil
	m := &mirror{t: t, used: now}
	ms.m[channel] = m
	return m
}

// reload reads a mirror's game again and publishes it (telling the live
// page when it changed); it returns the game's server, read under the
// table's lock (has false without a game).
func (s *Service) reload(m *mirror) (guild string, has bool, err error) {
	m.load.Lock()
	defer m.load.Unlock()
	t := m.t
	t.mu.Lock()
	t.pending, t.undo = map[string]pendingAction{}, nil
	err = t.load()
	changed := err == nil && t.publish()
	if t.rec != nil {
		guild, has = t.rec.Guild, true
	}
	t.mu.Unlock()
	if changed && s.cfg.Activity != nil {
		s.cfg.Activity.Changed(t.channel)
	}
	return guild, has, err
}

// Refresh reads again the game of a channel another process owns, when it
// is mirrored here, and tells the live page if it changed. The live page
// calls it for every change the store announces (store.Subscribe); with
// missed set, every mirror is read again. A channel that is this
// process's own is left alone: its table told the page already.
func (s *Service) Refresh(channel string, missed bool) {
	if s.cfg.Owns == nil {
		return
	}
	s.mirrors.mu.Lock()
	var todo []*mirror
	for ch, m := range s.mirrors.m {
		if missed || ch == channel {
			todo = append(todo, m)
		}
	}
	s.mirrors.mu.Unlock()
	for _, m := range todo {
		guild, has, err := s.reload(m)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("read another process's table again", "channel", m.t.channel, "err", err)
		}
		// A table whose server this process now owns is played here.
		if has && s.owns(guild) {
			s.mirrors.mu.Lock()
			if s.mirrors.m[m.t.channel] == m {
				delete(s.mirrors.m, m.t.channel)
			}
			s.mirrors.mu.Unlock()
		}
	}
}

// evictIdle drops the mirrors unread since before.
func (ms *mirrors) evictIdle(before time.Time) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	for ch, m := range ms.m {
		if m.used.Before(before) {
			delete(ms.m, ch)
		}
	}
}
