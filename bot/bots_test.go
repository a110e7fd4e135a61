package bot_test

import (
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// withBot opens a USA table of alice and an easy bot.
func withBot(t *testing.T, e *env) *table {
	t.Helper()
	tb := &table{e: e, ch: e.channel("table"), kept: map[string]bool{}, returned: map[string]bool{}, bots: true}
	tb.players = []fakediscord.User{e.user("alice")}
	tb.host = tb.players[0]
	tb.do(e.ttr(tb.host.ID, tb.ch.ID, "new", fakediscord.StringOption("map", "usa")))
	if a := tb.do(e.ttr(tb.host.ID, tb.ch.ID, "addbot", fakediscord.StringOption("level", "easy"))); a.msg.Ephemeral() {
		t.Fatalf("/ttr addbot: %q", a.msg.Content)
	}
	if a := tb.do(e.ttr(tb.host.ID, tb.ch.ID, "start")); a.msg.Ephemeral() {
		t.Fatalf("/ttr start: %q", a.msg.Content)
	}
	tb.setup()
	return tb
}

// TestShutdownWithABotAboutToMove stops the bot while a bot player's move
// is scheduled: the stop must not wait for it.
func TestShutdownWithABotAboutToMove(t *testing.T) {
	e := newEnv(t, envOptions{bots: true, botDelay: time.Hour})
	tb := withBot(t, e)
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

// TestGameWithABot plays a whole game of a person against a bot: the bot's
// moves are posted outside any interaction, through the same Poster.
func TestGameWithABot(t *testing.T) {
	e := newEnv(t, envOptions{bots: true})
	tb := withBot(t, e)
	tb.playToTheEnd()
	if tb.stats.BotTurns < 10 {
		t.Errorf("only %d bot turns", tb.stats.BotTurns)
	}
}
