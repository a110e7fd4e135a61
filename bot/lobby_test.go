package bot_test

import (
	"net/http"
	"testing"

	"conductor/internal/fakediscord"
)

// waitLobby waits for the lobby posted in a channel.
func waitLobby(e *env, channel string) fakediscord.Message {
	e.t.Helper()
	var lobby fakediscord.Message
	if err := e.srv.WaitFor("the lobby", func() bool {
		ls := e.lobbies(channel)
		if len(ls) > 0 {
			lobby = ls[len(ls)-1]
		}
		return len(ls) > 0
	}); err != nil {
		e.t.Fatal(err)
	}
	return lobby
}

// Discord fails the answer to /ttr new (a 500, an expired token): the
// lobby is a post of its own, shown anyway, and players join it.
func TestLobbyShownWhenTheAnswerFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("table")
	alice, bob := e.user("alice"), e.user("bob")
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: callbackRoute, Times: 1, Status: http.StatusInternalServerError})
	h, err := e.srv.RunCommand(alice.ID, ch.ID, "ttr", fakediscord.Subcommand("new"))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.tracker.wait(h.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, answered := h.Callback(); answered {
		t.Fatal("the fault did not fail the answer")
	}
	lobby := waitLobby(e, ch.ID)
	game := e.srv.Threads(ch.ID)[0].ID
	startIn(e, lobby, game, alice, bob)
	e.srv.CheckClean(t)
}

// The process dies right after storing a lobby, before Discord took either
// the answer or the lobby's post: the next start posts the lobby, and the
// table is played.
func TestLobbyStoredBeforeACrashIsShownAtStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("table")
	alice, bob := e.user("alice"), e.user("bob")
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: callbackRoute, Times: 1, Status: http.StatusInternalServerError})
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: boardPost, Path: "/channels/" + ch.ID + "/messages", Status: http.StatusServiceUnavailable})
	h, err := e.srv.RunCommand(alice.ID, ch.ID, "ttr", fakediscord.Subcommand("new"))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.tracker.wait(h.ID, 1); err != nil {
		t.Fatal(err)
	}
	if len(e.lobbies(ch.ID)) != 0 {
		t.Fatal("the lobby got through the failing Discord")
	}
	e.stop()
	e.srv.ClearFaults()
	e.start()
	lobby := waitLobby(e, ch.ID)
	startIn(e, lobby, e.srv.Threads(ch.ID)[0].ID, alice, bob)
	e.srv.CheckClean(t)
}
