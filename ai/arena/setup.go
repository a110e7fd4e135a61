package arena

import (
	"fmt"
	"strconv"
	"strings"

	"conductor/ai"
	"conductor/data"
	"conductor/engine"
)

// Setup is a run as a person asks for one (`conductor selfplay`'s flags):
// a board by id, its variant ("" for its first) and comma-separated levels.
type Setup struct {
	Map, Variant, Players string
	Seed                  uint64
	Games, Workers        int
	// PlayersGiven and SeatsGiven say whether --players and --seats were
	// given: each goes with one way of naming the seats only.
	PlayersGiven, SeatsGiven bool
}

// Usage is selfplay's help text, above its flags.
const Usage = "usage: conductor selfplay [flags]\n\n" +
	"Plays games between bots and prints, as JSON, each bot's wins (a tie for\n" +
	"first counts as a shared win) with their standard error and the fair\n" +
	"share, mean score, tickets and decision times; each level's seats are\n" +
	"also summed up together. Seats rotate from game to game so that no bot\n" +
	"always starts. With --vs, one report per pairing and table size.\n\nflags:"

// Config checks the setup against the catalog's boards and makes the run;
// each error names the setting to fix (--players, --map, ...).
func (s Setup) Config(cat *data.Catalog) (Config, error) {
	levels := strings.Split(s.Players, ",")
	for i := range levels {
		levels[i] = strings.TrimSpace(levels[i])
		if _, err := ai.New(levels[i], 0); err != nil {
			return Config{}, fmt.Errorf("--players: %w", err)
		}
	}
	if len(levels) < 2 || len(levels) > engine.MaxPlayers {
		return Config{}, fmt.Errorf("--players: give 2 to %d bots, not %d", engine.MaxPlayers, len(levels))
	}
	if s.Games < 1 {
		return Config{}, fmt.Errorf("--games must be at least 1, not %d", s.Games)
	}
	if s.Workers < 1 {
		return Config{}, fmt.Errorf("--workers must be at least 1, not %d", s.Workers)
	}
	board, err := cat.Board(s.Map)
	if err != nil {
		return Config{}, fmt.Errorf("--map: %w", err)
	}
	if s.Variant == "" {
		s.Variant = board.Variants[0].ID
	}
	if _, ok := board.Variant(s.Variant); !ok {
		ids := make([]string, len(board.Variants))
		for i, v := range board.Variants {
			ids[i] = v.ID
		}
		return Config{}, fmt.Errorf("--variant: the %s board has no variant %q (variants: %s)", board.ID, s.Variant, strings.Join(ids, ", "))
	}
	return Config{Board: board, Variant: s.Variant, Levels: levels, Seed: s.Seed, Games: s.Games, Workers: s.Workers}, nil
}

// Runs makes the runs of a setup: one, or with vs ("LEAD:OTHER,...", the
// players ignored) one per pairing and table size of seats ("2,3,4,5"):
// a LEAD against OTHER at every other seat.
func (s Setup) Runs(cat *data.Catalog, vs, seats string) ([]Config, error) {
	switch {
	case vs != "" && s.PlayersGiven:
		return nil, fmt.Errorf("give either --players or --vs, not both")
	case s.SeatsGiven && vs == "":
		return nil, fmt.Errorf("--seats goes with --vs")
	}
	if vs == "" {
		run, err := s.Config(cat)
		return []Config{run}, err
	}
	var sizes []int
	for _, f := range strings.Split(seats, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 || n > engine.MaxPlayers {
			return nil, fmt.Errorf("--seats: %q is not a table size from 2 to %d", f, engine.MaxPlayers)
		}
		sizes = append(sizes, n)
	}
	var runs []Config
	for _, pair := range strings.Split(vs, ",") {
		lead, other, ok := strings.Cut(strings.TrimSpace(pair), ":")
		if !ok {
			return nil, fmt.Errorf("--vs: %q is not LEAD:OTHER (for example expert:hard)", pair)
		}
		lead, other = strings.TrimSpace(lead), strings.TrimSpace(other)
		for _, level := range []string{lead, other} {
			if _, err := ai.New(level, 0); err != nil {
				return nil, fmt.Errorf("--vs: %w", err)
			}
		}
		for _, n := range sizes {
			s.Players = strings.Join(Lineup(lead, other, n), ",")
			run, err := s.Config(cat)
			if err != nil {
				return nil, err
			}
			runs = append(runs, run)
		}
	}
	return runs, nil
}
