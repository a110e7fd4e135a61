package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/internal/fakediscord"
)

// startedTable is a USA table of alice and bob past the ticket choice.
func startedTable(t *testing.T, e *env, channel string) *table {
	t.Helper()
	tb := newTable(e, channel, "usa", "", "alice", "bob")
	tb.setup()
	return tb
}

// current is the player the latest board names.
func (tb *table) current() (fakediscord.User, fakediscord.Message) {
	tb.e.t.Helper()
	b, ok := tb.board()
	if !ok {
		tb.e.t.Fatal("no board")
	}
	p, ok := tb.user(lastMention(b.Body()))
	if !ok {
		tb.e.t.Fatalf("the board names no player: %q", b.Body())
	}
	return p, b
}

func (tb *table) other(p fakediscord.User) fakediscord.User {
	for _, q := range tb.players {
		if q.ID != p.ID {
			return q
		}
	}
	return fakediscord.User{}
}

// boards counts the board posts of the table's channel.
func (tb *table) boards() int {
	n := 0
	for _, m := range tb.e.srv.Messages(tb.ch.ID) {
		if isBoardPost(m) {
			n++
		}
	}
	return n
}

// callbacks counts the bot's callback requests for one interaction.
func callbacks(srv *fakediscord.Server, interactionID string) int {
	n := 0
	for _, r := range srv.RequestsTo("POST", "/interactions/{interaction_id}/{interaction_token}/callback") {
		if r.Params["interaction_id"] == interactionID {
			n++
		}
	}
	return n
}

func TestTwoPlayersChooseTicketsAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	b, _ := tb.board()
	setup := button(b, "setup:", "")
	var menus []answer
	for _, p := range tb.players {
		menus = append(menus, e.click(p.ID, b.ID, setup))
	}
	// Both players submit their menus at the same moment.
	var handles []*fakediscord.InteractionHandle
	for i, p := range tb.players {
		menu, ok := selectMenu(menus[i].msg)
		if !ok {
			t.Fatalf("%s got no ticket menu", p.Username)
		}
		var values []string
		for _, o := range menu.Options[:*menu.MinValues] {
			values = append(values, o.Value)
		}
		h, err := e.srv.SelectValues(p.ID, menus[i].msg.ID, menu.CustomID, values...)
		if err != nil {
			t.Fatal(err)
		}
		handles = append(handles, h)
	}
	for i, h := range handles {
		a := e.finish(h, nil)
		if a.cb.Type != fakediscord.CallbackUpdateMessage || !strings.Contains(a.msg.Body(), "(") {
			t.Errorf("%s: callback %d %q, want the menu replaced by the kept tickets", tb.players[i].Username, a.cb.Type, a.msg.Body())
		}
	}
	// One board for the start, one once both had chosen.
	if n := tb.boards(); n != 2 {
		t.Errorf("%d board posts, want 2", n)
	}
	if _, b := tb.current(); button(b, "draw:", ":deck") == "" {
		t.Error("the first turn's board has no deck button")
	}
	e.srv.CheckClean(t)
}

func TestActingPlayerAndOtherClickAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	cur, b := tb.current()
	other := tb.other(cur)
	deck := button(b, "draw:", ":deck")
	h1, err1 := e.srv.ClickButton(cur.ID, b.ID, deck)
	h2, err2 := e.srv.ClickButton(other.ID, b.ID, deck)
	a1, a2 := e.finish(h1, err1), e.finish(h2, err2)
	if !a1.msg.Ephemeral() || !strings.Contains(a1.msg.Body(), "drew") || button(a1.msg, "draw:", "") == "" {
		t.Errorf("the player to play: %q, want their card and the second draw", a1.msg.Body())
	}
	if !a2.msg.Ephemeral() || !strings.Contains(a2.msg.Body(), "not yours") {
		t.Errorf("the other player: %q, want a note that it is not their turn", a2.msg.Body())
	}
	e.srv.CheckClean(t)
}

func TestTablesInSeveralChannelsPlayAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var tables []*table
	for _, name := range []string{"one", "two", "three", "four"} {
		tables = append(tables, startedTable(t, e, name))
	}
	before := make([]string, len(tables))
	var first []*fakediscord.InteractionHandle
	for i, tb := range tables {
		cur, b := tb.current()
		before[i] = b.ID
		h, err := e.srv.ClickButton(cur.ID, b.ID, button(b, "draw:", ":deck"))
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, h)
	}
	var second []*fakediscord.InteractionHandle
	for i, h := range first {
		a := e.finish(h, nil)
		cur, _ := tables[i].current()
		h2, err := e.srv.ClickButton(cur.ID, a.msg.ID, button(a.msg, "draw:", ":deck"))
		if err != nil {
			t.Fatalf("table %d: %v (%q)", i, err, a.msg.Body())
		}
		second = append(second, h2)
	}
	for i, h := range second {
		e.finish(h, nil)
		if b, _ := tables[i].board(); b.ID == before[i] {
			t.Errorf("table %d: no new board after two draws", i)
		}
	}
	e.srv.CheckClean(t)
}

// cards reads a player's card count from /score (public counts only).
func (tb *table) scoreLine(p fakediscord.User) string {
	a := tb.e.run(p.ID, tb.ch.ID, "score")
	if len(a.msg.Embeds) == 0 {
		tb.e.t.Fatalf("/score has no embed: %q", a.msg.Body())
	}
	for _, line := range strings.Split(a.msg.Embeds[0].Description, "\n") {
		if strings.Contains(line, p.Username) {
			return line
		}
	}
	tb.e.t.Fatalf("/score does not list %s", p.Username)
	return ""
}

func TestRepeatedInteractionIsAppliedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	cur, b := tb.current()
	before := tb.scoreLine(cur)
	a := e.click(cur.ID, b.ID, button(b, "draw:", ":deck"))
	afterOne := tb.scoreLine(cur)
	if afterOne == before {
		t.Fatalf("the draw changed nothing: %q", before)
	}
	// Discord delivers the same interaction again.
	payload := json.RawMessage(a.h.Payload())
	if err := e.srv.DispatchEvent(e.guild.ID, "INTERACTION_CREATE", payload); err != nil {
		t.Fatal(err)
	}
	if err := e.tracker.wait(a.h.ID, 2); err != nil {
		t.Fatal(err)
	}
	if got := tb.scoreLine(cur); got != afterOne {
		t.Errorf("the repeat was applied again: %q, then %q", afterOne, got)
	}
	if n := callbacks(e.srv, a.h.ID); n != 1 {
		t.Errorf("%d callbacks for one interaction", n)
	}
	// After a restart the bot has forgotten recent ids; the store has not.
	e.restart()
	if err := e.srv.DispatchEvent(e.guild.ID, "INTERACTION_CREATE", payload); err != nil {
		t.Fatal(err)
	}
	if err := e.tracker.wait(a.h.ID, 1); err != nil {
		t.Fatal(err)
	}
	if got := tb.scoreLine(cur); got != afterOne {
		t.Errorf("the repeat after a restart was applied again: %q, then %q", afterOne, got)
	}
	e.srv.CheckClean(t)
}

func TestStaleButtonIsHarmless(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	// Discord refuses to take the old board's buttons off (or a player
	// clicks before it does): a click on them must still be harmless.
	for _, route := range []string{"/channels/{channel_id}/messages/{message_id}", followUpEdit} {
		e.srv.InjectFault(fakediscord.Fault{Method: "PATCH", Route: route, Status: 500, Code: 0, Message: "500: Internal Server Error"})
	}
	cur, old := tb.current()
	deck := button(old, "draw:", ":deck")
	a := e.click(cur.ID, old.ID, deck)
	e.click(cur.ID, a.msg.ID, button(a.msg, "draw:", ":deck"))
	next, b := tb.current()
	if b.ID == old.ID || next.ID == cur.ID {
		t.Fatal("the turn did not pass")
	}
	boards := tb.boards()
	line := tb.scoreLine(next)
	for _, p := range tb.players {
		s := e.click(p.ID, old.ID, deck)
		if !s.msg.Ephemeral() || !strings.Contains(s.msg.Body(), "earlier turn") {
			t.Errorf("%s clicked an old board: %q, want a note about an earlier turn", p.Username, s.msg.Body())
		}
	}
	if tb.boards() != boards || tb.scoreLine(next) != line {
		t.Error("an old button changed the game")
	}
	e.srv.CheckClean(t)
}

func TestNonPlayerCannotAct(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	carol := e.user("carol")
	_, b := tb.current()
	boards := tb.boards()
	for _, a := range []answer{
		e.click(carol.ID, b.ID, button(b, "draw:", ":deck")),
		e.run(carol.ID, tb.ch.ID, "claim", fakediscord.StringOption("route", "New York – Washington")),
		e.run(carol.ID, tb.ch.ID, "hand"),
	} {
		if !a.msg.Ephemeral() || a.msg.VisibleTo != carol.ID || !strings.Contains(a.msg.Body(), "not playing") {
			t.Errorf("carol got %q (ephemeral %v), want a private note that she is not playing", a.msg.Body(), a.msg.Ephemeral())
		}
	}
	if tb.boards() != boards {
		t.Error("a non-player changed the game")
	}
	e.srv.CheckClean(t)
}

func TestHandByDM(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	alice, bob := tb.players[0], tb.players[1]
	e.srv.FailDMsTo(bob.ID)

	a := e.run(alice.ID, tb.ch.ID, "hand", fakediscord.BooleanOption("dm", true))
	if !a.msg.Ephemeral() || !strings.Contains(a.msg.Body(), "DMs") {
		t.Errorf("alice: %q, want a private note that the hand is in her DMs", a.msg.Body())
	}
	dm, ok := e.srv.DMChannel(alice.ID)
	if !ok {
		t.Fatal("no DM channel with alice")
	}
	msgs := e.srv.Messages(dm.ID)
	if len(msgs) != 1 {
		t.Fatalf("%d DMs to alice", len(msgs))
	}
	pic, ok := msgs[0].Attachment("hand.png")
	if !ok {
		t.Fatal("the DM has no hand picture")
	}
	if _, err := pic.Image(); err != nil {
		t.Fatal(err)
	}

	b := e.run(bob.ID, tb.ch.ID, "hand", fakediscord.BooleanOption("dm", true))
	if !b.msg.Ephemeral() || b.msg.VisibleTo != bob.ID {
		t.Fatalf("bob's fallback is not private: %q", b.msg.Body())
	}
	if !strings.Contains(b.msg.Body(), "Privacy Settings") {
		t.Errorf("bob's fallback does not say how to open DMs: %q", b.msg.Body())
	}
	if _, ok := b.msg.Attachment("hand.png"); !ok || len(b.msg.Embeds) == 0 {
		t.Error("bob's fallback does not show his hand")
	}
	if dm, ok := e.srv.DMChannel(bob.ID); ok && len(e.srv.Messages(dm.ID)) > 0 {
		t.Error("a DM reached bob")
	}
	e.srv.CheckClean(t)
}

func TestRateLimitedBoardUploadArrives(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	// The board after bob's turn starts a round; it has a picture when
	// alice's turn before it changed the map: play until she claims.
	for claimed := false; !claimed; {
		cur, _ := tb.current()
		claims := tb.stats.Claims
		if !tb.playTurn() {
			t.Fatal("the game ended before alice claimed a route")
		}
		e.svc.Quiet()
		claimed = cur.ID == tb.players[0].ID && tb.stats.Claims > claims
	}
	cur, b := tb.current()
	a := e.click(cur.ID, b.ID, button(b, "draw:", ":deck"))
	posts := len(e.srv.RequestsTo("POST", followUpPost))
	e.srv.RateLimit("POST", followUpPost, 1, 150*time.Millisecond)
	e.click(cur.ID, a.msg.ID, button(a.msg, "draw:", ":deck"))
	nb, _ := tb.board()
	if nb.ID == b.ID {
		t.Fatal("the board after the turn never arrived")
	}
	pic, _ := nb.Attachment("board.png")
	if _, err := pic.Image(); err != nil {
		t.Fatal(err)
	}
	if hits := e.srv.FaultHits(); hits[0] != 1 {
		t.Fatalf("the 429 was served %d times", hits[0])
	}
	reqs := e.srv.RequestsTo("POST", followUpPost)[posts:]
	if len(reqs) != 2 || reqs[0].Fault == "" || reqs[1].Status != 200 {
		t.Fatalf("want a refused upload then a successful one, got %d requests", len(reqs))
	}
	if !bytes.Equal(reqs[0].Body, reqs[1].Body) || len(reqs[1].Files) != 1 {
		t.Error("the retry did not re-send the same multipart body with its file")
	}
	e.srv.CheckClean(t)
}

// slowHandler delays every request, like a busy machine.
type slowHandler struct {
	h     bot.Handler
	delay time.Duration
}

func (s slowHandler) Handle(ctx context.Context, req *commands.Request, resp commands.Responder) {
	time.Sleep(s.delay)
	s.h.Handle(ctx, req, resp)
}

func TestSlowHandlerAnswersThroughDeferral(t *testing.T) {
	t.Parallel()
	// The fake refuses callbacks later than 1.2 s; the handler takes 1.5.
	e := newEnv(t, envOptions{fake: fakediscord.Options{CallbackDeadline: 1200 * time.Millisecond}, deferAfter: 150 * time.Millisecond})
	e.tracker.h = slowHandler{h: e.svc, delay: 1500 * time.Millisecond}
	alice, bob := e.user("alice"), e.user("bob")
	ch := e.channel("table")

	// A public answer: the deferred "thinking" message becomes the lobby.
	lobby, game := e.newGame(alice.ID, ch.ID)
	if lobby.cb.Type != fakediscord.CallbackDeferredMessage {
		t.Fatalf("callback type %d, want 5", lobby.cb.Type)
	}
	if lobby.msg.Ephemeral() || lobby.msg.Loading() || button(lobby.msg, "lobby:", ":join") == "" {
		t.Fatalf("the lobby: ephemeral %v loading %v %q", lobby.msg.Ephemeral(), lobby.msg.Loading(), lobby.msg.Body())
	}
	// A component: acknowledged, then the lobby message is edited.
	join := e.click(bob.ID, lobby.msg.ID, button(lobby.msg, "lobby:", ":join"))
	if join.cb.Type != fakediscord.CallbackDeferredUpdate {
		t.Fatalf("callback type %d, want 6", join.cb.Type)
	}
	if m, _ := e.srv.Message(lobby.msg.ID); !m.Contains(bob.ID) {
		t.Error("the lobby does not show bob after his deferred join")
	}
	m, _ := e.srv.Message(lobby.msg.ID)
	e.click(alice.ID, m.ID, button(m, "lobby:", ":start"))
	// An ephemeral answer with a picture, edited into the deferred reply.
	hand := e.run(alice.ID, game.ID, "hand")
	if !hand.msg.Ephemeral() || hand.msg.Loading() {
		t.Fatalf("/hand: ephemeral %v loading %v", hand.msg.Ephemeral(), hand.msg.Loading())
	}
	if pic, ok := hand.msg.Attachment("hand.png"); !ok {
		t.Error("the deferred /hand lost its picture")
	} else if _, err := pic.Image(); err != nil {
		t.Error(err)
	}
	// A wrong guess: /ttr join is expected to answer publicly (the lobby),
	// but in a started game it is refused privately. The public
	// placeholder, whose visibility Discord cannot change, says the answer
	// went privately; the refusal follows, private; nothing is deleted.
	again := e.ttr(bob.ID, game.ID, "join")
	orig, _ := again.h.Original()
	if orig.Deleted || orig.Ephemeral() || orig.Loading() || !strings.Contains(orig.Body(), "privately") {
		t.Errorf("the public placeholder: deleted %v ephemeral %v %q", orig.Deleted, orig.Ephemeral(), orig.Body())
	}
	if ups := again.h.Followups(); len(ups) != 1 || !ups[0].Ephemeral() || ups[0].VisibleTo != bob.ID || !strings.Contains(ups[0].Body(), "started") {
		t.Errorf("the refusal is not a private follow-up: %+v", ups)
	}
	if n := len(e.srv.RequestsTo("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")); n != 0 {
		t.Errorf("%d deferred answers deleted", n)
	}
	for _, id := range []string{lobby.h.ID, join.h.ID, hand.h.ID, again.h.ID} {
		if n := callbacks(e.srv, id); n != 1 {
			t.Errorf("interaction %s: %d callbacks", id, n)
		}
	}
	if e.b.Deferrals() < 4 {
		t.Errorf("%d deferrals, want at least 4", e.b.Deferrals())
	}
	e.srv.CheckClean(t)
}

func TestHealthFollowsTheGateway(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.srv.WaitFor("a connected bot", func() bool { return e.b.Health().Connected }); err != nil {
		t.Fatal(err)
	}
	h := e.b.Health()
	if !h.CommandsRegistered || !h.DownSince.IsZero() || h.LastHeartbeatAck.IsZero() {
		t.Fatalf("health after start: %+v", h)
	}
	if err := e.srv.DropConnection(0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.WaitResumes(1); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.WaitFor("a reconnected bot", func() bool { return e.b.Health().Connected }); err != nil {
		t.Fatal(err)
	}
	// Interactions still work after the resume.
	ch := e.channel("table")
	if a, _ := e.newGame(e.user("alice").ID, ch.ID); a.msg.Ephemeral() || button(a.msg, "lobby:", ":join") == "" {
		t.Errorf("/ttr new after a reconnect: %q", a.msg.Body())
	}
	e.stop()
	h = e.b.Health()
	if h.Connected || h.DownSince.IsZero() {
		t.Errorf("health after close: %+v", h)
	}
	e.srv.CheckClean(t)
}

func TestInteractionsDuringShutdownGetANote(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	ch := e.channel("table")
	if err := e.b.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	h, err := e.srv.RunCommand(alice.ID, ch.ID, "ttr", fakediscord.Subcommand("new"))
	if err != nil {
		t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	if err != nil {
		t.Fatal(err)
	}
	m, _ := h.Original()
	if cb.Type != fakediscord.CallbackMessage || !m.Ephemeral() || !strings.Contains(m.Body(), "restarting") {
		t.Errorf("during shutdown: callback %d %q", cb.Type, m.Body())
	}
	if recs, _ := e.st.List(); len(recs) != 0 {
		t.Error("a game was opened during shutdown")
	}
	e.srv.CheckClean(t)
}
