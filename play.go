package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"conductor/commands"
	"conductor/imaging"
	"conductor/local"
	"conductor/present"
	"conductor/store"
)

// runPlay plays a game in the terminal: hot-seat players and bots, saved in
// the database so that it can be resumed.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("play", stderr)
	mapID := fs.String("map", "usa", "the board: usa, europe or marklin")
	variant := fs.String("variant", "", "the variant (Europe: classic, 1912, mega, bigcities)")
	players := fs.String("players", "you,normal", "comma-separated seats: a name for each person at the keyboard, a bot level ("+strings.Join(botLevels(), ", ")+") for each bot")
	game := fs.String("game", "local", "the saved game's `NAME` (several can be kept)")
	fresh := fs.Bool("new", false, "abandon the saved game of that name and start a new one")
	pictures := fs.String("pictures", os.TempDir(), "the `FOLDER` the pictures are written to (board.png after every move, hand.png, final.png)")
	db := fs.String("db", envOr("CONDUCTOR_DB", "conductor.db"), "the database `FILE`")
	delay := fs.Duration("bot-delay", 400*time.Millisecond, "pause before a bot moves")
	lang := fs.String("lang", "en", "the `LANGUAGE` of the game's texts and pictures: "+strings.Join(present.Languages, ", "))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	cat, err := catalog(*decks)
	if err != nil {
		return err
	}
	st, err := store.Open(*db, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	term := local.NewTerminal(stdin, stdout)
	term.Pictures = *pictures
	term.Channel = "local:" + *game
	term.Locale = *lang
	svc := commands.New(commands.Config{Catalog: cat, Store: st, Renderer: imaging.NewRenderer(), Poster: term,
		Bots: botMaker(), BotLevels: botLevels(), BotDelay: *delay, Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	defer svc.Close()
	term.Service = svc

	if err := os.MkdirAll(*pictures, 0o755); err != nil {
		return usageError{fmt.Errorf("--pictures: %w", err)}
	}
	// What the last run queued and could not show (it was stopped in the
	// middle of a reveal) is shown first.
	if err := svc.Deliver(context.Background()); err != nil {
		return err
	}
	svc.Quiet()

	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	setup := local.Setup{Fresh: *fresh, Seats: strings.Split(*players, ","), Map: *mapID, Variant: *variant, Lang: *lang, Levels: botLevels(), Given: given}
	if err := term.Open(context.Background(), st, setup); err != nil {
		var bad *local.SetupError
		switch {
		case errors.As(err, &bad):
			return usageError{err}
		case errors.Is(err, local.ErrNothingStarted):
			return nil
		}
		return err
	}
	return term.Play()
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
