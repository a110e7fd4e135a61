package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"strings"
	"time"

	"conductor/ai"
	"conductor/local"
	"conductor/ops"
	"conductor/present"
)

// playCommand plays a game in the terminal: hot-seat players and bots,
// saved in the database so that it can be resumed.
func playCommand(fs *flag.FlagSet) runFunc {
	mapID := fs.String("map", "usa", "the board: usa, europe or marklin")
	variant := fs.String("variant", "", "the variant (Europe: classic, 1912, mega, bigcities)")
	players := fs.String("players", "you,normal", "comma-separated seats: a name for each person at the keyboard, a bot level ("+strings.Join(ai.Levels, ", ")+") for each bot")
	game := fs.String("game", "local", "the saved game's `NAME` (several can be kept; --watch: \"watch\")")
	fresh := fs.Bool("new", false, "abandon the saved game of that name and start a new one")
	pictures := fs.String("pictures", os.TempDir(), "the `FOLDER` the pictures are written to (board.png after every move, hand.png, final.png); none: no pictures")
	db := fs.String("db", cmp.Or(os.Getenv("CONDUCTOR_DB"), "conductor.db"), "the database `FILE`")
	delay := fs.Duration("bot-delay", 400*time.Millisecond, "pause before a bot moves (--watch: the pace, 1.5s unless given)")
	lang := fs.String("lang", "en", "the `LANGUAGE` of the game's texts and pictures: "+strings.Join(present.Languages, ", "))
	watch := fs.Bool("watch", false, "watch bots play a new game to its end, turn by turn (--players names bot levels only; default hard,normal)")
	return func(ctx context.Context, in *invocation) error {
		cat, err := ops.Catalog(in.decks)
		if err != nil {
			return err
		}
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		setup := local.Setup{Fresh: *fresh, Seats: strings.Split(*players, ","), Map: *mapID, Variant: *variant, Lang: *lang, Levels: ai.Levels, Given: given}
		name, pace := *game, *delay
		if *watch {
			// A watched game is always a new one, kept apart from the
			// game the player plays.
			setup.Watch, setup.Fresh = true, true
			if !given["players"] {
				setup.Seats = []string{"hard", "normal"}
			}
			if !given["game"] {
				name = "watch"
			}
			if !given["bot-delay"] {
				pace = 1500 * time.Millisecond
			}
		}
		err = local.Play(ctx, local.Game{In: in.stdin, Out: in.stdout, Catalog: cat, DB: *db, Name: name, Pictures: *pictures,
			NoPictures: *pictures == "none", Setup: setup, Bots: bots, BotDelay: pace, Logger: in.logger(slog.LevelWarn),
			Command: in.program + " play"})
		if bad := (*local.SetupError)(nil); errors.As(err, &bad) {
			return usageError{err}
		}
		return err
	}
}
