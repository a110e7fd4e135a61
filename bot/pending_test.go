package bot_test

import (
	"strings"
	"testing"

	"conductor/internal/fakediscord"
)

// TestDismissedTicketMenuComesBackAfterARestart: a player draws tickets,
// dismisses the menu, and the bot restarts. A turn command and the old
// board's Tickets button bring the menu back (nothing is drawn twice), and
// the recovered menu ends the turn.
func TestDismissedTicketMenuComesBackAfterARestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "europe", "classic", "alice", "bob")
	tb.setup()
	if tb.stats.Recovered != 1 {
		t.Fatalf("the set-up recovered %d dismissed prompts", tb.stats.Recovered)
	}
	b, _ := tb.board()
	cur, ok := tb.user(lastMention(b.Body()))
	if !ok {
		t.Fatalf("the board names no player: %q", b.Body())
	}
	a := tb.do(e.click(cur.ID, b.ID, button(b, "tickets:", "")))
	if _, menu := selectMenu(a.msg); !menu {
		t.Fatalf("drawing tickets shows a menu: %q", a.msg.Body())
	}
	tb.restart() // the ephemeral menu is gone, dismissed
	for _, how := range []func() answer{
		func() answer { return tb.do(e.run(cur.ID, tb.ch.ID, "draw")) },
		func() answer { return tb.do(e.click(cur.ID, b.ID, button(b, "tickets:", ""))) },
	} {
		a = how()
		if _, menu := selectMenu(a.msg); !menu || !a.msg.Ephemeral() || !strings.Contains(a.msg.Body(), "still have tickets") {
			t.Fatalf("the ticket menu comes back: %q", a.msg.Body())
		}
	}
	tb.keepFewest(cur, a)
	if !tb.turnMoved(b) {
		t.Fatal("keeping from the recovered menu does not end the turn")
	}
}

// TestPendingTunnelComesBackAfterARestart: the players prefer tunnels until
// one asks for more cards; the player dismisses the question and the bot
// restarts; a turn command shows the tunnel's buttons again, and giving up
// from them ends the turn.
func TestPendingTunnelComesBackAfterARestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for game := 0; game < 4; game++ {
		tb := newTable(e, "tunnels-"+string(rune('a'+game)), "europe", "classic", "alice", "bob")
		tb.setup()
		for turn := 0; turn < 400 && !tb.over(); turn++ {
			b, _ := tb.board()
			cur, ok := tb.user(lastMention(b.Body()))
			if !ok {
				t.Fatalf("the board names no player: %q", b.Body())
			}
			route := ""
			for _, c := range e.complete(cur.ID, tb.ch.ID, "claim", fakediscord.Focused(fakediscord.StringOption("route", ""))) {
				if strings.Contains(c.Name, "tunnel") {
					route, _ = c.Value.(string)
					break
				}
			}
			if route != "" {
				a := tb.do(e.run(cur.ID, tb.ch.ID, "claim", fakediscord.StringOption("route", route)))
				if pay := button(a.msg, "pay:", ""); pay != "" && !strings.HasSuffix(pay, ":cancel") {
					a = tb.do(e.click(cur.ID, a.msg.ID, pay))
				}
				if button(a.msg, "tunnel:", ":cancel") != "" {
					tb.restart()
					a = tb.do(e.run(cur.ID, tb.ch.ID, "draw"))
					cancel := button(a.msg, "tunnel:", ":cancel")
					if cancel == "" || !a.msg.Ephemeral() {
						t.Fatalf("a turn command shows the pending tunnel again: %q", a.msg.Body())
					}
					tb.do(e.click(cur.ID, a.msg.ID, cancel))
					if !tb.turnMoved(b) {
						t.Fatal("giving up the recovered tunnel does not end the turn")
					}
					return
				}
				if tb.turnMoved(b) {
					continue
				}
			}
			tb.draw(cur, b)
		}
	}
	t.Fatal("in four games no tunnel asked for more cards")
}
