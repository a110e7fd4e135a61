// Package match plays games between bots to their end: the tests of the
// bots, the arena (conductor selfplay) and the recorder of the engine's test
// games all play through it. It lives beside package ai, not in it: it
// holds the real game, which the bots themselves must never touch.
package match

import (
	"context"
	"fmt"
	"slices"

	"conductor/engine"
)

// MaxActions bounds a game a Match plays: bots that never end a game are a
// bug to report, not a loop to wait on.
const MaxActions = 20000

// Bot chooses one of the legal actions of the seat whose view it is given
// (every ai.Bot does).
type Bot interface {
	Choose(view engine.PlayerView, legal []engine.Action) engine.Action
}

// Match is a game played by bots alone, one bot per seat.
type Match struct {
	Game *engine.Game
	Bots []Bot // by seat
	// Before, when set, sees each decision before it is played, the game
	// still as the bot saw it. An error ends the match with that error.
	Before func(Decision) error
	// After, when set, sees each decision once played, with the events it
	// made (the game narrates only when After is set).
	After func(Decision, []engine.Event) error
}

// Decision is one choice of a bot in a Match.
type Decision struct {
	Seat   int               // the seat to act (engine.Game.ToAct)
	View   engine.PlayerView // what its bot saw
	Legal  []engine.Action   // what it could choose among
	Action engine.Action     // what it chose, one of Legal
}

// Play plays the game to its end. Each bot gets a copy of the legal
// actions of its seat, so that a bot may reorder them; the action it
// returns must be one of them and be accepted, or the match ends with an
// error. Play also stops when ctx ends, between two decisions.
func (m *Match) Play(ctx context.Context) error {
	g := m.Game
	var legal []engine.Action
	for steps := 0; g.Phase() != engine.PhaseOver; steps++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if steps >= MaxActions {
			return fmt.Errorf("no end after %d actions (turn %d)", steps, g.Turn())
		}
		seat := g.ToAct()
		legal = g.LegalActions(seat, legal[:0])
		if len(legal) == 0 {
			return fmt.Errorf("seat %d has no legal action in phase %v", seat+1, g.Phase())
		}
		d := Decision{Seat: seat, View: g.View(seat), Legal: legal}
		d.Action = m.Bots[seat].Choose(d.View, slices.Clone(legal))
		if !slices.ContainsFunc(legal, d.Action.Equal) {
			return fmt.Errorf("seat %d chose %s, not among its %d legal actions", seat+1, engine.FormatAction(g.Board(), d.Action), len(legal))
		}
		if m.Before != nil {
			if err := m.Before(d); err != nil {
				return err
			}
		}
		if err := m.play(d); err != nil {
			return err
		}
	}
	return nil
}

// play plays a decision, narrated when After wants the events.
func (m *Match) play(d Decision) error {
	var ev []engine.Event
	var err error
	if m.After != nil {
		ev, err = m.Game.Apply(d.Seat, d.Action)
	} else {
		err = m.Game.Play(d.Seat, d.Action)
	}
	if err != nil {
		return fmt.Errorf("seat %d: its legal action %s was refused: %v", d.Seat+1, engine.FormatAction(m.Game.Board(), d.Action), err)
	}
	if m.After != nil {
		return m.After(d, ev)
	}
	return nil
}
