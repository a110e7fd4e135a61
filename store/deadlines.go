package store

import (
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Deadlines as data: a game's GameRecord.Due is indexed by time, so that
// the service sleeps until the earliest one and wakes only for what is
// due, whatever the number of games at rest. The index is written with the
// header (index.go), so it always says what the records say.
//
//	deadlines/<8-byte at> <channel>   Deadline.Kind
//
// at is Unix nanoseconds with the sign bit flipped, big-endian, so that
// keys sort by time.
var bucketDeadlines = []byte("deadlines")

func dueKey(at time.Time, channel string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())^(1<<63)), channel...)
}

func dueTime(key []byte) time.Time {
	return time.Unix(0, int64(binary.BigEndian.Uint64(key)^(1<<63))).UTC()
}

// DueGame is a game's entry in the deadline index.
type DueGame struct {
	Channel string
	At      time.Time
	Kind    string
}

// Due lists up to limit games whose deadline is at or before until,
// earliest first.
func (s *Store) Due(until time.Time, limit int) ([]DueGame, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var out []DueGame
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketDeadlines).Cursor()
		for k, v := c.First(); k != nil && len(out) < limit; k, v = c.Next() {
			if len(k) < 8 {
				continue
			}
			at := dueTime(k)
			if at.After(until) {
				break
			}
			out = append(out, DueGame{Channel: string(k[8:]), At: at, Kind: string(v)})
		}
		return nil
	})
	return out, err
}

// NextDue returns the earliest deadline; ok is false when no game has one.
func (s *Store) NextDue() (d DueGame, ok bool, err error) {
	if err := s.ready(); err != nil {
		return d, false, err
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		k, v := tx.Bucket(bucketDeadlines).Cursor().First()
		if len(k) >= 8 {
			d, ok = DueGame{Channel: string(k[8:]), At: dueTime(k), Kind: string(v)}, true
		}
		return nil
	})
	return d, ok, err
}

// SetDue replaces the deadline of the game in channel (nil: none) and
// queues posts, in one transaction: a reminder is sent once, and the
// deadline that caused it moves on with it.
func (s *Store) SetDue(channel string, due *Deadline, posts ...OutboxEntry) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		old, err := readHeader(tx, channel)
		if err != nil {
			return err
		}
		rec := *old
		rec.Due = due
		if err := writeHeader(tx, old, &rec); err != nil {
			return err
		}
		return s.enqueueTx(tx, channel, posts)
	})
}
