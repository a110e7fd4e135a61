package bot

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []fakeTimer
	changed chan struct{} // closed and replaced when a timer is set
}

type fakeTimer struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC), changed: make(chan struct{})}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), ch: ch})
	close(c.changed)
	c.changed = make(chan struct{})
	return ch
}

// Advance moves the clock on and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			t.ch <- c.now
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

// waitTimer blocks until a timer ending at at is set (a waiter went to sleep until then).
func (c *fakeClock) waitTimer(t *testing.T, at time.Time) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		changed := c.changed
		for _, tm := range c.timers {
			if tm.at.Equal(at) {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no timer set for %v", at)
		}
	}
}

type grant struct {
	release func(time.Time)
	err     error
}

func acquireAsync(g IdentifyGate, shard int) <-chan grant {
	out := make(chan grant, 1)
	go func() {
		r, err := g.Acquire(context.Background(), shard)
		out <- grant{r, err}
	}()
	return out
}

func granted(t *testing.T, ch <-chan grant) func(time.Time) {
	t.Helper()
	select {
	case g := <-ch:
		if g.err != nil {
			t.Fatal(g.err)
		}
		return g.release
	case <-time.After(10 * time.Second):
		t.Fatal("not granted")
		return nil
	}
}

func notGranted(t *testing.T, ch <-chan grant, why string) {
	t.Helper()
	select {
	case <-ch:
		t.Fatalf("granted %s", why)
	default:
	}
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// A bucket takes one login per interval (plus a tenth, for the IDENTIFY's trip), counted
// from when the previous one was sent; another bucket does not wait; shards of a bucket
// start in order; a login never sent is not counted.
func TestIdentifyGatePacesEachBucket(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	var g *localIdentifyGate
	left := func() int {
		g.mu.Lock()
		defer g.mu.Unlock()
		return g.left
	}
	refresh := func(context.Context) (SessionLimit, error) {
		return SessionLimit{Total: 1000, Remaining: left(), ResetAfter: time.Hour, MaxConcurrency: 2}, nil
	}
	g = newLocalIdentifyGate(clock, 5*time.Second, refresh, quiet)
	g.Limit(SessionLimit{Total: 1000, Remaining: 1000, ResetAfter: time.Hour, MaxConcurrency: 2})
	g.expect([]int{0, 1, 2, 3})
	// Shard 2 asks before shard 0, in the same bucket: shard 0 goes first.
	second := acquireAsync(g, 2)
	first := acquireAsync(g, 0)
	other := acquireAsync(g, 1)
	release0 := granted(t, first)
	granted(t, other)(clock.Now()) // bucket 1 logs in beside bucket 0
	notGranted(t, second, "while shard 0 of the bucket logs in")
	sent := clock.Now().Add(300 * time.Millisecond) // the dial and HELLO took that long
	clock.Advance(300 * time.Millisecond)
	release0(sent)
	clock.waitTimer(t, sent.Add(5500*time.Millisecond))
	clock.Advance(5499 * time.Millisecond)
	notGranted(t, second, "before the interval and its margin")
	clock.Advance(time.Millisecond)
	release2 := granted(t, second)
	release2(time.Time{}) // the dial failed: nothing was sent
	if n := left(); n != 1000-3+1 {
		t.Errorf("%d logins left, want 998: one never sent is given back", n)
	}
	// The bucket's pace stands: shard 2's unsent login did not move it.
	granted(t, acquireAsync(g, 2))(clock.Now())
}

// With no login left the shards wait for the renewal, then ask Discord once; a login after
// the first ones (after op 9) asks Discord first what is left.
func TestIdentifyGateWaitsForTheRenewal(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	var mu sync.Mutex
	asked := 0
	answer := SessionLimit{Total: 1000, Remaining: 1000, ResetAfter: 24 * time.Hour, MaxConcurrency: 1}
	refresh := func(context.Context) (SessionLimit, error) {
		mu.Lock()
		defer mu.Unlock()
		asked++
		return answer, nil
	}
	g := newLocalIdentifyGate(clock, 5*time.Second, refresh, quiet)
	g.Limit(SessionLimit{Total: 1000, Remaining: 1, ResetAfter: time.Hour, MaxConcurrency: 16})
	g.expect([]int{0, 1})
	granted(t, acquireAsync(g, 0))(clock.Now())
	waiting := acquireAsync(g, 1)
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return asked
	}
	renewal := clock.Now().Add(time.Hour)
	clock.waitTimer(t, renewal)
	if used, at := g.Exhausted(); !used || !at.Equal(renewal) {
		t.Fatalf("exhausted %v until %v", used, at)
	}
	clock.Advance(time.Hour - time.Second)
	notGranted(t, waiting, "before the renewal")
	if n := count(); n != 0 {
		t.Fatalf("Discord asked %d times while waiting", n)
	}
	clock.Advance(time.Second)
	granted(t, waiting)(clock.Now())
	if n := count(); n != 1 {
		t.Errorf("Discord asked %d times at the renewal, want 1", n)
	}
	// Shard 0 logs in again (op 9): the count is asked first, and Discord says
	// logins were spent elsewhere.
	mu.Lock()
	answer.Remaining = 0
	answer.ResetAfter = 2 * time.Hour
	mu.Unlock()
	clock.Advance(time.Minute)
	again := acquireAsync(g, 0)
	clock.waitTimer(t, clock.Now().Add(2*time.Hour))
	notGranted(t, again, "with none left by Discord's count")
	if n := count(); n != 2 {
		t.Errorf("Discord asked %d times, want 2", n)
	}
}
