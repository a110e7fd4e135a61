package store

import (
	"encoding/json"
	"errors"
	"fmt"
)

// A lobby is stored with the posts that show it, in one transaction: a
// crash never leaves a table nobody can see or join.

// PutWithPosts is Put and Enqueue in one transaction: rec is stored as the
// live game of rec.Channel and the posts are queued for it (or for the
// queue each names).
func (s *Store) PutWithPosts(rec *GameRecord, posts ...OutboxEntry) error {
	if err := s.prepare(rec); err != nil {
		return err
	}
	return s.update(func(t txn) error {
		if err := writeGame(t, rec, true); err != nil {
			return err
		}
		if err := s.enqueueTx(t, rec.Channel, rec.Guild, posts); err != nil {
			return err
		}
		return t.notify(rec.Channel)
	})
}

// Lobbies lists the tables of a guild still forming (Status lobby): the
// guild index names them with their status, so only their headers are read.
func (s *Store) Lobbies(guild string) ([]*GameRecord, error) {
	var out []*GameRecord
	err := s.view(func(t txn) error {
		games, err := t.guildGames(guild)
		if err != nil {
			return err
		}
		out = nil
		for _, g := range games {
			if g.Status != StatusLobby {
				continue
			}
			rec, err := t.header(g.Channel)
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
	if err := s.prepare(rec); err != nil {
		return err
	}
	return s.update(func(t txn) error {
		k, ok := parseArchiveKey(key)
		if !ok {
			return fmt.Errorf("%w in the archive", ErrNotFound)
		}
		raw, err := t.archivedGame(k)
		if err != nil {
			return err
		}
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
		if err := t.putArchivedGame(k, full); err != nil {
			return err
		}
		if err := writeGame(t, rec, true); err != nil {
			return err
		}
		if err := s.enqueueTx(t, rec.Channel, rec.Guild, posts); err != nil {
			return err
		}
		return t.notify(rec.Channel)
	})
}
