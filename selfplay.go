package main

import (
	"context"
	"flag"
	"runtime"
	"slices"
	"strings"

	"conductor/ai"
	"conductor/ai/arena"
)

const selfplayUsage = "usage: conductor selfplay [flags]\n\n" +
	"Plays games between bots and prints, as JSON, each bot's wins (a tie for\n" +
	"first counts as a shared win), mean score, tickets and decision times.\n" +
	"Seats rotate from game to game so that no bot always starts.\n\nflags:"

// selfplayCommand plays bot-only games in the ai package's arena and
// prints each bot's results as JSON.
func selfplayCommand(fs *flag.FlagSet) runFunc {
	mapID := fs.String("map", "usa", "board to play on (usa, europe or marklin)")
	variant := fs.String("variant", "", "variant of the board (default: its first)")
	players := fs.String("players", "hard,dest", "comma-separated bot `LEVELS`, one per seat (2 to 5): "+
		strings.Join(append(slices.Clone(ai.Levels), ai.Baselines...), ", "))
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the first game; the run is deterministic for a seed")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	return func(_ context.Context, in *invocation) error {
		if fs.NArg() > 0 {
			return badInput("unexpected argument %q: selfplay takes only flags", fs.Arg(0))
		}
		cat, err := catalog(in.decks)
		if err != nil {
			return err
		}
		run, err := arena.Setup{Map: *mapID, Variant: *variant, Players: *players, Seed: *seed, Games: *games, Workers: *workers}.Config(cat)
		if err != nil {
			return badInput("%v", err)
		}
		out, err := arena.Run(run)
		if err != nil {
			return err
		}
		return writeJSON(in, out)
	}
}
