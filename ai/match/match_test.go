package match_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"conductor/ai"
	"conductor/ai/match"
	"conductor/engine"
	"conductor/internal/testkit"
)

func newMatch(t *testing.T, levels ...string) *match.Match {
	t.Helper()
	g, err := engine.New(engine.Config{Board: testkit.Board(t, "usa"), Players: len(levels), Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	m := &match.Match{Game: g}
	for i, l := range levels {
		b, err := ai.New(l, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		m.Bots = append(m.Bots, b)
	}
	return m
}

// TestPlayToTheEnd: every decision is the seat to act's, seen before it is
// played and after with its events, and the game ends.
func TestPlayToTheEnd(t *testing.T) {
	m := newMatch(t, "easy", "normal", "hard")
	g := m.Game
	before, after := 0, 0
	m.Before = func(d match.Decision) error {
		before++
		if d.Seat != g.ToAct() || len(g.Log()) != before-1 {
			t.Fatalf("decision %d: seat %d, seat to act %d, %d moves played", before, d.Seat, g.ToAct(), len(g.Log()))
		}
		return nil
	}
	m.After = func(d match.Decision, ev []engine.Event) error {
		after++
		if len(ev) == 0 || len(g.Log()) != after || g.Log()[after-1].Seat != d.Seat || !g.Log()[after-1].Action.Equal(d.Action) {
			t.Fatalf("decision %d by seat %d: %d events, last move %+v", after, d.Seat, len(ev), g.Log()[len(g.Log())-1])
		}
		return nil
	}
	if err := m.Play(t.Context()); err != nil {
		t.Fatal(err)
	}
	if g.Phase() != engine.PhaseOver || before != after || after != len(g.Log()) {
		t.Fatalf("phase %v after %d decisions seen before, %d after, %d moves", g.Phase(), before, after, len(g.Log()))
	}
}

// cheat plays an action that is not among its legal ones.
type cheat struct{}

func (cheat) Choose(engine.PlayerView, []engine.Action) engine.Action {
	return engine.Action{Kind: engine.ActPass}
}

// TestMatchEnds: a bot that cheats, a watcher's error and a cancelled
// context each end a match, before the move is played.
func TestMatchEnds(t *testing.T) {
	m := newMatch(t, "easy", "easy")
	m.Bots[0] = cheat{}
	if err := m.Play(t.Context()); err == nil || !strings.Contains(err.Error(), "not among its") || len(m.Game.Log()) != 0 {
		t.Fatalf("a bot choosing no legal action: %v, %d moves played", err, len(m.Game.Log()))
	}

	m = newMatch(t, "easy", "easy")
	stop := errors.New("stop")
	m.Before = func(d match.Decision) error {
		if d.Seat == 1 {
			return stop
		}
		return nil
	}
	if err := m.Play(t.Context()); !errors.Is(err, stop) || len(m.Game.Log()) != 1 {
		t.Fatalf("a watcher's error: %v, %d moves played", err, len(m.Game.Log()))
	}

	m = newMatch(t, "easy", "easy")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := m.Play(ctx); !errors.Is(err, context.Canceled) || len(m.Game.Log()) != 0 {
		t.Fatalf("a cancelled context: %v, %d moves played", err, len(m.Game.Log()))
	}
}
