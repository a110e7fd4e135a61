package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"conductor/commands"
	"conductor/web"
)

// panickyDiscord panics when asked about one instance: a fault deep in a
// request's handling, reachable from a request.
type panickyDiscord struct {
	web.Discord
	instance string
}

func (d panickyDiscord) ActivityInstance(ctx context.Context, id string) (commands.ActivityInstance, error) {
	if id == d.instance {
		panic("boom: internal detail " + id)
	}
	return d.Discord.ActivityInstance(ctx, id)
}

// TestAPanicInAHandlerIsA500: a panic while serving a request answers 500
// with a sentence and no internal text, is logged at error level, and the
// server answers the next request.
func TestAPanicInAHandlerIsA500(t *testing.T) {
	const bad = "i-6666-gc-1-2"
	logs := &logBuffer{}
	s := newStack(t, stackOptions{logs: logs, discord: func(d web.Discord) web.Discord { return panickyDiscord{d, bad} }})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	ans, code := s.session(alice, bad)
	if code != http.StatusInternalServerError || ans.Error != "internal" || ans.Message == "" {
		t.Fatalf("a panicking handler answered %d %s", code, ans.raw)
	}
	if strings.Contains(string(ans.raw), "boom") || strings.Contains(string(ans.raw), "panic") || strings.Contains(string(ans.raw), "goroutine") {
		t.Errorf("the 500 carries internal text: %s", ans.raw)
	}
	if l := logs.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "panic") || !strings.Contains(l, "boom") {
		t.Errorf("no error line for the panic:\n%s", l)
	}
	// The next requests are served.
	if resp, _ := s.fetch("/"); resp.StatusCode != http.StatusOK {
		t.Errorf("the page after a panic: %d", resp.StatusCode)
	}
	inst := s.launch(alice, thread)
	if ans, code := s.session(bob, inst); code != http.StatusOK || ans.Game == nil {
		t.Errorf("a session after a panic: %d %s", code, ans.raw)
	}
}

// TestAPanicInAMoveKeepsTheServerUp: a panic while a move is applied
// answers that move 500 and leaves the process and every other game
// running.
func TestAPanicInAMoveKeepsTheServerUp(t *testing.T) {
	logs := &logBuffer{}
	s := newStack(t, stackOptions{logs: logs})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	ans, _ := s.session(alice, inst)
	mover := s.current(thread, alice, bob)
	sess := ans.Session
	if mover.ID != alice.ID {
		b, _ := s.session(bob, inst)
		sess = b.Session
	}
	web.SetMoveHandler(s.web, func(context.Context, commands.PageMove) []commands.Message { panic("boom in a move") })
	f := s.state(sess)
	code, raw := s.call(sess, "POST", "/api/act", map[string]any{"nonce": "panic0001", "custom_id": f.Deck.ID})
	var refusal struct{ Error, Message string }
	json.Unmarshal(raw, &refusal)
	if code != http.StatusInternalServerError || refusal.Error != "internal" || strings.Contains(string(raw), "boom") {
		t.Fatalf("a move that panicked answered %d %s", code, raw)
	}
	if l := logs.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "boom in a move") {
		t.Errorf("no error line for the panic:\n%s", l)
	}
	// The server still plays: the same move, handled for real this time.
	web.SetMoveHandler(s.web, s.svc.Move)
	before := s.version(thread)
	s.act(sess, map[string]any{"custom_id": f.Deck.ID})
	s.svc.Quiet()
	if s.version(thread) == before {
		t.Error("the move after a panic changed nothing")
	}
}
