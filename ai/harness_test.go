package ai

import (
	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
)

// newMatch sets up a game on board b for the bots of the given levels; the
// bots' seeds derive from the game's.
func newMatch(b *data.Board, variant string, levels []string, seed uint64) (*match.Match, error) {
	g, err := engine.New(engine.Config{Board: b, Variant: variant, Players: len(levels), Seed: seed})
	if err != nil {
		return nil, err
	}
	m := &match.Match{Game: g}
	for i, l := range levels {
		bot, err := New(l, seed*31+uint64(i))
		if err != nil {
			return nil, err
		}
		m.Bots = append(m.Bots, bot)
	}
	return m, nil
}
