package main

import (
	"context"
	"flag"
	"runtime"
	"slices"
	"strings"

	"conductor/ai"
	"conductor/ai/arena"
	"conductor/ops"
)

// selfplayCommand plays bot-only games in the ai package's arena and
// prints each bot's results as JSON (or a Markdown table).
func selfplayCommand(fs *flag.FlagSet) runFunc {
	mapID := fs.String("map", "usa", "board to play on (usa, europe or marklin)")
	variant := fs.String("variant", "", "variant of the board (default: its first)")
	players := fs.String("players", "hard,dest", "comma-separated bot `LEVELS`, one per seat (2 to 5): "+
		strings.Join(append(slices.Clone(ai.Levels), ai.Baselines...), ", "))
	vs := fs.String("vs", "", "comma-separated `PAIRINGS` LEAD:OTHER, each one LEAD against OTHER at every other seat (instead of --players)")
	seats := fs.String("seats", "2,3,4,5", "table `SIZES` the --vs pairings are played at")
	games := fs.Int("games", 100, "number of games (per pairing and table size with --vs)")
	seed := fs.Uint64("seed", 1, "seed of the first game; the run is deterministic for a seed")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	format := fs.String("format", "json", "output: json, or table (Markdown, a row per level)")
	logFile := fs.String("log", "", "append each game, as it ends, to `FILE` (a JSON line), to sum up later with --summarize")
	summarize := fs.String("summarize", "", "play nothing: sum up the games of comma-separated log `FILES` (--log)")
	noDeadline := fs.Bool("no-deadline", false, "lift the expert's wall clock cap: a loaded machine plays an idle one's games")
	return func(_ context.Context, in *invocation) error {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		switch {
		case fs.NArg() > 0:
			return badInput("unexpected argument %q: selfplay takes only flags", fs.Arg(0))
		case *format != "json" && *format != "table":
			return badInput("--format: %q is neither json nor table", *format)
		case *summarize != "":
			records, err := arena.ReadLogs(strings.Split(*summarize, ","))
			if err != nil {
				return badInput("--summarize: %v", err)
			}
			return arena.Output(in.stdout, arena.Summarize(records), *format, false)
		}
		cat, err := ops.Catalog(in.decks)
		if err != nil {
			return err
		}
		runs, err := arena.Setup{Map: *mapID, Variant: *variant, Players: *players, Seed: *seed, Games: *games, Workers: *workers,
			PlayersGiven: set["players"], SeatsGiven: set["seats"]}.Runs(cat, *vs, *seats)
		if err != nil {
			return badInput("%v", err)
		}
		record, logs, err := arena.AppendLog(*logFile, in.stderr)
		if err != nil {
			return badInput("--log: %v", err)
		}
		defer logs.Close()
		reports, err := arena.RunAll(runs, *noDeadline, record)
		if err != nil {
			return err
		}
		return arena.Output(in.stdout, reports, *format, *vs == "")
	}
}
