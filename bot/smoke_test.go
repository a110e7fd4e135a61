package bot_test

import (
	"testing"

	"conductor/internal/fakediscord"
)

func TestSmokeLobby(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	ch := e.channel("table")
	a := e.ttr(alice.ID, ch.ID, "new", fakediscord.StringOption("map", "usa"))
	t.Logf("cb %d msg %q embeds %d", a.cb.Type, a.msg.Content, len(a.msg.Embeds))
	join := button(a.msg, "lobby:", ":join")
	j := e.click(bob.ID, a.msg.ID, join)
	t.Logf("join cb %d", j.cb.Type)
	start := button(j.msg, "lobby:", ":start")
	s := e.click(alice.ID, a.msg.ID, start)
	t.Logf("start cb %d", s.cb.Type)
	b, ok := e.latest(ch.ID, isBoard)
	t.Logf("board %v %q", ok, b.Content)
	e.srv.CheckClean(t)
}
