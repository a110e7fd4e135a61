package ai

import (
	"context"
	"testing"

	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestKeptPlansStayTrue: in games played by the playouts' hard (which
// keeps each seat's plan between decisions) with 2 to 5 seats on every
// edition, the plan a decision used is one the seat could still build:
// its claims are free tracks the seat may claim, within its trains, every
// goal is a held ticket not yet joined, and every path joins its goal's
// ends over tracks held, planned or borrowed. Plans are kept, carried over
// own claims and made again.
func TestKeptPlansStayTrue(t *testing.T) {
	var made, kept, advanced, checked int
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		for players := 2; players <= 5; players++ {
			m, err := newMatch(b, "", repeatLevel("hard", players), uint64(40+players))
			if err != nil {
				t.Fatal(err)
			}
			roller := newRoller()
			for i := range m.Bots {
				m.Bots[i] = roller // one roller for every seat, as in a playout
			}
			m.Before = func(d match.Decision) error {
				seat, v := d.Seat, d.View
				if seat >= len(roller.keep.seats) || !roller.keep.seats[seat].ok || v.Phase == engine.PhaseSetup {
					return nil
				}
				checkPlan(t, id, &v, &roller.keep.seats[seat].pl)
				checked++
				return nil
			}
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
			made, kept, advanced = made+roller.keep.made, kept+roller.keep.kept, advanced+roller.keep.advanced
		}
	}
	if checked < 1000 || made < 100 || kept < made || advanced < 50 {
		t.Fatalf("%d decisions checked; %d plans made, %d kept (%d carried over own claims)", checked, made, kept, advanced)
	}
	t.Logf("%d decisions checked; %d plans made, %d kept (%d carried over own claims)", checked, made, kept, advanced)
}

// checkPlan checks that pl is a plan v's seat can still build.
func checkPlan(t *testing.T, id string, v *engine.PlayerView, pl *plan) {
	t.Helper()
	s := read(v)
	b := v.Board
	for _, c := range pl.claims {
		if v.Owners[c] >= 0 || !s.claimable[c] {
			t.Fatalf("%s turn %d seat %d: plan claims %s, which it can no longer claim", id, v.Turn, v.Seat, b.TrackName(c))
		}
	}
	if pl.trains > s.trains {
		t.Fatalf("%s turn %d seat %d: plan lays %d trains, %d left", id, v.Turn, v.Seat, pl.trains, s.trains)
	}
	for i, g := range pl.goals {
		held := false
		for _, ts := range v.Tickets {
			held = held || ts.Ticket == g.ticket && !ts.Completed
		}
		if !held || s.net.Connected(g.a, g.b) {
			t.Fatalf("%s turn %d seat %d: plan pursues %d, not a held open ticket", id, v.Turn, v.Seat, g.ticket)
		}
		var net engine.Connectivity
		net.Reset(b)
		for _, tr := range pl.paths[i] {
			if !s.own[tr] && v.Owners[tr] >= 0 && !containsTrack(pl.borrow, tr) {
				t.Fatalf("%s turn %d seat %d: a path runs over %s, another seat's", id, v.Turn, v.Seat, b.TrackName(tr))
			}
			if !s.own[tr] && v.Owners[tr] < 0 && !containsTrack(pl.claims, tr) {
				t.Fatalf("%s turn %d seat %d: a path runs over %s, not planned", id, v.Turn, v.Seat, b.TrackName(tr))
			}
			net.Add(tr)
		}
		net.AddOwned(s.own)
		if !net.Connected(g.a, g.b) {
			t.Fatalf("%s turn %d seat %d: a path does not join its ticket", id, v.Turn, v.Seat)
		}
	}
}

func containsTrack(ts []data.TrackID, t data.TrackID) bool {
	for _, u := range ts {
		if u == t {
			return true
		}
	}
	return false
}
