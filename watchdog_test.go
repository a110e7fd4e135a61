package main

import (
	"testing"
	"time"

	"conductor/bot"
)

// With an injected clock: the gateway goes down, stays down past the limit,
// and the process exits non-zero; a reconnect in time keeps it alive.
func TestWatchdogExitsWhenTheGatewayStaysDown(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := bot.Health{Connected: true}
	exited := -1
	w := &watchdog{now: func() time.Time { return now }, limit: 5 * time.Minute,
		state: func() bot.Health { return h }, exit: func(code int) { exited = code }}

	if d := w.check(); d != 0 || exited != -1 {
		t.Fatalf("connected: down %v, exit %d", d, exited)
	}
	h = bot.Health{Connected: false, DownSince: now}
	now = now.Add(2 * time.Minute)
	if d := w.check(); d != 2*time.Minute || exited != -1 {
		t.Fatalf("down 2 min: %v, exit %d", d, exited)
	}
	// It comes back: the outage is forgotten.
	h = bot.Health{Connected: true}
	now = now.Add(10 * time.Minute)
	if w.check(); exited != -1 {
		t.Fatal("a reconnected gateway must not exit")
	}
	// Down again, for longer than the limit.
	h = bot.Health{Connected: false, DownSince: now}
	now = now.Add(5*time.Minute + time.Second)
	w.check()
	if exited != 1 {
		t.Fatalf("down past the limit: exit %d, want 1", exited)
	}
}
