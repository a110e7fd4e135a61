package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
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
	vs := fs.String("vs", "", "comma-separated `PAIRINGS` LEAD:OTHER, each played as one LEAD against OTHER at every\n"+
		"other seat, at each table size of --seats (instead of --players)")
	seatList := fs.String("seats", "2,3,4,5", "table `SIZES` the --vs pairings are played at")
	games := fs.Int("games", 100, "number of games (per pairing and table size with --vs)")
	seed := fs.Uint64("seed", 1, "seed of the first game; the run is deterministic for a seed")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games played at once")
	format := fs.String("format", "json", "output: json, or table (Markdown, a row per level)")
	logFile := fs.String("log", "", "append each game, as it ends, to `FILE` (a JSON line: wins, scores, tickets, every\n"+
		"decision's time), so that a long run can be summed up whole or in part with --summarize")
	summarize := fs.String("summarize", "", "play nothing: sum up the games of comma-separated log `FILES` (--log), a report per\n"+
		"board, variant and lineup")
	noDeadline := fs.Bool("no-deadline", false, "lift the expert's wall clock cap on a decision, so that a loaded\n"+
		"machine plays the same games as an idle one (decision times still measured)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor selfplay [flags]\n\n"+
			"Plays games between bots and prints, as JSON, each bot's wins (a tie for\n"+
			"first counts as a shared win) with their standard error and the fair\n"+
			"share, mean score, tickets and decision times; each level's seats are\n"+
			"also summed up together. Seats rotate from game to game so that no bot\n"+
			"always starts. With --vs, one report per pairing and table size.\n\nflags:")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *format != "json" && *format != "table" {
		return badInput("--format: %q is neither json nor table", *format)
	}
	if *summarize != "" {
		return summarizeLogs(strings.Split(*summarize, ","), *format, stdout)
	}
	if *vs != "" && set["players"] {
		return badInput("give either --players or --vs, not both")
	}
	if set["seats"] && *vs == "" {
		return badInput("--seats goes with --vs")
	}
	var lineups [][]string
	if *vs == "" {
		levels, err := parseLevels("--players", *players)
		if err != nil {
			return err
		}
		if len(levels) < 2 || len(levels) > engine.MaxPlayers {
			return badInput("--players: give 2 to %d bots, not %d", engine.MaxPlayers, len(levels))
		}
		lineups = append(lineups, levels)
	} else {
		seats, err := parseSeats(*seatList)
		if err != nil {
			return err
		}
		for _, pair := range strings.Split(*vs, ",") {
			lead, other, ok := strings.Cut(strings.TrimSpace(pair), ":")
			if !ok {
				return badInput("--vs: %q is not LEAD:OTHER (for example expert:hard)", pair)
			}
			both, err := parseLevels("--vs", lead+","+other)
			if err != nil {
				return err
			}
			for _, n := range seats {
				lineups = append(lineups, arena.Lineup(both[0], both[1], n))
			}
		}
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
	var record func(arena.GameRecord)
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return badInput("--log: %v", err)
		}
		defer f.Close()
		enc := json.NewEncoder(f)
		record = func(g arena.GameRecord) {
			if err := enc.Encode(g); err != nil {
				fmt.Fprintf(stderr, "selfplay: --log: %v\n", err)
			}
		}
	}
	var reports []arena.Report
	for _, levels := range lineups {
		out, err := arena.Run(arena.Config{Board: board, Variant: *variant, Levels: levels, Seed: *seed, Games: *games,
			Workers: *workers, NoDeadline: *noDeadline, Record: record})
		if err != nil {
			return err
		}
		reports = append(reports, out)
	}
	if *format == "table" {
		_, err := io.WriteString(stdout, arena.Table(reports))
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	if *vs == "" {
		return enc.Encode(reports[0])
	}
	return enc.Encode(reports)
}

// summarizeLogs prints the reports of the games in log files.
func summarizeLogs(files []string, format string, stdout io.Writer) error {
	var records []arena.GameRecord
	for _, name := range files {
		f, err := os.Open(strings.TrimSpace(name))
		if err != nil {
			return badInput("--summarize: %v", err)
		}
		rs, err := arena.ReadRecords(f)
		f.Close()
		if err != nil {
			return badInput("--summarize: %s: %v", name, err)
		}
		records = append(records, rs...)
	}
	if len(records) == 0 {
		return badInput("--summarize: no games in %s", strings.Join(files, ", "))
	}
	reports := arena.Summarize(records)
	if format == "table" {
		_, err := io.WriteString(stdout, arena.Table(reports))
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", " ")
	return enc.Encode(reports)
}

// parseLevels splits a comma-separated list of bot levels and checks each.
func parseLevels(flag, list string) ([]string, error) {
	levels := strings.Split(list, ",")
	for i := range levels {
		levels[i] = strings.TrimSpace(levels[i])
		if _, err := ai.New(levels[i], 0); err != nil {
			return nil, badInput("%s: %v", flag, err)
		}
	}
	return levels, nil
}

// parseSeats reads --seats: table sizes from 2 to engine.MaxPlayers.
func parseSeats(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 || n > engine.MaxPlayers {
			return nil, badInput("--seats: %q is not a table size from 2 to %d", f, engine.MaxPlayers)
		}
		out = append(out, n)
	}
	return out, nil
}
