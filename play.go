package main

import (
	"context"
	"errors"
	"flag"
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
	out := fs.String("out", "board.png", "where to write the board picture after every move")
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
	term.BoardPath = *out
	term.Channel = "local:" + *game
	term.Locale = *lang
	svc := commands.New(commands.Config{Catalog: cat, Store: st, Renderer: imaging.NewRenderer(), Poster: term,
		Bots: botMaker(), BotLevels: botLevels(), BotDelay: *delay, Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	defer svc.Close()
	term.Service = svc

	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	setup := local.Setup{Fresh: *fresh, Seats: strings.Split(*players, ","), Map: *mapID, Variant: *variant, Lang: *lang, Levels: botLevels(), Given: given}
	if err := term.Open(context.Background(), st, setup); err != nil {
		var bad *local.SetupError
		if errors.As(err, &bad) {
			return usageError{err}
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
