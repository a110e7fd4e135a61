package bot_test

import (
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// withBot opens a USA table of a person and an easy bot.
func withBot(t testing.TB, e *env, channel string) *table {
	t.Helper()
	tb := &table{e: e, parent: e.channel(channel), kept: map[string]bool{}, returned: map[string]bool{}, bots: true}
	tb.players = []fakediscord.User{e.user(channel + "-alice")}
	tb.host = tb.players[0]
	lobby, ch := e.newGame(tb.host.ID, tb.parent.ID, fakediscord.StringOption("map", "usa"))
	tb.ch = ch
	tb.do(lobby)
	if a := tb.do(e.ttr(tb.host.ID, tb.ch.ID, "addbot", fakediscord.StringOption("level", "easy"))); a.msg.Ephemeral() {
		t.Fatalf("/ttr addbot: %q", a.msg.Body())
	}
	if a := tb.do(e.ttr(tb.host.ID, tb.ch.ID, "start")); a.msg.Ephemeral() {
		t.Fatalf("/ttr start: %q", a.msg.Body())
	}
	tb.setup()
	return tb
}

// TestShutdownWithABotAboutToMove stops the bot while a bot player's move
// is scheduled: the stop must not wait for it.
func TestShutdownWithABotAboutToMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{bots: true, botDelay: time.Hour})
	tb := withBot(t, e, "table")
	cur, b := tb.current()
	if cur.ID != tb.host.ID {
		t.Fatalf("the board names %s first", cur.Username)
	}
	tb.draw(cur, b)
	if !tb.turnMoved(b) {
		t.Fatal("alice's turn did not end")
	}
	stopped := make(chan struct{})
	go func() {
		e.stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(15 * time.Second):
		t.Fatal("the shutdown hangs on the bot's scheduled move")
	}
}
