package bot_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// logSink is a log written by the bot's goroutines.
type logSink struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// hexBytes is how %#v prints a string's bytes inside a dumped struct.
func hexBytes(s string) string {
	d := fmt.Sprintf("%#v", []byte(s))
	return strings.TrimSuffix(strings.TrimPrefix(d, "[]byte{"), "}")
}

// A player's ticket choice reaches the bot in a RESUME's replay (the
// connection dropped as they chose): the bot logs the resume and counts
// the replayed events, and nothing of them, neither the tickets' names nor
// their bytes, reaches the log at the default level (discordgo's gateway
// dumped the replayed event: "Expected READY/RESUMED, instead got …").
func TestResumeReplayOfATicketChoiceLogsNoTicket(t *testing.T) {
	// Not parallel: it reads discordgo's log, which goes to the newest bot's logger.
	logs := &logSink{}
	e := newEnv(t, envOptions{logs: logs})
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	b, _ := tb.board()
	alice := tb.players[0]
	menu := e.click(alice.ID, b.ID, button(b, "setup:", ""))
	sel, ok := selectMenu(menu.msg)
	if !ok {
		t.Fatal("no ticket menu")
	}
	var values, secrets []string
	for i, o := range sel.Options {
		if i < *sel.MinValues {
			values = append(values, o.Value)
		}
		secrets = append(secrets, o.Label)
	}
	// The connection drops, and the bot cannot reconnect before the choice is
	// made: it comes in the RESUME's replay.
	release := e.srv.HoldGateway()
	defer release()
	if err := e.srv.DropConnection(0); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.WaitFor("the drop", func() bool { return !e.srv.Connected(0) }); err != nil {
		t.Fatal(err)
	}
	h, err := e.srv.SelectValues(alice.ID, menu.msg.ID, sel.CustomID, values...)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if err := e.tracker.wait(h.ID, 1); err != nil {
		t.Fatal(err)
	}
	resumes, err := e.srv.WaitResumes(1)
	if err != nil {
		t.Fatal(err)
	}
	if resumes[0].Replayed == 0 {
		t.Fatal("the choice was not replayed by the RESUME: the test proves nothing")
	}
	if _, err := h.WaitCallback(); err != nil {
		t.Fatalf("the replayed choice was not answered: %v", err)
	}
	// The bot logs the resume with the number of events replayed; the
	// fake's heartbeats wake the wait until it does.
	if err := e.srv.WaitFor("the resume in the log", func() bool { return strings.Contains(logs.String(), "gateway shard resumed") }); err != nil {
		t.Fatal(err)
	}
	text := logs.String()
	if !strings.Contains(text, "replayed=1") {
		t.Fatalf("the log does not count the replayed event:\n%s", text)
	}
	for _, s := range secrets {
		if strings.Contains(text, s) || strings.Contains(text, hexBytes(s)) {
			t.Errorf("the log holds ticket %q:\n%s", s, text)
		}
	}
	e.srv.CheckClean(t)
}
