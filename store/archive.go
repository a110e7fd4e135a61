package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// archiveTimeLayout is fixed-width so archive keys sort chronologically.
const archiveTimeLayout = "2006-01-02T15:04:05.000000000Z"

// ArchiveResult is what the engine reports about a game that ended: for a
// finished game, its final score sheet, seat by seat.
type ArchiveResult struct {
	Status   string    // StatusFinished (default when empty) or StatusAbandoned
	Finished time.Time // zero means now
	// Early: the game was ended before its end and scored as it stood.
	Early   bool
	Players []PlayerResult
}

// PlayerResult is one seat's outcome, as its score sheet shows it.
type PlayerResult struct {
	UserID string `json:"user_id,omitempty"`
	Name   string `json:"name"`
	Bot    string `json:"bot,omitempty"` // bot level, "" for a member
	// TakenOver: a bot (Bot) played the seat the member (UserID, Name)
	// left; the score is the seat's, the routes the member's own.
	TakenOver        bool     `json:"taken_over,omitempty"`
	Score            int      `json:"score"`
	Rank             int      `json:"rank"` // 1 for the winner(s); players tied after every tie-break share a rank
	Won              bool     `json:"won"`
	TicketsCompleted int      `json:"tickets_completed"`
	TicketsFailed    int      `json:"tickets_failed"`
	Routes           []string `json:"routes,omitempty"` // names of the routes claimed (by the member, for a seat taken over)
}

// ArchiveEntry is the summary kept for an archived game.
type ArchiveEntry struct {
	Key      string    `json:"-"` // archive key, for ArchivedGame
	GameID   string    `json:"game_id"`
	Guild    string    `json:"guild"`
	Channel  string    `json:"channel"`
	Map      string    `json:"map"`
	Variant  string    `json:"variant,omitempty"`
	Status   string    `json:"status"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	Moves    int       `json:"moves"`
	// Early: ended before its end and scored as it stood.
	Early   bool           `json:"ended_early,omitempty"`
	Players []PlayerResult `json:"players"`
}

// Winners counts the players who won: more than one when the victory is
// shared.
func (e *ArchiveEntry) Winners() int {
	n := 0
	for _, p := range e.Players {
		if p.Won {
			n++
		}
	}
	return n
}

// archiveKey is guild NUL time NUL id: a guild's entries are one prefix, in
// the order they finished. NUL, which ids never contain, keeps guild "a" from
// matching guild "a/b".
func archiveKey(guild string, finished time.Time, id string) []byte {
	key := append(guildPrefix(guild), finished.UTC().Format(archiveTimeLayout)...)
	key = append(key, 0)
	return append(key, id...)
}

func guildPrefix(guild string) []byte {
	return append([]byte(guild), 0)
}

// Archive moves the live game in channel to the archive with its result, in
// one transaction, and returns the summary stored.
func (s *Store) Archive(channel string, result ArchiveResult) (*ArchiveEntry, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	status := result.Status
	if status == "" {
		status = StatusFinished
	}
	if status != StatusFinished && status != StatusAbandoned {
		return nil, fmt.Errorf("store: cannot archive a game as %q", status)
	}
	finished := result.Finished.UTC()
	if finished.IsZero() {
		finished = s.stamp()
	}
	var entry *ArchiveEntry
	err := s.update(func(tx *bolt.Tx) error {
		live, err := readHeader(tx, channel)
		if err != nil {
			return err
		}
		rec := *live
		if rec.Log, err = readLog(tx, channel); err != nil {
			return err
		}
		rec.Status, rec.Updated, rec.Due = status, finished, nil
		key := archiveKey(rec.Guild, finished, rec.ID)
		entry = &ArchiveEntry{
			Key: string(key), GameID: rec.ID, Guild: rec.Guild, Channel: rec.Channel,
			Map: rec.Map, Variant: rec.Variant, Status: status,
			Started: rec.Created.UTC(), Finished: finished, Moves: len(rec.Log),
			Early: result.Early && status == StatusFinished, Players: result.Players,
		}
		archive, archivedGames := tx.Bucket(bucketArchive), tx.Bucket(bucketArchivedGames)
		if archive.Get(key) != nil {
			return fmt.Errorf("store: game %s is already archived at %s", rec.ID, finished.Format(archiveTimeLayout))
		}
		summary, err := json.Marshal(entry)
		if err != nil {
			return err
		}
		full, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		if err := archive.Put(key, summary); err != nil {
			return err
		}
		if err := archivedGames.Put(key, full); err != nil {
			return err
		}
		return deleteGame(tx, live)
	})
	if err != nil {
		return nil, err
	}
	return entry, nil
}

// Archived returns the archive summaries of one guild, oldest first.
func (s *Store) Archived(guild string) ([]ArchiveEntry, error) {
	var entries []ArchiveEntry
	err := s.eachArchived(guild, func(e *ArchiveEntry) error {
		entries = append(entries, *e)
		return nil
	})
	return entries, err
}

// eachArchived calls fn for each archive summary of guild, oldest first.
func (s *Store) eachArchived(guild string, fn func(*ArchiveEntry) error) error {
	if err := s.ready(); err != nil {
		return err
	}
	prefix := guildPrefix(guild)
	return s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketArchive).Cursor()
		for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
			var e ArchiveEntry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("%w: archive entry %q: %v", errCorrupt, k, err)
			}
			e.Key = string(k)
			if err := fn(&e); err != nil {
				return err
			}
		}
		return nil
	})
}

// ArchivedByID returns the archive summary of guild's game id (the game's
// GameRecord.ID); its Key opens the full record with ArchivedGame. It reads
// only the guild's keys, which end with the game id.
func (s *Store) ArchivedByID(guild, id string) (*ArchiveEntry, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	prefix := guildPrefix(guild)
	suffix := append([]byte{0}, id...)
	var entry *ArchiveEntry
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketArchive).Cursor()
		for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
			if id == "" || !bytes.HasSuffix(k, suffix) {
				continue
			}
			var e ArchiveEntry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("%w: archive entry %q: %v", errCorrupt, k, err)
			}
			e.Key = string(k)
			entry = &e
			return nil
		}
		return fmt.Errorf("%w: no game %q in the archive", ErrNotFound, id)
	})
	if err != nil {
		return nil, err
	}
	return entry, nil
}

// ArchivedGame returns the full record of an archived game, for replays.
func (s *Store) ArchivedGame(key string) (*GameRecord, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var rec GameRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketArchivedGames).Get([]byte(key))
		if raw == nil {
			return fmt.Errorf("%w in the archive", ErrNotFound)
		}
		return json.Unmarshal(raw, &rec)
	})
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

func hasPrefix(k, prefix []byte) bool {
	return len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix)
}
