package commands

import (
	"strings"
	"testing"

	"conductor/present"
)

// A quieter thread: a turn of two cards drawn is one line, and of the
// boards only the one that starts a round after a round that changed the
// map has a picture; the others are words with the table's status (whose
// turn, points, trains).
func TestABoardPictureOnceARound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	users := []string{"u1", "u2"}
	before, drawn := len(w.poster.all("c1")), len(w.pictures().Boards())
	// Two rounds of draws, then claims whenever one can be made.
	claimed := map[int]bool{}
	const turns = 10
	for turn := range turns {
		g, _ := w.game("c1")
		u := users[turn%2]
		if c := claimFor(g, turn%2); turn >= 4 && c != nil {
			if a := w.playRequest(g, gid, u, *c); g.Turn() != turn+1 {
				t.Fatalf("turn %d: the claim was not played: %q", turn, a.msg.Content)
			}
			claimed[turn] = true
			continue
		}
		for range 2 {
			w.handle(&Request{Type: ComponentRequest, User: u, CustomID: cid("draw", gid, turn, "deck")})
		}
	}
	w.svc.Quiet()
	boards := w.poster.all("c1")[before:]
	if len(boards) != turns {
		t.Fatalf("%d posts for %d turns", len(boards), turns)
	}
	if len(claimed) == 0 {
		t.Fatal("no claim was made: the test proves nothing")
	}
	one := present.T("", "ev.draw_two_blind", "player", "**name-u1**", "n", 2)
	pictures := 0
	for i, b := range boards {
		pictured := len(b.Files) == 1 && b.Files[0].Name == "board.png"
		// The board after turn i starts a round when i is odd; it shows
		// the map when the round before changed it.
		want := i%2 == 1 && (claimed[i] || claimed[i-1])
		if pictured != want {
			t.Errorf("board %d: picture %v, want %v (claims %v)", i, pictured, want, claimed)
		}
		if pictured {
			pictures++
		}
		if !strings.Contains(b.Status, "▶ ") {
			t.Errorf("board %d has no status: %q", i, b.Status)
		}
		if claimed[i] {
			continue
		}
		lines := strings.Split(strings.TrimSpace(b.Content), "\n")
		if len(lines) != 2 {
			t.Errorf("board %d: %q, want a line for the turn and one for the next player", i, b.Content)
		}
		if i%2 == 0 && lines[0] != one {
			t.Errorf("board %d tells %q, want %q", i, lines[0], one)
		}
	}
	if pictures == 0 {
		t.Error("no board picture after the map changed")
	}
	if n := len(w.pictures().Boards()) - drawn; n != pictures {
		t.Errorf("%d boards drawn for %d pictures posted", n, pictures)
	}
}
