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

// NotatedMove is a move as game records keep it: the seat (from 0) and the
// action in the notation.
type NotatedMove struct {
	Seat   int
	Action string
}

// ReplayNotation rebuilds a game from moves written in the notation: the
// one way stored games and recorded test games are read back. When observe
// is not nil it sees the game after each move with the events the move
// caused, as Apply reports them (for narration); otherwise the moves are
// played without narrating. An error names the move by its number (from 1)
// and text.
func ReplayNotation(cfg Config, moves []NotatedMove, observe func(g *Game, m Move, ev []Event)) (*Game, error) {
	g, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for i, nm := range moves {
		a, err := ParseAction(cfg.Board, nm.Action)
		if err == nil {
			if observe == nil {
				err = g.Play(nm.Seat, a)
			} else {
				var ev []Event
				if ev, err = g.Apply(nm.Seat, a); err == nil {
					observe(g, Move{Seat: nm.Seat, Action: a}, ev)
				}
			}
		}
		if err != nil {
			return g, fmt.Errorf("move %d %q: %w", i+1, nm.Action, err)
		}
	}
	return g, nil
}
