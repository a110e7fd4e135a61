package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Get returns the live game in channel, or ErrNotFound.
func (s *Store) Get(channel string) (*GameRecord, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var rec *GameRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		gb, err := gameBucket(tx, channel)
		if err != nil {
			return err
		}
		rec, err = readGame(gb)
		return err
	})
	return rec, err
}

// Put stores rec as the live game of rec.Channel, replacing any game there.
// It fills in rec.ID (when empty), rec.Created (when zero), rec.Status (lobby
// when empty) and sets rec.Updated to now. A log that repeats an interaction
// id is refused with ErrDuplicate.
func (s *Store) Put(rec *GameRecord) error {
	if err := s.ready(); err != nil {
		return err
	}
	if err := s.prepare(rec); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		return writeGame(tx.Bucket(bucketGames), rec, true)
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
	if err := s.ready(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		if _, err := gameBucket(tx, channel); err != nil {
			return err
		}
		return tx.Bucket(bucketGames).DeleteBucket([]byte(channel))
	})
}

// Update reads the game in channel, lets fn change it and writes it back, all
// in one transaction: if fn (or the write) fails, nothing changes. fn must not
// change the channel. Updated is set to now.
func (s *Store) Update(channel string, fn func(*GameRecord) error) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		gb, err := gameBucket(tx, channel)
		if err != nil {
			return err
		}
		rec, err := readGame(gb)
		if err != nil {
			return err
		}
		// fn may edit the slices in place, so compare against copies.
		oldLog := append([]LogEntry(nil), rec.Log...)
		if err := fn(rec); err != nil {
			return err
		}
		if rec.Channel != channel {
			return fmt.Errorf("store: Update cannot move the game in %s to %s", channel, rec.Channel)
		}
		if err := validate(rec); err != nil {
			return err
		}
		rec.Updated = s.stamp()
		if err := writeHeader(gb, rec); err != nil {
			return err
		}
		return syncLog(gb, oldLog, rec.Log)
	})
}

// AppendAction commits one action to the log of the game in channel and
// returns its index. It returns only once the commit is on disk, so a reply
// sent afterwards never announces a move that a crash could lose. An entry
// whose Interaction was already applied to this game is refused with
// ErrDuplicate. A zero entry.At is set to now.
func (s *Store) AppendAction(channel string, entry LogEntry) (int, error) {
	if err := s.ready(); err != nil {
		return 0, err
	}
	if entry.At.IsZero() {
		entry.At = s.stamp()
	}
	var n int
	err := s.db.Update(func(tx *bolt.Tx) error {
		gb, err := gameBucket(tx, channel)
		if err != nil {
			return err
		}
		lb, ib := gb.Bucket(bucketLog), gb.Bucket(bucketInteractions)
		if lb == nil || ib == nil {
			return fmt.Errorf("%w: game %s without log buckets", errCorrupt, channel)
		}
		n = logLen(lb)
		if err := putEntry(lb, ib, n, entry, true); err != nil {
			return err
		}
		rec, err := readHeader(gb)
		if err != nil {
			return err
		}
		rec.Updated = s.stamp()
		return writeHeader(gb, rec)
	})
	return n, err
}

// List returns every live game, ordered by channel.
func (s *Store) List() ([]*GameRecord, error) {
	return s.list(func(*GameRecord) bool { return true })
}

// ListGuild returns the live games of one guild, ordered by channel.
func (s *Store) ListGuild(guild string) ([]*GameRecord, error) {
	return s.list(func(rec *GameRecord) bool { return rec.Guild == guild })
}

func (s *Store) list(keep func(*GameRecord) bool) ([]*GameRecord, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var recs []*GameRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		return games.ForEach(func(k, _ []byte) error {
			gb := games.Bucket(k)
			if gb == nil {
				return fmt.Errorf("%w: games/%s is not a bucket", errCorrupt, k)
			}
			// Filter on the small header before reading the log.
			head, err := readHeader(gb)
			if err != nil || !keep(head) {
				return err
			}
			if err := readBody(gb, head); err != nil {
				return err
			}
			recs = append(recs, head)
			return nil
		})
	})
	return recs, err
}

func gameBucket(tx *bolt.Tx, channel string) (*bolt.Bucket, error) {
	gb := tx.Bucket(bucketGames).Bucket([]byte(channel))
	if gb == nil {
		return nil, fmt.Errorf("%w in channel %s", ErrNotFound, channel)
	}
	return gb, nil
}

func validate(rec *GameRecord) error {
	switch {
	case rec.Channel == "":
		return errors.New("store: game without a channel")
	case strings.ContainsRune(rec.Guild, 0):
		// NUL separates the parts of archive keys.
		return errors.New("store: guild id contains a NUL byte")
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
