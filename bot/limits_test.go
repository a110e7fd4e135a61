package bot_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"conductor/internal/fakediscord"
)

// One member sends /ttr new 30 times in a channel: two tables open (two
// threads, two lobbies), the other 28 are refused privately and open
// nothing.
func TestThirtyNewTablesFromOneMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ch := e.channel("tables")
	mallory := e.user("mallory")
	refused := 0
	for range 30 {
		a := e.ttr(mallory.ID, ch.ID, "new")
		if !a.msg.Ephemeral() {
			t.Fatalf("a public answer: %q", a.msg.Body())
		}
		if strings.Contains(a.msg.Body(), "already host 2 tables") {
			refused++
		}
	}
	if refused != 28 || len(e.srv.Threads(ch.ID)) != 2 || len(e.lobbies(ch.ID)) != 2 {
		t.Fatalf("%d refused, %d threads, %d lobbies; want 28, 2, 2", refused, len(e.srv.Threads(ch.ID)), len(e.lobbies(ch.ID)))
	}
	e.srv.CheckClean(t)
}

// Rematch, /ttr end, Rematch... ten times: one rematch table, one thread,
// one ping of the other player.
func TestRematchLoop(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	alice, bob := tb.players[0], tb.players[1]
	ask := e.ttr(alice.ID, tb.ch.ID, "end")
	e.click(alice.ID, ask.msg.ID, button(ask.msg, "end:", ":score"))
	var result fakediscord.Message
	if err := e.srv.WaitFor("the result in the parent channel", func() bool {
		var ok bool
		result, ok = e.latest(tb.parent.ID, func(m fakediscord.Message) bool { return button(m, "rematch:", "") != "" })
		return ok
	}); err != nil {
		t.Fatal(err)
	}
	threads := len(e.srv.Threads(tb.parent.ID))
	posted := len(e.srv.RequestsTo("POST", boardPost))
	ended := false
	for i := range 10 {
		a := e.click(alice.ID, result.ID, button(result, "rematch:", ""))
		if !a.msg.Ephemeral() {
			t.Fatalf("rematch %d: a public answer %q", i, a.msg.Body())
		}
		if i > 0 && !strings.Contains(a.msg.Body(), "already had its rematch") {
			t.Errorf("rematch %d: %q", i, a.msg.Body())
		}
		if th := e.srv.Threads(tb.parent.ID); len(th) > threads && !ended {
			// The rematch's host throws its lobby away.
			e.ttr(alice.ID, th[len(th)-1].ID, "end")
			ended = true
		}
	}
	if n := len(e.srv.Threads(tb.parent.ID)); n != threads+1 {
		t.Errorf("%d threads opened by ten rematches, want 1", n-threads)
	}
	pings := 0
	for _, r := range e.srv.RequestsTo("POST", boardPost)[posted:] {
		var body struct {
			Content  string `json:"content"`
			Mentions struct {
				Users []string `json:"users"`
			} `json:"allowed_mentions"`
		}
		json.Unmarshal(r.JSON, &body)
		if strings.Contains(jsonStrings(r.JSON), "<@"+bob.ID+">") && slices.Contains(body.Mentions.Users, bob.ID) {
			pings++
		}
	}
	if pings != 1 {
		t.Errorf("bob was pinged %d times by ten rematches, want once", pings)
	}
	e.srv.CheckClean(t)
}

// jsonStrings is every string of a JSON document, one a line: a message's words wherever its
// layout puts them (content, text displays).
func jsonStrings(raw []byte) string {
	var v any
	json.Unmarshal(raw, &v)
	var sb strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			sb.WriteString(x)
			sb.WriteByte('\n')
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return sb.String()
}
