package ai

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"conductor/ai/match"
	"conductor/engine"
	"conductor/internal/testkit"
)

// errFound stops a match at the position a test wants.
var errFound = errors.New("found")

// TestExpertStopsWhenItsContextEnds: the expert's search, given no time
// cap of its own (an hour) and far more worlds than it could play, ends
// soon after its context is cancelled, with one of the legal moves: a
// server shutting down does not wait for a search in progress.
func TestExpertStopsWhenItsContextEnds(t *testing.T) {
	b := testkit.Board(t, "usa")
	m, err := newMatch(b, "", []string{"hard", "hard"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	var (
		view  engine.PlayerView
		legal []engine.Action
	)
	m.Before = func(d match.Decision) error {
		g := m.Game
		if g.Phase() == engine.PhaseTurn && g.Turn() >= 10 && len(d.Legal) > 1 {
			view, legal = d.View, d.Legal
			return errFound
		}
		return nil
	}
	if err := m.Play(context.Background()); !errors.Is(err, errFound) {
		t.Fatalf("no position to search: %v", err)
	}
	e := newExpert(3)
	e.endTrains, e.maxWorlds, e.effort, e.deadline = 1<<30, 1<<20, 1<<40, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan engine.Action)
	go func() { done <- WithContext(e).Choose(ctx, view, legal) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case a := <-done:
		if !slices.ContainsFunc(legal, a.Equal) {
			t.Fatalf("the expert stopped with %s, not a legal move", engine.FormatAction(b, a))
		}
	case <-time.After(time.Minute):
		t.Fatal("the expert kept searching after its context was cancelled")
	}
}

// Searches tells a table which decisions the expert searches: its initial
// tickets at a full table, not two-handed; another level never searches.
func TestSearchesNamesTheExpertsSearches(t *testing.T) {
	for _, c := range []struct {
		level   string
		players int
		want    bool
	}{{"expert", 4, true}, {"expert", 2, false}, {"hard", 4, false}} {
		g, err := engine.New(engine.Config{Board: testkit.Board(t, "usa"), Players: c.players, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewWithContext(c.level, 1)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := b.(interface {
			Searches(engine.PlayerView, []engine.Action) bool
		})
		if !ok {
			t.Fatalf("%s: no Searches", c.level)
		}
		if got := s.Searches(g.View(0), g.LegalActions(0, nil)); got != c.want {
			t.Errorf("%s at %d seats, choosing its initial tickets: Searches %v, want %v", c.level, c.players, got, c.want)
		}
	}
}
