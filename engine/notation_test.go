package engine

import (
	"testing"

	"conductor/data"
)

// Every action of random games survives Format then Parse unchanged.
func TestNotationRoundTrip(t *testing.T) {
	for _, b := range data.Embedded().Boards() {
		for seed := range uint64(5) {
			g, err := randomGame(b, "", 3, seed, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range g.Log() {
				s := FormatAction(b, m.Action)
				back, err := ParseAction(b, s)
				if err != nil {
					t.Fatalf("%s: parse %q: %v", b.ID, s, err)
				}
				if FormatAction(b, back) != s {
					t.Fatalf("%s: %q came back as %q", b.ID, s, FormatAction(b, back))
				}
			}
		}
	}
}

func TestTrackRefsAreUnique(t *testing.T) {
	for _, b := range data.Embedded().Boards() {
		for i := range b.Tracks {
			id := data.TrackID(i)
			ref := TrackRef(b, id)
			back, err := ParseTrackRef(b, ref)
			if err != nil || back != id {
				t.Errorf("%s: %q resolves to %v (%v), want %d", b.ID, ref, back, err, id)
			}
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"draw 3", "draw deck", "claim Paris|Frankfurt|white pay=white loco=1",
		"claim New York|Washington|orange pay=orange loco=0", "keep 0,2", "tickets long=2", "station Sarajevo pay=red loco=1",
		"tunnel pay loco=1", "tunnel cancel", "move Berlin path=Berlin|Leipzig;Leipzig|Dresden", "pass", "claim a|b|gray#2 pay=red"} {
		f.Add("europe", s)
		f.Add("usa", s)
		f.Add("marklin", s)
	}
	cat := data.Embedded()
	f.Fuzz(func(t *testing.T, board, s string) {
		b, err := cat.Board(board)
		if err != nil {
			return
		}
		a, err := ParseAction(b, s)
		if err != nil {
			return
		}
		// Whatever parses must format to something that parses the same.
		out := FormatAction(b, a)
		back, err := ParseAction(b, out)
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", s, out, err)
		}
		if FormatAction(b, back) != out {
			t.Fatalf("%q -> %q -> %q", s, out, FormatAction(b, back))
		}
		// And applying it to a fresh game never panics.
		g, _ := New(Config{Board: b, Players: 2, Seed: 1})
		g.Apply(0, a)
	})
}

// The log rebuilds the same game.
func TestReplayRebuildsTheGame(t *testing.T) {
	for _, b := range data.Embedded().Boards() {
		g, err := randomGame(b, "", 4, 7, false)
		if err != nil {
			t.Fatal(err)
		}
		var seats []int
		var acts []string
		for _, m := range g.Log() {
			seats = append(seats, m.Seat)
			acts = append(acts, FormatAction(b, m.Action))
		}
		r, err := ReplayNotation(g.Config(), seats, acts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Phase() != PhaseOver || r.Turn() != g.Turn() {
			t.Fatalf("replay ended in %v after %d turns, game in %v after %d", r.Phase(), r.Turn(), g.Phase(), g.Turn())
		}
		for i := range g.players {
			if r.players[i].Score != g.players[i].Score || r.players[i].Hand != g.players[i].Hand {
				t.Fatalf("seat %d differs after replay", i)
			}
		}
	}
}
