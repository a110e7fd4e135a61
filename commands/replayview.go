package commands

import (
	"errors"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/store"
)

// ErrNoReplay: the game is not in the archive (never finished, or
// forgotten with /ttr forget), or it no longer replays to its scores.
var ErrNoReplay = errors.New("no replay of this game")

// GameReplay is a finished game for the public replay page: the public
// board after the ticket choice and after every turn (the replay GIF's
// frames), and the final scores with every ticket revealed, as the final
// sheet reveals them. It holds no seed and no move.
type GameReplay struct {
	Game, Guild string
	Board       *data.Board
	Variant     string
	// Locale is the table's language, which the frames' words are in.
	Locale string
	Seats  []string
	Frames []imaging.Scene
	Final  *engine.FinalScore
}

// ReplayOf rebuilds guild's archived game id for the replay page. It asks
// the archive first, so a game forgotten with /ttr forget has no replay.
func (s *Service) ReplayOf(guild, id string) (*GameReplay, error) { return s.replays.page(guild, id) }

func (c *replays) page(guild, id string) (*GameReplay, error) {
	entry, err := c.store.ArchivedByID(guild, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoReplay
	}
	if err != nil {
		return nil, err
	}
	rec, err := c.store.ArchivedGame(entry.Key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoReplay
	}
	if err != nil {
		return nil, err
	}
	frames, final, err := c.frames(rec, entry)
	if errors.Is(err, errReplayDiverged) {
		c.log.Warn("replay page", "guild", guild, "game", id, "err", err)
		return nil, ErrNoReplay
	}
	if err != nil {
		return nil, err
	}
	b, err := c.catalog.Board(rec.Map)
	if err != nil {
		return nil, err
	}
	return &GameReplay{Game: rec.ID, Guild: rec.Guild, Board: b, Variant: rec.Variant, Locale: rec.Options[optLocale],
		Seats: seatNames(rec), Frames: frames, Final: final}, nil
}
