package store

import (
	"math"
	"time"
)

// Deadlines as data: a game's GameRecord.Due is indexed by time, so that
// the service sleeps until the earliest one and wakes only for what is
// due, whatever the number of games at rest. The index is written with the
// header (index.go), so it always says what the records say. Deadlines
// are ordered by their time to the nanosecond, then by channel.

// DueGame is a game's entry in the deadline index.
type DueGame struct {
	Channel string
	At      time.Time
	Kind    string
}

// Due lists up to limit games whose deadline is at or before until,
// earliest first.
func (s *Store) Due(until time.Time, limit int) ([]DueGame, error) {
	var out []DueGame
	if limit <= 0 {
		return nil, s.ready()
	}
	err := s.viewOne(func(t txn) (err error) {
		out, err = t.due(until, limit)
		return err
	})
	return out, err
}

// NextDue returns the earliest deadline; ok is false when no game has one.
func (s *Store) NextDue() (d DueGame, ok bool, err error) {
	var out []DueGame
	err = s.viewOne(func(t txn) (err error) {
		out, err = t.due(time.Unix(0, math.MaxInt64), 1)
		return err
	})
	if err != nil || len(out) == 0 {
		return d, false, err
	}
	return out[0], true, nil
}

// dueNanos is the time of a deadline as the indexes order it: Unix
// nanoseconds, clamped to what an int64 holds.
func dueNanos(at time.Time) int64 {
	switch {
	case at.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case at.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return at.UnixNano()
}

// SetDue replaces the deadline of the game in channel (nil: none) and
// queues posts, in one transaction: a reminder is sent once, and the
// deadline that caused it moves on with it.
func (s *Store) SetDue(channel string, due *Deadline, posts ...OutboxEntry) error {
	return s.update(func(t txn) error {
		old, err := t.header(channel)
		if err != nil {
			return err
		}
		rec := *old
		rec.Due = due
		if err := writeHeader(t, old, &rec); err != nil {
			return err
		}
		return s.enqueueTx(t, channel, old.Guild, posts)
	})
}
