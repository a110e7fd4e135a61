package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// A lobby is stored with the posts that show it, in one transaction: a
// crash never leaves a table nobody can see or join.

// PutWithPosts is Put and Enqueue in one transaction: rec is stored as the
// live game of rec.Channel and the posts are queued for it (or for the
// queue each names).
func (s *Store) PutWithPosts(rec *GameRecord, posts ...OutboxEntry) error {
	if err := s.ready(); err != nil {
		return err
	}
	if err := s.prepare(rec); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if err := writeGame(tx, rec, true); err != nil {
			return err
		}
		return s.enqueueTx(tx, rec.Channel, posts)
	})
}

// Lobbies lists the tables of a guild still forming (Status lobby): the
// guild index names them with their status, so only their headers are read.
func (s *Store) Lobbies(guild string) ([]*GameRecord, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var out []*GameRecord
	prefix := guildPrefix(guild)
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketIndexGuild).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if string(v) != StatusLobby {
				continue
			}
			rec, err := readHeader(tx, string(k[len(prefix):]))
			if err != nil {
				return err
			}
			out = append(out, rec)
		}
		return nil
	})
	return out, err
}

// ErrRematched: the finished game already had its rematch.
var ErrRematched = errors.New("store: the game already had its rematch")

// rematchOption is the archived game's option naming its rematch's id.
const rematchOption = "rematch"

// RematchMark is the id of the table opened as the rematch of an archived
// game, or "": the archived game keeps it for ever (the rematch index,
// RematchOf, knows only live rematches).
func RematchMark(archived *GameRecord) string { return archived.Options[rematchOption] }

// PutRematch stores rec, the rematch of the archived game under key, with
// the posts that show it, and marks the archived game as rematched, all in
// one transaction: a finished game gets one rematch, ever, even across
// restarts. ErrRematched when it already had one.
func (s *Store) PutRematch(key string, rec *GameRecord, posts ...OutboxEntry) error {
	if err := s.ready(); err != nil {
		return err
	}
	if err := s.prepare(rec); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		archived := tx.Bucket(bucketArchivedGames)
		raw := archived.Get([]byte(key))
		if raw == nil {
			return fmt.Errorf("%w in the archive", ErrNotFound)
		}
		var old GameRecord
		if err := json.Unmarshal(raw, &old); err != nil {
			return fmt.Errorf("%w: archived game %q: %v", errCorrupt, key, err)
		}
		if RematchMark(&old) != "" {
			return ErrRematched
		}
		if old.Options == nil {
			old.Options = map[string]string{}
		}
		old.Options[rematchOption] = rec.ID
		full, err := json.Marshal(&old)
		if err != nil {
			return err
		}
		if err := archived.Put([]byte(key), full); err != nil {
			return err
		}
		if err := writeGame(tx, rec, true); err != nil {
			return err
		}
		return s.enqueueTx(tx, rec.Channel, posts)
	})
}
