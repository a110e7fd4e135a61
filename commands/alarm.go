package commands

import (
	"sync"
	"time"
)

// alarm is when Run next wakes to fire deadlines, and the way to wake it
// earlier: a move that sets a deadline before that time rings it.
type alarm struct {
	mu   sync.Mutex
	next time.Time // zero: Run has not slept yet
	ring chan struct{}
}

func newAlarm() *alarm { return &alarm{ring: make(chan struct{}, 1)} }

// sleepsUntil records when Run wakes next.
func (a *alarm) sleepsUntil(t time.Time) {
	a.mu.Lock()
	a.next = t
	a.mu.Unlock()
}

// due tells Run about a deadline at, which it may be sleeping past.
func (a *alarm) due(at time.Time) {
	a.mu.Lock()
	early := a.next.IsZero() || at.Before(a.next)
	a.mu.Unlock()
	if early {
		select {
		case a.ring <- struct{}{}:
		default: // already rung
		}
	}
}
