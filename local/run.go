package local

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/imaging"
	"conductor/store"
)

// Game is a terminal game as `conductor play` starts it.
type Game struct {
	In       io.Reader
	Out      io.Writer
	Catalog  *data.Catalog
	DB       string // the database file the game is saved in
	Name     string // the saved game's name (several can be kept)
	Pictures string // the folder the pictures are written to
	Setup    Setup  // the seats, board and language asked for
	Bots     commands.BotMaker
	BotDelay time.Duration // pause before a bot moves: watching, the pace
	Logger   *slog.Logger
	// Command is how the player started the terminal ("conductor play",
	// "go run . play"): the texts that say to run it again name it.
	Command string
	// NoPictures: the pictures are not written.
	NoPictures bool
}

// renderer draws the games of the process: a board's static layers (its
// map, drawn once per board and language) serve every game played after
// (a process that plays again, as the tests of conductor play do).
var renderer = sync.OnceValue(imaging.NewRenderer)

// Play resumes the saved game, or starts the one asked for, and plays it
// until it ends or the players quit. A game nobody wanted to start is no
// error; what the players must ask differently is a *SetupError.
func Play(ctx context.Context, g Game) error {
	st, err := store.Open(g.DB, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	term := NewTerminal(g.In, g.Out)
	term.Pictures, term.Channel, term.Locale = g.Pictures, "local:"+g.Name, g.Setup.Lang
	term.Command, term.Watch, term.NoPictures = g.Command, g.Setup.Watch, g.NoPictures
	svc := commands.New(commands.Config{Catalog: g.Catalog, Store: st, Renderer: renderer(), Poster: term,
		Bots: g.Bots, BotLevels: g.Setup.Levels, BotDelay: g.BotDelay, Logger: g.Logger})
	defer svc.Close()
	term.Service = svc

	if !g.NoPictures {
		if err := os.MkdirAll(g.Pictures, 0o755); err != nil {
			return badSetup("--pictures: %v", err)
		}
	}
	// What the last run queued and could not show (it was stopped in the
	// middle of a reveal) is shown first.
	if err := svc.Deliver(ctx); err != nil {
		return err
	}
	svc.Quiet()
	if err := term.Open(ctx, st, g.Setup); err != nil {
		if errors.Is(err, ErrNothingStarted) {
			return nil
		}
		return err
	}
	return term.Play()
}
