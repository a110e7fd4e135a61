package commands

import (
	"strings"
	"testing"

	"conductor/present"
)

// A quieter thread: a turn of two cards drawn is one line, and of the
// boards only the one that starts a round has a picture; the others are
// words with the table's status (whose turn, points, trains).
func TestABoardPictureOnceARound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	users := []string{"u1", "u2"}
	before, drawn := len(w.poster.all("c1")), len(w.pictures().drawnBoards())
	for turn := range 6 {
		for range 2 {
			w.handle(&Request{Type: ComponentRequest, User: users[turn%2], CustomID: cid("draw", gid, turn, "deck")})
		}
	}
	w.svc.Quiet()
	boards := w.poster.all("c1")[before:]
	if len(boards) != 6 {
		t.Fatalf("%d posts for 6 turns", len(boards))
	}
	one := present.T("", "ev.draw_two_blind", "player", "**name-u1**", "n", 2)
	for i, b := range boards {
		pictured := len(b.Files) == 1 && b.Files[0].Name == "board.png"
		// Turns 1, 3, 5 end a round of two seats: the boards after them
		// start one.
		if want := i%2 == 1; pictured != want {
			t.Errorf("board %d: picture %v, want %v", i, pictured, want)
		}
		if !strings.Contains(b.Status, "▶ ") {
			t.Errorf("board %d has no status: %q", i, b.Status)
		}
		lines := strings.Split(strings.TrimSpace(b.Content), "\n")
		if len(lines) != 2 {
			t.Errorf("board %d: %q, want a line for the turn and one for the next player", i, b.Content)
		}
		if i%2 == 0 && lines[0] != one {
			t.Errorf("board %d tells %q, want %q", i, lines[0], one)
		}
	}
	if n := len(w.pictures().drawnBoards()) - drawn; n != 3 {
		t.Errorf("%d boards drawn for 3 rounds", n)
	}
}
