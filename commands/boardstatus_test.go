package commands

import (
	"fmt"
	"strings"
	"testing"

	"conductor/engine"
)

// A board carries the table in one line of words (whose turn, points and
// trains) and says when a bot plays next: the board after a person's move
// before a bot's turn does, the bot's board before the person's does not.
func TestBoardsCarryTheirStatus(t *testing.T) {
	w := newWorld(t)
	w.svc.cfg.Bots = testBots
	w.svc.cfg.BotLevels = []string{"easy"}
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	w.keepFirstTickets("u1", 0)
	waitFor(t, func() bool {
		return w.under("c1", func(g *engine.Game) bool { return g.Phase() == engine.PhaseTurn && g.Current() == 0 })
	}, "u1's turn")
	w.svc.Quiet()
	before := len(w.poster.all("c1"))
	turn := 0
	w.under("c1", func(g *engine.Game) bool { turn = g.Turn(); return true })
	w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
	w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
	waitFor(t, func() bool {
		return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 && g.Turn() > turn+1 })
	}, "the bot plays")
	w.svc.Quiet()
	posts := w.poster.all("c1")[before:]
	if len(posts) != 2 {
		t.Fatalf("%d posts, want u1's board and the bot's: %q", len(posts), contents(posts))
	}
	bot := seatNameOf(w, 1)
	if !posts[0].BotNext || !strings.Contains(posts[0].Status, "▶ 🔵 🤖 "+bot) || !strings.Contains(posts[0].Status, "🔴 name-u1 0 pts · 45 trains") {
		t.Errorf("u1's board: BotNext %v, status %q", posts[0].BotNext, posts[0].Status)
	}
	if posts[1].BotNext || !strings.HasPrefix(posts[1].Status, "▶ 🔴 name-u1 ") {
		t.Errorf("the bot's board: BotNext %v, status %q", posts[1].BotNext, posts[1].Status)
	}
}
