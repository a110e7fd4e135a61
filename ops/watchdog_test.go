package ops

import (
	"testing"
	"time"

	"conductor/bot"
)

// With an injected clock: the gateway goes down, stays down past the limit,
// and the watchdog calls Down; a reconnect in time keeps it quiet.
func TestWatchdogStopsWhenTheGatewayStaysDown(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := bot.Health{Connected: true}
	downs := 0
	w := &Watchdog{Now: func() time.Time { return now }, Limit: 5 * time.Minute,
		State: func() bot.Health { return h }, Down: func() { downs++ }}

	if d := w.Check(); d != 0 || downs != 0 {
		t.Fatalf("connected: down %v, %d calls", d, downs)
	}
	h = bot.Health{Connected: false, DownSince: now}
	now = now.Add(2 * time.Minute)
	if d := w.Check(); d != 2*time.Minute || downs != 0 {
		t.Fatalf("down 2 min: %v, %d calls", d, downs)
	}
	// It comes back: the outage is forgotten.
	h = bot.Health{Connected: true}
	now = now.Add(10 * time.Minute)
	if w.Check(); downs != 0 {
		t.Fatal("a reconnected gateway must not stop the process")
	}
	// Down again, for longer than the limit.
	h = bot.Health{Connected: false, DownSince: now}
	now = now.Add(5*time.Minute + time.Second)
	w.Check()
	if downs != 1 {
		t.Fatalf("down past the limit: %d calls, want 1", downs)
	}
}
