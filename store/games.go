package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Get returns the live game in channel, or ErrNotFound.
func (s *Store) Get(channel string) (*GameRecord, error) {
	var rec *GameRecord
	err := s.viewOne(func(t txn) error {
		p, err := t.loadGame(channel, true, false)
		if err != nil {
			return err
		}
		rec = p.header
		rec.Log, err = decodeLog(channel, p.chunks)
		return err
	})
	return rec, err
}

// Header returns the live game in channel without its log, or ErrNotFound:
// what a lookup needs (seats, options, status) at the cost of one key.
func (s *Store) Header(channel string) (*GameRecord, error) {
	var rec *GameRecord
	err := s.viewOne(func(t txn) (err error) {
		rec, err = t.header(channel)
		return err
	})
	return rec, err
}

// Put stores rec as the live game of rec.Channel, replacing any game there
// (its snapshot and parked state included).
// It fills in rec.ID (when empty), rec.Created (when zero), rec.Status (lobby
// when empty) and sets rec.Updated to now. A log that repeats an interaction
// id is refused with ErrDuplicate.
func (s *Store) Put(rec *GameRecord) error {
	if err := s.prepare(rec); err != nil {
		return err
	}
	return s.update(func(t txn) error {
		if err := writeGame(t, rec, true); err != nil {
			return err
		}
		return t.notify(rec.Channel)
	})
}

// prepare checks rec and fills in what Put fills in.
func (s *Store) prepare(rec *GameRecord) error {
	if err := validate(rec); err != nil {
		return err
	}
	if rec.ID == "" {
		rec.ID = NewGameID()
	}
	now := s.stamp()
	if rec.Created.IsZero() {
		rec.Created = now
	}
	if rec.Status == "" {
		rec.Status = StatusLobby
	}
	rec.Updated = now
	return nil
}

// Delete removes the live game in channel, or returns ErrNotFound.
func (s *Store) Delete(channel string) error {
	return s.update(func(t txn) error {
		old, err := t.header(channel)
		if err != nil {
			return err
		}
		if err := t.deleteGame(old); err != nil {
			return err
		}
		return t.notify(channel)
	})
}

// Update reads the game in channel, lets fn change it and writes it back, all
// in one transaction: if fn (or the write) fails, nothing changes. fn must not
// change the channel. Updated is set to now. fn may be called more than once
// (on PostgreSQL, a transaction that lost a race with another writer runs
// again), each time with the record as stored: it should only change it.
func (s *Store) Update(channel string, fn func(*GameRecord) error) error {
	return s.update(func(t txn) error {
		old, err := t.header(channel)
		if err != nil {
			return err
		}
		if old.Log, err = readLog(t, channel); err != nil {
			return err
		}
		rec := *old
		// fn may edit the slices and maps in place: keep what was stored.
		rec.Log = append([]LogEntry(nil), old.Log...)
		rec.Seats = append([]Seat(nil), old.Seats...)
		rec.Options = cloneMap(old.Options)
		rec.Messages = cloneMap(old.Messages)
		if old.Due != nil {
			d := *old.Due
			rec.Due = &d
		}
		if err := fn(&rec); err != nil {
			return err
		}
		if rec.Channel != channel {
			return fmt.Errorf("store: Update cannot move the game in %s to %s", channel, rec.Channel)
		}
		if err := validate(&rec); err != nil {
			return err
		}
		rec.Updated = s.stamp()
		if err := writeHeader(t, old, &rec); err != nil {
			return err
		}
		if err := syncLog(t, channel, old.Log, rec.Log); err != nil {
			return err
		}
		return t.notify(channel)
	})
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// AppendAction commits one action to the log of the game in channel and
// returns its index. It returns only once the commit is on disk, so a reply
// sent afterwards never announces a move that a crash could lose. An entry
// whose Interaction was already applied to this game is refused with
// ErrDuplicate. A zero entry.At is set to now, to the millisecond.
func (s *Store) AppendAction(channel string, entry LogEntry) (int, error) {
	return s.Commit(channel, MoveCommit{Entry: entry})
}

// MoveCommit is everything one applied action writes, in one transaction.
type MoveCommit struct {
	Entry LogEntry
	// Posts are queued for the channel (outbox.go).
	Posts []OutboxEntry
	// SetDue replaces the game's deadline with Due (nil: none); without
	// it the deadline stays as it was.
	SetDue bool
	Due    *Deadline
	// Snapshot, when not nil, replaces the game's snapshot. Its Moves
	// counts Entry.
	Snapshot *Snapshot
	// Fence, when not nil, commits the move only while the lease it names
	// is held (ErrLeaseLost otherwise): a fleet's process commits under
	// its lease on the game's shard (lease.go).
	Fence *Fence
}

// Commit appends c.Entry to the log of the game in channel, with what it
// causes, in one transaction, and returns the entry's index. See
// AppendAction.
func (s *Store) Commit(channel string, c MoveCommit) (int, error) {
	entry := c.Entry
	if entry.At.IsZero() {
		entry.At = s.stamp().Truncate(time.Millisecond)
	}
	entry.At = entry.At.UTC()
	var n int
	err := s.update(func(t txn) error {
		if c.Fence != nil {
			if err := t.checkFence(c.Fence); err != nil {
				return err
			}
		}
		old, err := t.header(channel)
		if err != nil {
			return err
		}
		tail, err := readTail(t, channel)
		if err != nil {
			return err
		}
		if tail.repeats(entry.Interaction) {
			return ErrDuplicate
		}
		n = tail.n
		if err := appendLog(t, channel, tail, &entry); err != nil {
			return err
		}
		rec := *old
		rec.Updated = s.stamp()
		if c.SetDue {
			rec.Due = c.Due
		}
		if err := writeHeader(t, old, &rec); err != nil {
			return err
		}
		if c.Snapshot != nil {
			if c.Snapshot.Moves > n+1 {
				return fmt.Errorf("store: a snapshot after %d moves of a log of %d", c.Snapshot.Moves, n+1)
			}
			if err := writeSnapshot(t, channel, c.Snapshot); err != nil {
				return err
			}
		}
		if err := s.enqueueTx(t, channel, old.Guild, c.Posts); err != nil {
			return err
		}
		return t.notify(channel)
	})
	return n, err
}

// List returns every live game, ordered by channel. It reads the whole
// database: for tools, not for requests.
func (s *Store) List() ([]*GameRecord, error) {
	var recs []*GameRecord
	err := s.view(func(t txn) error {
		recs = nil
		if err := t.eachHeader(func(rec *GameRecord) error {
			recs = append(recs, rec)
			return nil
		}); err != nil {
			return err
		}
		for _, rec := range recs {
			var err error
			if rec.Log, err = readLog(t, rec.Channel); err != nil {
				return err
			}
		}
		return nil
	})
	return recs, err
}

// ListGuild returns the live games of one guild, ordered by channel, found
// by the guild index.
func (s *Store) ListGuild(guild string) ([]*GameRecord, error) {
	var recs []*GameRecord
	err := s.view(func(t txn) error {
		games, err := t.guildGames(guild)
		if err != nil {
			return err
		}
		recs = nil
		for _, g := range games {
			rec, err := t.header(g.Channel)
			if err != nil {
				return err
			}
			if rec.Log, err = readLog(t, g.Channel); err != nil {
				return err
			}
			recs = append(recs, rec)
		}
		return nil
	})
	return recs, err
}

func validate(rec *GameRecord) error {
	switch {
	case rec.Channel == "":
		return errors.New("store: game without a channel")
	case strings.ContainsAny(rec.Channel, "\x00\x01"):
		// NUL ends a channel id in the log's keys.
		return errors.New("store: channel id contains a NUL byte")
	case strings.ContainsRune(rec.Guild, 0):
		// NUL separates the parts of archive keys.
		return errors.New("store: guild id contains a NUL byte")
	case !utf8.ValidString(rec.Channel) || !utf8.ValidString(rec.Guild):
		// PostgreSQL keeps them as text, which must be UTF-8.
		return errors.New("store: channel or guild id is not UTF-8")
	}
	return nil
}

// NewGameID returns a random 64-bit game id in hex: Put gives one to a
// record without; a caller that must name the game before storing it (in
// the posts stored with it) takes one first.
func NewGameID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
