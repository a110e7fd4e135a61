package commands

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
	"conductor/store"
)

// The Replay button under a final score sheet answers with an animated
// GIF of the game, rebuilt from the archived record: one picture per turn,
// as the channel saw the board.

// errReplayDiverged is an archived game that no longer replays to its
// recorded scores (the rules or the ticket deck changed since).
var errReplayDiverged = errors.New("the archived game replays differently")

// replays rebuilds finished games from the archive: the GIF under a
// score sheet, the frames of the replay page (replayview.go). It keeps
// the last GIFs made, by archive key, since everyone at the table may ask
// for the same one; one is rendered at a time.
type replays struct {
	store    *store.Store
	catalog  *data.Catalog
	renderer Renderer
	log      *slog.Logger

	mu    sync.Mutex
	gifs  map[string]present.ReplayGIF
	order []string
}

const replayCacheSize = 4

// replayButton answers the Replay button, privately: each player watches
// at their pace, and the channel is not flooded with copies.
func (s *Service) replayButton(c *call) (response, error) {
	req, id := c.req, c.id
	r, err := s.replays.gif(req.Guild, id.game)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return reply(note(present.T(req.Locale, "replay.gone")))
	case errors.Is(err, errReplayDiverged):
		return reply(note(present.T(req.Locale, "replay.changed")))
	case errors.Is(err, present.ErrReplayTooBig):
		return reply(note(present.T(req.Locale, "replay.too_big")))
	case err != nil:
		s.log.Error("replay", "guild", req.Guild, "game", id.game, "err", err)
		return reply(oops(req, err.Error()))
	}
	text := present.T(req.Locale, "replay.ready", "n", r.Frames)
	if r.Every > 1 {
		text = present.T(req.Locale, "replay.ready_short", "n", r.Frames, "every", r.Every)
	}
	return reply(Message{Ephemeral: true, Content: text, Files: []File{{Name: "replay.gif", ContentType: "image/gif", Data: r.Data, Description: present.ReplayAlt(req.Locale)}}})
}

// gif returns the GIF of guild's archived game id, from the cache or
// rebuilt. The archive is asked first, so that a game forgotten with
// /ttr forget is gone from replays too.
func (c *replays) gif(guild, id string) (present.ReplayGIF, error) {
	entry, err := c.store.ArchivedByID(guild, id)
	if err != nil {
		return present.ReplayGIF{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.gifs[entry.Key]; ok {
		return r, nil
	}
	rec, err := c.store.ArchivedGame(entry.Key)
	if err != nil {
		return present.ReplayGIF{}, err
	}
	frames, _, err := c.frames(rec, entry)
	if err != nil {
		return present.ReplayGIF{}, err
	}
	r, err := present.Replay(c.renderer, frames, present.ReplayMaxBytes)
	if err != nil {
		return present.ReplayGIF{}, err
	}
	if c.gifs == nil {
		c.gifs = map[string]present.ReplayGIF{}
	}
	if len(c.order) == replayCacheSize {
		delete(c.gifs, c.order[0])
		c.order = c.order[1:]
	}
	c.gifs[entry.Key] = r
	c.order = append(c.order, entry.Key)
	return r, nil
}

// frames replays an archived game's log, the way a stored game is loaded,
// and returns the public board after the ticket choice and after every
// turn, in the server's language. The game must end with the scores the
// archive recorded, which it returns too.
func (c *replays) frames(rec *store.GameRecord, entry *store.ArchiveEntry) ([]imaging.Scene, *engine.FinalScore, error) {
	cfg, err := gameConfig(c.catalog, rec)
	if err != nil {
		return nil, nil, err
	}
	loc := rec.Options[optLocale]
	players := seatPlayers(rec)
	// A new game is in the ticket choice, turn 0.
	turn, phase, last := 0, engine.PhaseSetup, ""
	var frames []imaging.Scene
	g, err := engine.ReplayNotation(cfg, logMoves(rec), func(g *engine.Game, _ engine.Move, ev []engine.Event) {
		if lines := present.Narrate(loc, g.Board(), seatNamer(rec), ev); len(lines) > 0 {
			last = lines[len(lines)-1]
		}
		if g.Phase() == engine.PhaseOver || g.Turn() != turn || (phase == engine.PhaseSetup && g.Phase() != engine.PhaseSetup) {
			v := g.Public()
			frames = append(frames, *present.BoardScene(loc, &v, players, last))
		}
		turn, phase = g.Turn(), g.Phase()
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", errReplayDiverged, err)
	}
	if g.Phase() != engine.PhaseOver || len(frames) == 0 {
		return nil, nil, fmt.Errorf("%w: the log ends before the game does", errReplayDiverged)
	}
	final := g.Final()
	for i, ps := range final.Players {
		if i >= len(entry.Players) || entry.Players[i].Score != ps.Total {
			return nil, nil, fmt.Errorf("%w: seat %d scores %d, the archive says otherwise", errReplayDiverged, i+1, ps.Total)
		}
	}
	return frames, final, nil
}
