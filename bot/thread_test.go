package bot_test

import (
	"strings"
	"testing"

	"conductor/internal/fakediscord"
)

// Two games opened in one channel are played side by side, each in its
// own thread: the parent channel gets only the two lobbies and the two
// results (with a link and a Rematch button); every board, every
// narration and the final sheets stay in the threads, which are archived
// at the end. A rematch opens a third thread with the same seats.
func TestTwoGamesInOneChannelEachInItsThread(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	lobbyChannel := e.channel("tables")
	usa := newTableIn(e, lobbyChannel, "usa", "", "ann", "ben")
	eu := newTableIn(e, lobbyChannel, "europe", "classic", "cleo", "dan")
	if usa.ch.ID == eu.ch.ID || usa.ch.ID == lobbyChannel.ID || !usa.ch.IsThread() || !eu.ch.IsThread() {
		t.Fatalf("games in %s and %s, want two threads of %s", usa.ch.ID, eu.ch.ID, lobbyChannel.ID)
	}
	for _, tb := range []*table{usa, eu} {
		if tb.ch.ParentID != lobbyChannel.ID {
			t.Fatalf("thread %s's parent is %s", tb.ch.ID, tb.ch.ParentID)
		}
	}
	usa.setup()
	eu.setup()
	// A game command typed in the parent channel points to the thread.
	if a := e.run(usa.players[0].ID, lobbyChannel.ID, "hand"); !a.msg.Ephemeral() || !a.msg.Contains("<#"+usa.ch.ID+">") {
		t.Errorf("/hand in the parent channel: %q", a.msg.Body())
	}
	// Interleaved turns: the two tables never see each other's moves.
	for turns := 0; !usa.over() || !eu.over(); turns++ {
		if turns > 1200 {
			t.Fatal("the games do not end")
		}
		for _, tb := range []*table{usa, eu} {
			if !tb.over() {
				tb.playTurn()
			}
		}
	}
	for _, tb := range []*table{usa, eu} {
		tb.audit()
		if err := e.srv.WaitFor("the thread archived", func() bool {
			ch, _ := e.srv.Channel(tb.ch.ID)
			return ch.Archived
		}); err != nil {
			t.Errorf("thread %s: %v", tb.ch.Name, err)
		}
	}

	var results []fakediscord.Message
	for _, m := range e.srv.Messages(lobbyChannel.ID) {
		switch {
		case m.Ephemeral():
		case button(m, "lobby:", "") != "" || m.Contains("🧵"):
			// a lobby (closed once started, with its link to the thread)
		case button(m, "rematch:", "") != "":
			results = append(results, m)
		default:
			t.Errorf("the parent channel got a message that belongs in a thread: %q", m.Body())
		}
		if _, pic := m.Attachment("board.png"); pic {
			t.Errorf("a board was posted in the parent channel")
		}
	}
	if len(results) != 2 {
		t.Fatalf("%d results in the parent channel, want 2", len(results))
	}
	for _, tb := range []*table{usa, eu} {
		found := false
		for _, r := range results {
			found = found || strings.Contains(r.Body(), "<#"+tb.ch.ID+">")
		}
		if !found {
			t.Errorf("no result links to thread %s", tb.ch.ID)
		}
		if n := len(e.srv.Messages(tb.ch.ID)); n < 20 {
			t.Errorf("thread %s holds only %d messages", tb.ch.ID, n)
		}
	}

	// Rematch: a stranger may not; a player opens a lobby with the same
	// seats in a new thread, announced in the parent channel.
	var usaResult fakediscord.Message
	for _, r := range results {
		if strings.Contains(r.Body(), "<#"+usa.ch.ID+">") {
			usaResult = r
		}
	}
	rematch := button(usaResult, "rematch:", "")
	if a := e.click(eu.players[0].ID, usaResult.ID, rematch); !a.msg.Ephemeral() || !strings.Contains(a.msg.Body(), "/ttr new") {
		t.Errorf("a stranger's rematch: %q", a.msg.Body())
	}
	threads := len(e.srv.Threads(lobbyChannel.ID))
	a := e.click(usa.players[1].ID, usaResult.ID, rematch)
	if !a.msg.Ephemeral() {
		t.Fatalf("the rematch answer is private: %q", a.msg.Body())
	}
	th := e.srv.Threads(lobbyChannel.ID)
	if len(th) != threads+1 {
		t.Fatalf("%d threads after the rematch, want %d", len(th), threads+1)
	}
	again := th[len(th)-1]
	lobby, ok := e.latest(lobbyChannel.ID, func(m fakediscord.Message) bool { return button(m, "lobby:", ":start") != "" })
	if !ok || !lobby.Contains(usa.players[0].ID) || !lobby.Contains(usa.players[1].ID) || !lobby.Contains("<#"+again.ID+">") {
		t.Fatalf("the rematch lobby: %+v", lobby.Text())
	}
	// A second click opens no second table.
	e.click(usa.players[0].ID, usaResult.ID, rematch)
	if n := len(e.srv.Threads(lobbyChannel.ID)); n != threads+1 {
		t.Errorf("a second rematch click opened another thread (%d)", n)
	}
	e.click(usa.players[1].ID, lobby.ID, button(lobby, "lobby:", ":start"))
	if _, ok := e.latest(again.ID, isBoard); !ok {
		t.Fatal("the rematch started, but no board in its thread")
	}
	e.srv.CheckClean(t)
}

// Without Create Public Threads the table says so and plays in the
// channel, as before threads.
func TestNoThreadPermissionPlaysInTheChannel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("no-threads")
	e.srv.SetOverwrite(ch.ID, fakediscord.Overwrite{ID: e.guild.ID, Type: 0, Deny: fakediscord.PermCreatePublicThreads})
	alice, bob := e.user("alice"), e.user("bob")
	lobby, game := e.newGame(alice.ID, ch.ID)
	if game.ID != ch.ID || len(e.srv.RequestsTo("POST", "/channels/{channel_id}/threads")) != 0 {
		t.Fatalf("a thread was asked for without the permission")
	}
	if !strings.Contains(lobby.msg.Body(), "Create Public Threads") {
		t.Errorf("the lobby does not say why there is no thread: %q", lobby.msg.Body())
	}
	e.click(bob.ID, lobby.msg.ID, button(lobby.msg, "lobby:", ":join"))
	m, _ := e.srv.Message(lobby.msg.ID)
	e.click(alice.ID, m.ID, button(m, "lobby:", ":start"))
	if _, ok := e.latest(ch.ID, isBoard); !ok {
		t.Fatal("no board in the channel")
	}
	e.srv.CheckClean(t)
}

// /ttr new thread:False plays in the channel without a word about threads.
func TestTableInTheChannelOnRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("here")
	lobby, game := e.newGame(e.user("alice").ID, ch.ID, fakediscord.BooleanOption("thread", false))
	if game.ID != ch.ID || len(e.srv.Threads(ch.ID)) != 0 {
		t.Fatal("a thread was opened though the table asked for none")
	}
	if strings.Contains(lobby.msg.Body(), "thread") {
		t.Errorf("the lobby talks of threads: %q", lobby.msg.Body())
	}
}

// A French table chosen by an English-speaking host: its thread, lobby,
// boards and narration are French, while each player's private replies
// follow their own Discord language.
func TestFrenchTableKeepsPrivateRepliesInEachPlayersLanguage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("table-fr")
	bob, alice := e.user("bob"), e.user("alice")
	e.srv.SetUserLocale(bob.ID, "en-US")
	e.srv.SetUserLocale(alice.ID, "fr")
	lobby, game := e.newGame(bob.ID, ch.ID, fakediscord.StringOption("map", "europe"), fakediscord.StringOption("language", "fr"))
	if !strings.HasPrefix(game.Name, "🚂 Les Aventuriers du Rail") || !lobby.msg.Contains("Aventuriers") {
		t.Fatalf("thread %q, lobby %+v", game.Name, lobby.msg.Text())
	}
	e.click(alice.ID, lobby.msg.ID, button(lobby.msg, "lobby:", ":join"))
	m, _ := e.srv.Message(lobby.msg.ID)
	e.click(bob.ID, m.ID, button(m, "lobby:", ":start"))
	board, ok := e.latest(game.ID, isBoard)
	if !ok || !strings.Contains(board.Body(), "La partie commence") {
		t.Fatalf("the first board is not French: %q", board.Body())
	}
	for _, c := range board.Buttons() {
		if c.Label != "" && strings.Contains(c.Label, "Choose") {
			t.Errorf("an English button on a French board: %q", c.Label)
		}
	}
	en := e.run(bob.ID, game.ID, "hand")
	fr := e.run(alice.ID, game.ID, "hand")
	if !en.msg.Ephemeral() || !fr.msg.Ephemeral() {
		t.Fatal("a hand was shown in public")
	}
	if !en.msg.Contains("tickets") || en.msg.Contains("Destination") {
		t.Errorf("bob's private reply is not English: %+v", en.msg.Text())
	}
	if !fr.msg.Contains("Destination") {
		t.Errorf("alice's private reply is not French: %+v", fr.msg.Text())
	}
	e.srv.CheckClean(t)
}

// Discord failing to open the thread (a 500) does not lose the table: it
// is played in the channel, and the lobby says Discord failed, not that
// permissions are missing.
func TestThreadThatDiscordFailsToOpenFallsBackToTheChannel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("flaky")
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: "/channels/{channel_id}/threads", Status: 500, Message: "500: Internal Server Error"})
	lobby, game := e.newGame(e.user("alice").ID, ch.ID)
	if game.ID != ch.ID {
		t.Fatal("a thread exists though Discord failed")
	}
	if !strings.Contains(lobby.msg.Body(), "Discord did not open a thread") || button(lobby.msg, "lobby:", ":join") == "" {
		t.Errorf("the lobby: %q", lobby.msg.Body())
	}
}
