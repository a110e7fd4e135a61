package ops

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/store"
)

func TestHealthIsUnavailableWithoutGateway(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "c.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := bot.New(bot.Config{Token: "never-used", APIBase: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	Handler(b, st, "").ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	var rep HealthReport
	if err := json.NewDecoder(rec.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusServiceUnavailable || rep.Status != "unavailable" || rep.Gateway.Connected || !rep.Database.OK {
		t.Errorf("%d %+v", rec.Code, rep)
	}
	if len(rep.Problems) == 0 || !strings.Contains(strings.Join(rep.Problems, ","), "gateway") {
		t.Errorf("problems = %v", rep.Problems)
	}
}

// The health report gives the outbox's depth and age, and a post waiting
// too long is a problem.
func TestHealthReportsTheOutbox(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "c.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := bot.New(bot.Config{Token: "never-used", APIBase: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-10 * time.Minute)
	if err := st.Enqueue("c1", store.OutboxEntry{Payload: []byte(`{}`), Created: old}, store.OutboxEntry{Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	Handler(b, st, "").ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	var rep HealthReport
	if err := json.NewDecoder(rec.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Outbox.Waiting != 2 || rep.Outbox.OldestSeconds < 590 || !strings.Contains(strings.Join(rep.Problems, ","), "posts waiting") {
		t.Errorf("outbox %+v, problems %v", rep.Outbox, rep.Problems)
	}
}

// A connection whose heartbeats go unanswered, or a REST API failing
// again and again, makes the bot unhealthy.
func TestHealthProblemsOfASilentOrFailingDiscord(t *testing.T) {
	now := time.Now()
	ok := bot.Health{Connected: true, CommandsRegistered: true, LastHeartbeatAck: now.Add(-30 * time.Second)}
	if p := ok.Problems(now); len(p) != 0 {
		t.Errorf("healthy: %v", p)
	}
	silent := ok
	silent.LastHeartbeatAck = now.Add(-2 * time.Minute)
	if p := silent.Problems(now); len(p) != 1 || !strings.Contains(p[0], "silent") {
		t.Errorf("silent: %v", p)
	}
	failing := ok
	failing.RESTFailures = bot.FailingAfter
	if p := failing.Problems(now); len(p) != 1 || !strings.Contains(p[0], "failing") {
		t.Errorf("failing: %v", p)
	}
	// A few interactions dropped after a long outage are not a problem;
	// dropping one after another is (the bot answers nobody).
	replayed := ok
	replayed.DroppedInteractions, replayed.DroppedInARow = 40, bot.DroppingAfter-1
	if p := replayed.Problems(now); len(p) != 0 {
		t.Errorf("a few dropped: %v", p)
	}
	deaf := replayed
	deaf.DroppedInARow, deaf.ClockOffsetMillis = bot.DroppingAfter, 3200
	if p := deaf.Problems(now); len(p) != 1 || !strings.Contains(p[0], "dropped") || !strings.Contains(p[0], "3.2s") {
		t.Errorf("dropping: %v", p)
	}
	// A channel refusing the bot's posts is a moderator's matter.
	refused := ok
	refused.RefusedChannels = []bot.RefusedChannel{{Channel: "c1", Code: 50013, Since: now}}
	if p := refused.Problems(now); len(p) != 0 {
		t.Errorf("refused channel: %v", p)
	}
}
