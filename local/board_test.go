package local

import (
	"regexp"
	"strings"
	"testing"
)

// A bot's turn reads as its moves under one board, the board of the
// person's turn after it, with the table in one line: each seat's points
// and trains left, the seat to play marked. The board after the person's
// own move, a bot to play next, shows its words alone (its picture would
// be overwritten at once, and its buttons are the bot's turn's).
func TestOneBoardABotTurnWithItsStatus(t *testing.T) {
	t.Parallel()
	d := "/draw deck"
	tr := typed(t, Setup{Seats: []string{"you", "easy"}, Map: "usa"}, "a,b", d, d, d, d, d, d)
	turns := strings.Split(tr, "\nyou> ")
	if len(turns) < 8 {
		t.Fatalf("%d turns:\n%s", len(turns), tr)
	}
	status := regexp.MustCompile(`(?m)^▶ 🔴 you \d+ pts? · \d+ trains? \| 🔵 🤖 \S+ \d+ pts? · \d+ trains?`)
	for i, turn := range turns {
		boards := strings.Count(turn, "board.png]")
		if boards > 1 {
			t.Errorf("%d boards between two lines typed:\n%s", boards, turn)
		}
		if i > 0 && boards == 1 && !status.MatchString(turn) {
			t.Errorf("a board without its status line:\n%s", turn)
		}
	}
	if n := len(status.FindAllString(tr, -1)); n != 4 {
		// The first turn's board, then one after each of the bot's three turns.
		t.Errorf("%d status lines, want 4:\n%s", n, tr)
	}
	// The bot's moves are told, whether its board came apart from the
	// one before it ("— playing…") or, the bot faster than the posts,
	// merged with it.
	if n := len(regexp.MustCompile(`(?m)^(🂠|🃏|🚂|🎫) 🤖 `).FindAllString(tr, -1)); n < 4 {
		t.Errorf("%d moves of the bot told, want its first tickets and three turns:\n%s", n, tr)
	}
}
