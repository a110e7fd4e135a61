package commands

import (
	"context"
	"testing"
	"time"

	"conductor/engine"
)

// setupSearcher stands in for the expert at a full table: it searches its
// initial tickets, holding on until release is closed (or its context
// ends), then keeps the fewest; the rest it decides at once.
type setupSearcher struct {
	started chan<- struct{}
	release <-chan struct{}
}

func (b setupSearcher) Searches(v engine.PlayerView, legal []engine.Action) bool {
	return v.Phase == engine.PhaseSetup && legal[0].Kind == engine.ActKeep
}

func (b setupSearcher) Choose(ctx context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	if b.Searches(v, legal) {
		select {
		case b.started <- struct{}{}:
		default:
		}
		select {
		case <-b.release:
		case <-ctx.Done():
		}
	}
	return legal[0]
}

// searchingSetup starts a USA game of u1 and two searching bots; it fails
// if /ttr start waits for the bots' search.
func searchingSetup(t *testing.T, bot setupSearcher) *world {
	w := newWorld(t)
	w.bots(func(string, uint64) (Bot, error) { return bot, nil }, "expert")
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "expert"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "expert"})
	started := make(chan answer, 1)
	go func() { started <- w.cmd("u1", "ttr", "start", nil) }()
	select {
	case a := <-started:
		if a.kind != "reply" {
			t.Fatalf("/ttr start: %+v", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("/ttr start waits for the bots to choose their tickets")
	}
	return w
}

// TestBotsSearchTheirTicketsOutsideTheLock: bots that search their initial
// tickets (the expert at a full table) choose them with the table's lock
// released: /ttr start answers at once, and while they search, a player
// keeps their own tickets and asks for the score. Once they have chosen,
// the game starts.
func TestBotsSearchTheirTicketsOutsideTheLock(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}, 1), make(chan struct{})
	w := searchingSetup(t, setupSearcher{started: started, release: release})
	<-started
	if a := w.keepFirstTickets("u1", 0); a.kind != "update" && a.kind != "reply" {
		t.Fatalf("u1 keeps tickets while the bots search: %+v", a)
	}
	if a := w.cmd("u1", "score", "", nil); a.kind != "reply" {
		t.Fatalf("/score while the bots search: %+v", a)
	}
	if !w.under("c1", func(g *engine.Game) bool { return g.Phase() == engine.PhaseSetup && g.SetupDone(0) && !g.SetupDone(1) }) {
		t.Fatal("the game left its setup, or u1's choice was lost, before the bots chose")
	}
	close(release)
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Phase() == engine.PhaseTurn }) }, "the bots choose and the game starts")
	rec, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Log) != 3 {
		t.Fatalf("%d moves stored, want the three seats' tickets", len(rec.Log))
	}
}

// TestCloseStopsBotsSearchingTheirTickets: the service closes while the
// bots search their tickets. Close does not wait for the search, nothing
// is played, and after a restart the bots choose and the game starts.
func TestCloseStopsBotsSearchingTheirTickets(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 1)
	w := searchingSetup(t, setupSearcher{started: started, release: make(chan struct{})})
	<-started
	w.keepFirstTickets("u1", 0)
	closed := make(chan struct{})
	go func() { w.svc.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Second):
		t.Fatal("Close waits for the bots' search")
	}
	rec, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Log) != 1 {
		t.Fatalf("%d moves stored when the service closed, want u1's alone", len(rec.Log))
	}

	w.restart()
	done := make(chan struct{})
	close(done)
	w.bots(func(string, uint64) (Bot, error) {
		return setupSearcher{started: make(chan struct{}, 1), release: done}, nil
	})
	if err := w.svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		return w.under("c1", func(g *engine.Game) bool { return g.Phase() == engine.PhaseTurn })
	}, "the bots choose after the restart")
}
