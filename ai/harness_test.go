package ai

import (
	"fmt"
	"slices"

	"conductor/data"
	"conductor/engine"
)

// match is one game between bots, seat by seat.
type match struct {
	g    *engine.Game
	bots []Bot
	// observe, when set, sees every decision before it is played.
	observe func(g *engine.Game, seat int, v engine.PlayerView, legal []engine.Action, a engine.Action) error
}

// newMatch sets up a game on board b for the bots of the given levels; the
// bots' seeds derive from the game's.
func newMatch(b *data.Board, variant string, levels []string, seed uint64) (*match, error) {
	g, err := engine.New(engine.Config{Board: b, Variant: variant, Players: len(levels), Seed: seed})
	if err != nil {
		return nil, err
	}
	m := &match{g: g}
	for i, l := range levels {
		bot, err := New(l, seed*31+uint64(i))
		if err != nil {
			return nil, err
		}
		m.bots = append(m.bots, bot)
	}
	return m, nil
}

// actor returns the seat to act: the current one, or during setup the
// first that has not chosen its tickets.
func actor(g *engine.Game) int {
	if g.Phase() == engine.PhaseSetup {
		for s := range g.NumPlayers() {
			if !g.SetupDone(s) {
				return s
			}
		}
	}
	return g.Current()
}

// play runs the game to its end, checking that every action chosen is one
// of the legal ones and is accepted.
func (m *match) play() error {
	var legal []engine.Action
	for steps := 0; m.g.Phase() != engine.PhaseOver; steps++ {
		if steps > 20000 {
			return fmt.Errorf("no end after %d actions (turn %d)", steps, m.g.Turn())
		}
		seat := actor(m.g)
		legal = m.g.LegalActions(seat, legal[:0])
		if len(legal) == 0 {
			return fmt.Errorf("seat %d has no legal action in phase %v", seat, m.g.Phase())
		}
		v := m.g.View(seat)
		a := m.bots[seat].Choose(v, slices.Clone(legal))
		if !containsAction(legal, a) {
			return fmt.Errorf("seat %d chose %s, not among the %d legal actions", seat, engine.FormatAction(m.g.Board(), a), len(legal))
		}
		if m.observe != nil {
			if err := m.observe(m.g, seat, v, legal, a); err != nil {
				return err
			}
		}
		if err := m.g.Play(seat, a); err != nil {
			return fmt.Errorf("seat %d: legal action %s refused: %v", seat, engine.FormatAction(m.g.Board(), a), err)
		}
	}
	return nil
}

// containsAction reports whether a is exactly one of legal.
func containsAction(legal []engine.Action, a engine.Action) bool {
	return slices.ContainsFunc(legal, func(l engine.Action) bool { return sameAction(l, a) })
}

func sameAction(x, y engine.Action) bool {
	return x.Kind == y.Kind && x.Slot == y.Slot && x.Track == y.Track && x.City == y.City &&
		x.Color == y.Color && x.Locos == y.Locos && x.Locos4 == y.Locos4 && x.Passenger == y.Passenger &&
		x.Long == y.Long && x.Keep == y.Keep && slices.Equal(x.Path, y.Path)
}
