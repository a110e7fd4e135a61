package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
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
	// Forgotten: the member who held the seat was forgotten (/ttr forget):
	// their id and name are gone, their score and place stay.
	Forgotten bool `json:"forgotten,omitempty"`
	// Hints is how many hints (/ttr hint) the seat asked for: shown beside
	// its rated result, never counted in it.
	Hints int `json:"hints,omitempty"`
}

// ArchiveEntry is the summary kept for an archived game.
type ArchiveEntry struct {
	Key     string `json:"-"` // archive key, for ArchivedGame
	GameID  string `json:"game_id"`
	Guild   string `json:"guild"`
	Channel string `json:"channel"`
	// Parent is the channel whose thread the game was played in ("" for
	// a game played in its channel).
	Parent string `json:"parent,omitempty"`
	// Locale is the table's language ("" for the default).
	Locale   string    `json:"locale,omitempty"`
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

// errArchived: putArchived met a key the archive already holds.
var errArchived = errors.New("store: already archived")

// Archive moves the live game in channel to the archive with its result, in
// one transaction, and returns the summary stored. A guild's archived games
// are kept in the order they finished.
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
	err := s.update(func(t txn) error {
		live, err := t.header(channel)
		if err != nil {
			return err
		}
		rec := *live
		if rec.Log, err = readLog(t, channel); err != nil {
			return err
		}
		rec.Status, rec.Updated, rec.Due = status, finished, nil
		key := archiveKey{Guild: rec.Guild, Finished: finished.Format(archiveTimeLayout), ID: rec.ID}
		entry = &ArchiveEntry{
			Key: key.String(), GameID: rec.ID, Guild: rec.Guild, Channel: rec.Channel, Parent: rec.Options[optionParent], Locale: rec.Options[optionLocale],
			Map: rec.Map, Variant: rec.Variant, Status: status,
			Started: rec.Created.UTC(), Finished: finished, Moves: len(rec.Log),
			Early: result.Early && status == StatusFinished, Players: result.Players,
		}
		summary, err := json.Marshal(entry)
		if err != nil {
			return err
		}
		full, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		if err := t.putArchived(key, summary, full); errors.Is(err, errArchived) {
			return fmt.Errorf("store: game %s is already archived at %s", rec.ID, key.Finished)
		} else if err != nil {
			return err
		}
		if _, rated := ratedSeats(entry); rated {
			// FoldRatings folds it in (ratings.go).
			if err := t.putRatingRow(rec.Guild, ratingKindPending, pendingKey(key), nil, []byte{}); err != nil {
				return err
			}
		}
		if err := t.deleteGame(live); err != nil {
			return err
		}
		return t.notify(channel)
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
	return s.viewOne(func(t txn) error {
		return t.archived(guild, func(key archiveKey, v []byte) error {
			e, err := decodeSummary(key, v)
			if err != nil {
				return err
			}
			return fn(e)
		})
	})
}

func decodeSummary(key archiveKey, v []byte) (*ArchiveEntry, error) {
	var e ArchiveEntry
	if err := json.Unmarshal(v, &e); err != nil {
		return nil, fmt.Errorf("%w: archive entry %q: %v", errCorrupt, key.String(), err)
	}
	e.Key = key.String()
	return &e, nil
}

// ArchivedByID returns the archive summary of guild's game id (the game's
// GameRecord.ID); its Key opens the full record with ArchivedGame.
func (s *Store) ArchivedByID(guild, id string) (*ArchiveEntry, error) {
	var entry *ArchiveEntry
	err := s.viewOne(func(t txn) error {
		if id == "" {
			return fmt.Errorf("%w: no game %q in the archive", ErrNotFound, id)
		}
		key, v, err := t.archivedByID(guild, id)
		if err != nil {
			return err
		}
		if key == nil {
			return fmt.Errorf("%w: no game %q in the archive", ErrNotFound, id)
		}
		entry, err = decodeSummary(*key, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return entry, nil
}

// ArchivedGame returns the full record of an archived game, for replays.
func (s *Store) ArchivedGame(key string) (*GameRecord, error) {
	var rec GameRecord
	err := s.viewOne(func(t txn) error {
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
		return json.Unmarshal(raw, &rec)
	})
	if err != nil {
		return nil, err
	}
	return &rec, nil
}
