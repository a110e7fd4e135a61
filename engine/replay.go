package engine

import "fmt"

// Replay rebuilds a game from its configuration and log. The same seed and
// actions always give the same game.
func Replay(cfg Config, log []Move) (*Game, error) {
	g, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for i, m := range log {
		if err := g.Play(m.Seat, m.Action); err != nil {
			return g, fmt.Errorf("move %d (%s by seat %d): %w", i+1, FormatAction(cfg.Board, m.Action), m.Seat+1, err)
		}
	}
	return g, nil
}

// ReplayNotation rebuilds a game from moves written in the notation.
func ReplayNotation(cfg Config, seats []int, actions []string) (*Game, error) {
	log := make([]Move, len(actions))
	for i, s := range actions {
		a, err := ParseAction(cfg.Board, s)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, s, err)
		}
		log[i] = Move{Seat: seats[i], Action: a}
	}
	return Replay(cfg, log)
}
