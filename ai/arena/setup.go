package arena

import (
	"fmt"
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
}

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
