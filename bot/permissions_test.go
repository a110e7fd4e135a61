package bot_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"conductor/internal/fakediscord"
	"conductor/ops"
)

const threadsRoute = "/channels/{channel_id}/threads"

// threadRequests counts the bot's attempts to open a thread.
func threadRequests(e *env) int { return len(e.srv.RequestsTo("POST", threadsRoute)) }

// startIn lets bob join the lobby and alice start the game, and checks the
// first board arrives in game.
func startIn(e *env, lobby fakediscord.Message, game string, alice, bob fakediscord.User) {
	e.t.Helper()
	e.click(bob.ID, lobby.ID, button(lobby, "lobby:", ":join"))
	m, _ := e.srv.Message(lobby.ID)
	e.click(alice.ID, m.ID, button(m, "lobby:", ":start"))
	if _, ok := e.latest(game, isBoard); !ok {
		e.t.Fatalf("no board in %s", game)
	}
}

// Threads allowed but posting in them denied: the bot opens no thread (it
// could not show a board there), plays in the channel and says why.
func TestThreadsWithoutPostingInThemPlayInTheChannel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("no-thread-posts")
	e.srv.SetOverwrite(ch.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0, Deny: fakediscord.PermSendMessagesInThreads})
	alice, bob := e.user("alice"), e.user("bob")
	lobby, game := e.newGame(alice.ID, ch.ID)
	if game.ID != ch.ID || threadRequests(e) != 0 {
		t.Fatalf("a thread was opened (%d requests) where the bot cannot post", threadRequests(e))
	}
	if !strings.Contains(lobby.msg.Body(), "Send Messages in Threads") {
		t.Errorf("the lobby does not say why there is no thread: %q", lobby.msg.Body())
	}
	startIn(e, lobby.msg, ch.ID, alice, bob)
	e.srv.CheckClean(t)
}

// Without file uploads (or posts) in the channel, /ttr new opens nothing
// and says privately exactly what to grant.
func TestChannelRefusingFilesOpensNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("no-files")
	e.srv.SetOverwrite(ch.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0, Deny: fakediscord.PermAttachFiles})
	a := e.ttr(e.user("alice").ID, ch.ID, "new")
	if !a.msg.Ephemeral() || !strings.Contains(a.msg.Body(), "Attach Files") || strings.Contains(a.msg.Body(), "Send Messages") {
		t.Errorf("the refusal: %q", a.msg.Body())
	}
	if threadRequests(e) != 0 || len(e.srv.Threads(ch.ID)) != 0 || len(e.lobbies(ch.ID)) != 0 {
		t.Error("a thread or a lobby was opened")
	}
	if recs, _ := e.st.List(); len(recs) != 0 {
		t.Errorf("%d tables stored", len(recs))
	}
	e.srv.CheckClean(t)
}

// In a private thread (the bot is not a member) /ttr new is refused; in a
// public thread the table plays there, without a thread of its own.
func TestTablesInThreads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("tables")
	alice, bob := e.user("alice"), e.user("bob")
	private := e.srv.CreatePrivateThread(ch.ID, "secret", alice.ID)
	a := e.ttr(alice.ID, private.ID, "new")
	if !a.msg.Ephemeral() || !strings.Contains(a.msg.Body(), "private thread") {
		t.Errorf("/ttr new in a private thread: %q", a.msg.Body())
	}
	if recs, _ := e.st.List(); len(recs) != 0 || threadRequests(e) != 0 {
		t.Fatal("a table was opened in a private thread")
	}
	public := e.srv.CreateThread(ch.ID, "open")
	lobby, game := e.newGame(alice.ID, public.ID)
	if game.ID != public.ID || threadRequests(e) != 0 || button(lobby.msg, "lobby:", ":join") == "" {
		t.Fatalf("/ttr new in a public thread: %q in %s", lobby.msg.Body(), game.ID)
	}
	startIn(e, lobby.msg, public.ID, alice, bob)
	e.srv.CheckClean(t)
}

// A moderator takes Send Messages in Threads away mid-game: the board
// waits (nothing is dropped, no retry loop hammers Discord), /healthz shows
// the channel without calling the bot unhealthy, the next players who act
// are told what is missing, and once it is granted again the next act
// brings the board.
func TestPermissionsRemovedMidGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	refused := func() int {
		n := 0
		for _, r := range e.srv.RequestsTo("POST", boardPost) {
			if r.Params["channel_id"] == tb.ch.ID && r.Status == http.StatusForbidden {
				n++
			}
		}
		return n
	}
	// Without Read Message History the board goes to the channel, not
	// through the move's interaction (via.go), which the thread's
	// permissions do not touch.
	e.srv.SetOverwrite(tb.parent.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0, Deny: fakediscord.PermSendMessagesInThreads | fakediscord.PermReadMessageHistory})
	before, next := tb.drawTurn()
	if err := e.srv.WaitFor("the refused board", func() bool { return refused() == 1 }); err != nil {
		t.Fatal(err)
	}
	if q, _ := e.st.Outbox(tb.ch.ID); len(q) == 0 {
		t.Fatal("the refused board was dropped")
	}
	h := e.b.Health()
	if len(h.RefusedChannels) != 1 || h.RefusedChannels[0].Channel != tb.ch.ID || h.RefusedChannels[0].Code != 50013 {
		t.Errorf("health: refused channels %+v", h.RefusedChannels)
	}
	rec := httptest.NewRecorder()
	ops.Handler(e.b, e.st, "").ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	var rep ops.HealthReport
	json.NewDecoder(rec.Body).Decode(&rep)
	if rec.Code != http.StatusOK || len(rep.Gateway.RefusedChannels) != 1 {
		t.Errorf("/healthz %d: %+v", rec.Code, rep)
	}
	for _, p := range tb.players {
		e.run(p.ID, tb.ch.ID, "hand")
		if notices(e, tb.ch.ID, p.ID, "Send Messages in Threads") != 1 {
			t.Errorf("%s was not told what the bot lacks", p.Username)
		}
	}
	if n := refused(); n != 1 {
		t.Errorf("%d refused posts: the bot retried with the permission still missing", n)
	}
	if len(tb.boardsAfter(before.ID)) != 0 {
		t.Fatal("a board got through")
	}
	e.srv.SetOverwrite(tb.parent.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0})
	e.run(next, tb.ch.ID, "hand")
	tb.oneBoardFollows(before, next)
	if h := e.b.Health(); len(h.RefusedChannels) != 0 {
		t.Errorf("the channel is still listed: %+v", h.RefusedChannels)
	}
	e.srv.CheckClean(t)
}
