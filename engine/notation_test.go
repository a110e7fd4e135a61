package engine

import (
	"fmt"
	"strings"
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
		var moves []NotatedMove
		for _, m := range g.Log() {
			moves = append(moves, NotatedMove{Seat: m.Seat, Action: FormatAction(b, m.Action)})
		}
		r, err := ReplayNotation(g.Config(), moves, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Observing replays the same moves through Apply, one call a move,
		// and ends in the same state.
		seen := 0
		o, err := ReplayNotation(g.Config(), moves, func(og *Game, m Move, ev []Event) {
			if m.Seat != moves[seen].Seat || FormatAction(b, m.Action) != moves[seen].Action || len(og.Log()) != seen+1 {
				t.Fatalf("observer saw move %d as %+v after %d moves, want %+v", seen+1, m, len(og.Log()), moves[seen])
			}
			seen++
		})
		if err != nil {
			t.Fatal(err)
		}
		if seen != len(moves) || FormatState(o) != FormatState(r) {
			t.Fatalf("observed replay saw %d of %d moves or ended elsewhere", seen, len(moves))
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

// A move that does not parse or is refused stops the replay, named by its
// number and text.
func TestReplayNotationNamesTheBadMove(t *testing.T) {
	b := data.Embedded().Boards()[0]
	cfg := Config{Board: b, Players: 2, Seed: 1}
	for _, bad := range []string{"fly to the moon", "pass"} {
		moves := []NotatedMove{{Seat: 0, Action: "keep 0,1,2"}, {Seat: 1, Action: bad}}
		_, err := ReplayNotation(cfg, moves, nil)
		if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("move 2 %q: ", bad)) {
			t.Errorf("%q: got %v, want an error naming move 2", bad, err)
		}
	}
}
