package bot_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"conductor/internal/fakediscord"
)

// refusedDM is a way Discord refuses a DM.
type refusedDM struct {
	status, code int
	message      string
}

// dmRequests are the bot's posts to a user's DM channel.
func dmRequests(e *env, user string) []fakediscord.RecordedRequest {
	dm, ok := e.srv.DMChannel(user)
	if !ok {
		return nil
	}
	var out []fakediscord.RecordedRequest
	for _, r := range e.srv.RequestsTo("POST", "/channels/{channel_id}/messages") {
		if r.Params["channel_id"] == dm.ID {
			out = append(out, r)
		}
	}
	return out
}

// notices counts the private messages to user in a channel that say what.
func notices(e *env, channel, user, what string) int {
	n := 0
	for _, m := range e.srv.Messages(channel) {
		if m.Ephemeral() && m.VisibleTo == user && strings.Contains(m.Body(), what) {
			n++
		}
	}
	return n
}

// A turn DM Discord refuses never holds the table: whatever the refusal,
// the boards keep coming. A refusal for good turns the player's turn DMs
// off and the player is told privately the next time they act; Discord's
// "opening DMs too fast" keeps the DM waiting in its own queue. Every DM
// carries a nonce.
func TestRefusedTurnDMsNeverHoldTheTable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := startedTable(t, e, "table")
	refusals := 0
	for _, r := range []refusedDM{
		{http.StatusForbidden, 50007, "Cannot send messages to this user"},
		{http.StatusBadRequest, 50033, "Invalid Recipient(s)"},
		{http.StatusBadRequest, 20009, "Explicit content cannot be sent to the desired recipient(s)"},
		{http.StatusNotFound, 10013, "Unknown User"},
		{http.StatusForbidden, 40003, "You are opening direct messages too fast"},
	} {
		cur, _ := tb.current()
		waiter := tb.other(cur)
		if a := e.ttr(waiter.ID, tb.ch.ID, "notify"); !strings.Contains(a.msg.Body(), "🔔") {
			t.Fatalf("notify: %q", a.msg.Body())
		}
		e.srv.RefuseDMsTo(waiter.ID, r.status, r.code, r.message)
		tried := len(dmRequests(e, waiter.ID))
		// cur's move: the board asks waiter to play, and a DM is refused.
		before, next := tb.drawTurn()
		tb.oneBoardFollows(before, next)
		if err := e.srv.WaitFor("the refused DM", func() bool { return len(dmRequests(e, waiter.ID)) > tried }); err != nil {
			t.Fatalf("%d: %v", r.code, err)
		}
		req := dmRequests(e, waiter.ID)[tried]
		var body struct {
			Nonce   string `json:"nonce"`
			Enforce bool   `json:"enforce_nonce"`
		}
		if json.Unmarshal(req.JSON, &body); body.Nonce == "" || !body.Enforce {
			t.Errorf("%d: the DM carries no nonce: %s", r.code, req.Body)
		}
		// waiter's move, DMs still refused: the board after it comes.
		before, next = tb.drawTurn()
		tb.oneBoardFollows(before, next)

		// waiter acted since the refusal (their draws): told once, privately.
		e.run(waiter.ID, tb.ch.ID, "hand")
		told := notices(e, tb.ch.ID, waiter.ID, "turned your turn DMs off") == refusals+1
		if r.code == 40003 {
			// Discord asked to wait: the DM waits in the player's queue.
			if told {
				t.Errorf("40003: the player was told their DMs are off")
			}
			if q, _ := e.st.Outbox("dm:" + waiter.ID); len(q) != 1 {
				t.Errorf("40003: %d DMs waiting, want 1", len(q))
			}
			e.srv.AllowDMsTo(waiter.ID)
			continue
		}
		refusals++
		if !told {
			t.Errorf("%d: the player is not told privately (%d notes for %d refusals)", r.code, notices(e, tb.ch.ID, waiter.ID, "turned your turn DMs off"), refusals)
		}
		rec, _ := e.st.Get(tb.ch.ID)
		if v := rec.Options["notify."+waiter.ID]; v != "" {
			t.Errorf("%d: the player's turn DMs are %q, want off", r.code, v)
		}
		e.srv.AllowDMsTo(waiter.ID)
	}
	e.srv.CheckClean(t)
}
