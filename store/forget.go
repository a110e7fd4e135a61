package store

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ForgetGuild deletes every live and archived game of guild (for /ttr forget)
// in one transaction, with its ratings and settings, and returns how many
// games of each kind it removed. The guild index finds its live games.
func (s *Store) ForgetGuild(guild string) (live, archived int, err error) {
	err = s.update(func(t txn) error {
		live, archived = 0, 0
		games, err := t.guildGames(guild)
		if err != nil {
			return err
		}
		for _, g := range games {
			old, err := t.header(g.Channel)
			if isNotFound(err) {
				continue // gone meanwhile (another process)
			}
			if err != nil {
				return err
			}
			if err := t.deleteGame(old); err != nil {
				return err
			}
			if err := t.notify(g.Channel); err != nil {
				return err
			}
			live++
		}
		if archived, err = t.forgetArchived(guild); err != nil {
			return err
		}
		if err := t.deleteRatings(guild); err != nil {
			return err
		}
		return t.deleteGuildSettings(guild)
	})
	return live, archived, err
}

// ForgetMember removes a member from every archived game of guild (for
// /ttr forget member:): their seats keep their scores and places, so that
// the others' results stand, but lose the member's id and name, in the
// summary and in the full record (options naming them go too, and a
// table they hosted forgets its host); their
// ratings go, and every other member's are computed again without them
// (f), in the same transaction. Live games are left alone: a game they
// play is archived with them when it ends. It returns the games changed.
func (s *Store) ForgetMember(guild, user string, f RatingFormula) (int, error) {
	if user == "" {
		return 0, fmt.Errorf("store: forget whom?")
	}
	n := 0
	err := s.update(func(t txn) error {
		n = 0
		if err := t.lockRatings(guild); err != nil {
			return err
		}
		keys, err := t.archivedNaming(guild, []byte(user))
		if err != nil {
			return err
		}
		for _, key := range keys {
			raw, err := t.archivedSummary(key)
			if err != nil {
				return err
			}
			e, err := decodeSummary(key, raw)
			if err != nil {
				return err
			}
			changed := false
			for i := range e.Players {
				if p := &e.Players[i]; p.UserID == user {
					p.UserID, p.Name, p.Forgotten = "", "", true
					changed = true
				}
			}
			if changed {
				v, err := json.Marshal(e)
				if err != nil {
					return err
				}
				if err := t.putArchivedSummary(key, v); err != nil {
					return err
				}
			}
			full, err := t.archivedGame(key)
			if err != nil {
				return err
			}
			if full != nil {
				var rec GameRecord
				if err := json.Unmarshal(full, &rec); err != nil {
					return fmt.Errorf("%w: archived game %s: %v", errCorrupt, key.ID, err)
				}
				if forgetInRecord(&rec, user) {
					v, err := json.Marshal(&rec)
					if err != nil {
						return err
					}
					if err := t.putArchivedGame(key, v); err != nil {
						return err
					}
					changed = true
				}
			}
			if changed {
				n++
			}
		}
		set, err := readGuildSettings(t, guild)
		if err != nil {
			return err
		}
		_, err = recomputeRatings(t, guild, f, set)
		return err
	})
	return n, err
}

// forgetInRecord takes a member out of a game's record: their seats lose
// their id and name, and the options naming them go. It reports whether
// the record named them.
func forgetInRecord(rec *GameRecord, user string) bool {
	changed := false
	for i := range rec.Seats {
		if rec.Seats[i].UserID == user {
			rec.Seats[i].UserID, rec.Seats[i].Name = "", ""
			changed = true
		}
	}
	if rec.Host == user {
		rec.Host = ""
		changed = true
	}
	for k := range rec.Options {
		if strings.Contains(k, user) || strings.Contains(rec.Options[k], user) {
			delete(rec.Options, k)
			changed = true
		}
	}
	return changed
}
