package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// A deferred answer is completed by editing the "thinking" message, never
// by deleting it: when Discord would refuse the delete, a private answer
// to a command deferred publicly still never shows in public (a follow-up
// right after a deferral edits the public placeholder, as Discord does).
func TestDeferredPrivateAnswerNeverTurnsPublic(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{fake: fakediscord.Options{CallbackDeadline: 1200 * time.Millisecond}, deferAfter: 150 * time.Millisecond})
	e.srv.InjectFault(fakediscord.Fault{Method: "DELETE", Route: "/webhooks/{webhook_id}/{webhook_token}/messages/@original", Status: http.StatusInternalServerError})
	alice, bob := e.user("alice"), e.user("bob")
	ch := e.channel("table")
	lobby, game := e.newGame(alice.ID, ch.ID)
	e.click(bob.ID, lobby.msg.ID, button(lobby.msg, "lobby:", ":join"))
	e.tracker.h = slowHandler{h: e.svc, delay: 1500 * time.Millisecond}
	// /ttr join usually answers with the lobby, in public: deferred so.
	// bob is seated already: his answer is private.
	again := e.ttr(bob.ID, game.ID, "join")
	if again.cb.Type != fakediscord.CallbackDeferredMessage {
		t.Fatalf("callback type %d, want a deferral", again.cb.Type)
	}
	if leaks := e.srv.PublicLeaks("already"); len(leaks) != 0 {
		t.Errorf("the private answer went public: %v", leaks)
	}
	ups := again.h.Followups()
	if len(ups) != 1 || !ups[0].Ephemeral() || ups[0].VisibleTo != bob.ID || !strings.Contains(ups[0].Body(), "already") {
		t.Errorf("the private answer: %+v", ups)
	}
	if orig, _ := again.h.Original(); orig.Loading() || orig.Deleted || !strings.Contains(orig.Body(), "privately") {
		t.Errorf("the placeholder: %+v", orig)
	}
	if n := len(e.srv.RequestsTo("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")); n != 0 {
		t.Errorf("%d deletes of a deferred answer", n)
	}
	e.srv.CheckClean(t)
}

// The bot's clock runs 5 s ahead of Discord's: judged on Discord's clock
// (from its Date headers), every interaction is still answered in time.
func TestClockAheadOfDiscordStillAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{fake: fakediscord.Options{ClockOffset: -5 * time.Second}})
	tb := startedTable(t, e, "table")
	tb.drawTurn()
	h := e.b.Health()
	if h.DroppedInteractions != 0 || e.b.Deferrals() != 0 {
		t.Errorf("%d interactions dropped, %d deferred", h.DroppedInteractions, e.b.Deferrals())
	}
	if h.ClockOffsetMillis < 4000 || h.ClockOffsetMillis > 6000 {
		t.Errorf("clock offset %d ms, want about 5000", h.ClockOffsetMillis)
	}
	if tb.interactions < 8 {
		t.Errorf("only %d interactions played", tb.interactions)
	}
	e.srv.CheckClean(t)
}
