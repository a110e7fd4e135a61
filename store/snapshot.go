package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// A snapshot is a game's state after its first Moves moves, in the
// service's own encoding: loading a game replays only the moves after it.
// It is a cache of the log, never the truth: a log cut below it (an undo)
// drops it, and a snapshot the service cannot read is ignored. It is kept
// as the uvarint Moves, then Data.
//
// A parked table is what the service kept in memory of a game and must
// find again when it loads the game after dropping it (a question waiting
// for an answer, a vote): plain bytes, in its own encoding.

// Snapshot is a game's state after its first Moves moves.
type Snapshot struct {
	Moves int
	Data  []byte
}

func readSnapshot(t txn, channel string) (*Snapshot, error) {
	v, err := t.blob(blobSnapshot, channel)
	if err != nil {
		return nil, err
	}
	return decodeSnapshot(channel, v)
}

// decodeSnapshot reads a snapshot as stored (nil: none).
func decodeSnapshot(channel string, v []byte) (*Snapshot, error) {
	if v == nil {
		return nil, nil
	}
	n, k := binary.Uvarint(v)
	if k <= 0 {
		return nil, fmt.Errorf("%w: snapshot of %s", errCorrupt, channel)
	}
	return &Snapshot{Moves: int(n), Data: bytes.Clone(v[k:])}, nil
}

func writeSnapshot(t txn, channel string, snap *Snapshot) error {
	v := binary.AppendUvarint(nil, uint64(snap.Moves))
	return t.putBlob(blobSnapshot, channel, append(v, snap.Data...))
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
	var l Loaded
	err := s.viewOne(func(t txn) error {
		p, err := t.loadGame(channel, true, true)
		if err != nil {
			return err
		}
		rec := p.header
		if rec.Log, err = decodeLog(channel, p.chunks); err != nil {
			return err
		}
		l.Record = rec
		if l.Snapshot, err = decodeSnapshot(channel, p.snapshot); err != nil {
			return err
		}
		if l.Snapshot != nil && l.Snapshot.Moves > len(rec.Log) {
			l.Snapshot = nil
		}
		l.Parked = bytes.Clone(p.parked)
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
	return s.update(func(t txn) error {
		if _, err := t.header(channel); err != nil {
			return err
		}
		if len(data) == 0 {
			return t.deleteBlob(blobParked, channel)
		}
		return t.putBlob(blobParked, channel, data)
	})
}

// SaveSnapshot replaces the snapshot of the live game in channel, when a
// game is loaded from far behind its last one.
func (s *Store) SaveSnapshot(channel string, snap *Snapshot) error {
	return s.update(func(t txn) error {
		if _, err := t.header(channel); err != nil {
			return err
		}
		tail, err := readTail(t, channel)
		if err != nil {
			return err
		}
		if snap.Moves > tail.n {
			return fmt.Errorf("store: a snapshot after %d moves of a log of %d", snap.Moves, tail.n)
		}
		return writeSnapshot(t, channel, snap)
	})
}
