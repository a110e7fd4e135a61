package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"conductor/ai"
	"conductor/ai/arena"
	"conductor/engine"
)

// runSelfplay plays bot-only games in the ai package's arena and prints
// each bot's results as JSON.
func runSelfplay(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs, decks := newFlags("selfplay", stderr)
	mapID := fs.String("map", "usa", "board to play on (usa, europe or marklin)")
	variant := fs.String("variant", "", "variant of the board (default: its first)")
	players := fs.String("players", "hard,dest", "comma-separated bot `LEVELS`, one per seat (2 to 5): "+
		strings.Join(append(slices.Clone(ai.Levels), ai.Baselines...), ", "))
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the first game; the run is deterministic for a seed")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor selfplay [flags]\n\n"+
			"Plays games between bots and prints, as JSON, each bot's wins (a tie for\n"+
			"first counts as a shared win), mean score, tickets and decision times.\n"+
			"Seats rotate from game to game so that no bot always starts.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q: selfplay takes only flags", fs.Arg(0))
	}
	levels := strings.Split(*players, ",")
	for i := range levels {
		levels[i] = strings.TrimSpace(levels[i])
		if _, err := ai.New(levels[i], 0); err != nil {
			return badInput("--players: %v", err)
		}
	}
	if len(levels) < 2 || len(levels) > engine.MaxPlayers {
		return badInput("--players: give 2 to %d bots, not %d", engine.MaxPlayers, len(levels))
	}
	if *games < 1 {
		return badInput("--games must be at least 1, not %d", *games)
	}
	if *workers < 1 {
		return badInput("--workers must be at least 1, not %d", *workers)
	}
	cat, err := catalog(*decks)
	if err != nil {
		return err
	}
	board, err := cat.Board(*mapID)
	if err != nil {
		return badInput("--map: %v", err)
	}
	if *variant == "" {
		*variant = board.Variants[0].ID
	}
	if _, ok := board.Variant(*variant); !ok {
		ids := make([]string, len(board.Variants))
		for i, v := range board.Variants {
			ids[i] = v.ID
		}
		return badInput("--variant: the %s board has no variant %q (variants: %s)", board.ID, *variant, strings.Join(ids, ", "))
	}
	out, err := arena.Run(arena.Config{Board: board, Variant: *variant, Levels: levels, Seed: *seed, Games: *games, Workers: *workers})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}
