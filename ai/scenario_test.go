package ai

import (
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// started returns a game past the ticket choice, every seat keeping all it
// was dealt, on seat 0's first turn.
func started(t testing.TB, board string, players int) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Config{Board: testkit.Board(t, board), Players: players, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for g.Phase() == engine.PhaseSetup {
		s := g.ToAct()
		legal := g.LegalActions(s, nil)
		a := legal[len(legal)-1] // the biggest keep, or the longest mix
		if err := g.Play(s, a); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// scene is a view of seat 0 to rewrite for a test: no tracks held, no
// tickets, an empty hand.
func scene(t testing.TB, board string, players int) engine.PlayerView {
	t.Helper()
	v := started(t, board, players).View(0)
	v.Tickets = nil
	v.Hand = engine.Hand{}
	return v
}

// ticketBetween finds the board's ticket between two cities.
func ticketBetween(t testing.TB, b *data.Board, a, z string) data.TicketID {
	t.Helper()
	ca, cz := testkit.City(t, b, a), testkit.City(t, b, z)
	for _, tk := range b.Tickets {
		if tk.A == ca && tk.B == cz || tk.A == cz && tk.B == ca {
			return tk.ID
		}
	}
	t.Fatalf("no ticket %s – %s on %s", a, z, b.ID)
	return -1
}

// give sets the seat's tickets (not completed).
func give(v *engine.PlayerView, tickets ...data.TicketID) {
	v.Tickets = nil
	for _, id := range tickets {
		v.Tickets = append(v.Tickets, engine.TicketStatus{Ticket: id})
	}
	v.Players[v.Seat].Tickets = len(tickets)
}

// hold gives seat the tracks.
func hold(v *engine.PlayerView, seat int, tracks ...data.TrackID) {
	for _, t := range tracks {
		v.Owners[t] = int8(seat)
		v.Players[seat].Trains -= v.Board.Tracks[t].Length
	}
}
