package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// A snapshot is a game's state after its first Moves moves, in the
// service's own encoding: loading a game replays only the moves after it.
// It is a cache of the log, never the truth: a log cut below it (an undo)
// drops it, and a snapshot the service cannot read is ignored.
//
//	snapshots/<channel>   uvarint Moves, then Data
//
// A parked table is what the service kept in memory of a game and must
// find again when it loads the game after dropping it (a question waiting
// for an answer, a vote): plain bytes, in its own encoding.
//
//	parked/<channel>      the bytes

// Snapshot is a game's state after its first Moves moves.
type Snapshot struct {
	Moves int
	Data  []byte
}

func readSnapshot(tx *bolt.Tx, channel string) (*Snapshot, error) {
	v := tx.Bucket(bucketSnapshots).Get([]byte(channel))
	if v == nil {
		return nil, nil
	}
	n, k := binary.Uvarint(v)
	if k <= 0 {
		return nil, fmt.Errorf("%w: snapshot of %s", errCorrupt, channel)
	}
	return &Snapshot{Moves: int(n), Data: bytes.Clone(v[k:])}, nil
}

func writeSnapshot(tx *bolt.Tx, channel string, snap *Snapshot) error {
	v := binary.AppendUvarint(nil, uint64(snap.Moves))
	return tx.Bucket(bucketSnapshots).Put([]byte(channel), append(v, snap.Data...))
}

// Loaded is a live game with what the service keeps beside its record.
type Loaded struct {
	Record *GameRecord
	// Snapshot is the latest snapshot of the game (nil: none); its Moves
	// never exceeds the log's length.
	Snapshot *Snapshot
	// Parked is what the service parked when it last dropped the game
	// from memory (nil: nothing).
	Parked []byte
}

// Load reads the live game in channel with its snapshot and parked state,
// or returns ErrNotFound.
func (s *Store) Load(channel string) (*Loaded, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var l Loaded
	err := s.db.View(func(tx *bolt.Tx) error {
		rec, err := readHeader(tx, channel)
		if err != nil {
			return err
		}
		if rec.Log, err = readLog(tx, channel); err != nil {
			return err
		}
		l.Record = rec
		if l.Snapshot, err = readSnapshot(tx, channel); err != nil {
			return err
		}
		if l.Snapshot != nil && l.Snapshot.Moves > len(rec.Log) {
			l.Snapshot = nil
		}
		if v := tx.Bucket(bucketParked).Get([]byte(channel)); v != nil {
			l.Parked = bytes.Clone(v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &l, nil
}

// Park keeps data for the live game in channel until the service loads it
// again (nil or empty data removes it). It returns ErrNotFound when the
// channel holds no game.
func (s *Store) Park(channel string, data []byte) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketGames).Get([]byte(channel)) == nil {
			return fmt.Errorf("%w in channel %s", ErrNotFound, channel)
		}
		if len(data) == 0 {
			return tx.Bucket(bucketParked).Delete([]byte(channel))
		}
		return tx.Bucket(bucketParked).Put([]byte(channel), data)
	})
}

// SaveSnapshot replaces the snapshot of the live game in channel, when a
// game is loaded from far behind its last one.
func (s *Store) SaveSnapshot(channel string, snap *Snapshot) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if _, err := readHeader(tx, channel); err != nil {
			return err
		}
		tail, err := readTail(tx, channel)
		if err != nil {
			return err
		}
		if snap.Moves > tail.n {
			return fmt.Errorf("store: a snapshot after %d moves of a log of %d", snap.Moves, tail.n)
		}
		return writeSnapshot(tx, channel, snap)
	})
}
