package commands

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"conductor/data"
	"conductor/store"
)

// gatedPoster holds every post until the test lets one through, and fails
// those it is told to fail.
type gatedPoster struct {
	gate chan error // what the next post answers
	// arrived, when not nil, hears each post as it reaches the gate.
	arrived chan struct{}
	mu      sync.Mutex
	sent    []string
}

func (p *gatedPoster) Post(ctx context.Context, ch string, m Message) (string, error) {
	if p.arrived != nil {
		p.arrived <- struct{}{}
	}
	select {
	case err := <-p.gate:
		if err != nil {
			return "", err
		}
	case <-ctx.Done():
		return "", ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent = append(p.sent, m.Content)
	return "m" + m.Content, nil
}

func (p *gatedPoster) DM(context.Context, string, Message) error { return nil }

func (p *gatedPoster) posted() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.sent...)
}

func newTestSender(t *testing.T, p Poster) (*sender, *store.Store, context.CancelFunc) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := newSender(ctx, nil, st, p, sharedRenderer, data.Embedded(), &notes{}, clock{time.Now, time.After}, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { cancel(); s.close(); st.Close() })
	return s, st, cancel
}

// returned reports whether f returns within d.
func returned(d time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// TestSenderWaitersAndOrder: the sender is a type of its own, tested here
// without a service. A request waits for its channel's posts until they
// are sent, and no longer once the sender waits to retry (Discord
// failing); Quiet waits for the retry to succeed; the posts go out in the
// order queued, each once.
func TestSenderWaitersAndOrder(t *testing.T) {
	t.Parallel()
	p := &gatedPoster{gate: make(chan error)}
	s, st, _ := newTestSender(t, p)
	if err := st.Enqueue("c1", outboxEntry(postMessage, Message{Content: "1"}), outboxEntry(postMessage, Message{Content: "2"})); err != nil {
		t.Fatal(err)
	}
	s.kick("c1")
	if returned(100*time.Millisecond, func() { s.waitSent("c1") }) {
		t.Fatal("waitSent returned before the posts were sent")
	}
	p.gate <- nil // "1" goes out
	// "2" fails: the sender waits to retry, and a request stops waiting.
	p.gate <- errors.New("502")
	if !returned(5*time.Second, func() { s.waitSent("c1") }) {
		t.Fatal("waitSent still waits while the sender waits to retry")
	}
	if returned(100*time.Millisecond, s.quiet) {
		t.Fatal("quiet returned with a post still to retry")
	}
	// More is queued while the sender waits: it goes after "2".
	if err := st.Enqueue("c1", outboxEntry(postMessage, Message{Content: "3"})); err != nil {
		t.Fatal(err)
	}
	s.kick("c1")
	go func() { p.gate <- nil; p.gate <- nil }()
	if !returned(10*time.Second, s.quiet) {
		t.Fatal("quiet did not return once everything was sent")
	}
	if got := p.posted(); len(got) != 3 || got[0] != "1" || got[1] != "2" || got[2] != "3" {
		t.Fatalf("posted %q, want 1, 2, 3", got)
	}
	if left, err := st.Outbox("c1"); err != nil || len(left) != 0 {
		t.Fatalf("outbox after delivery: %d entries, %v", len(left), err)
	}
	if !returned(100*time.Millisecond, func() { s.waitSent("c1") }) {
		t.Fatal("waitSent waits on a channel with nothing to send")
	}
}

// TestSenderCloseLeavesTheRest: closing ends a post in flight; what was not
// confirmed stays in the outbox for the next start, and no sender starts
// after the close.
func TestSenderCloseLeavesTheRest(t *testing.T) {
	t.Parallel()
	p := &gatedPoster{gate: make(chan error), arrived: make(chan struct{}, 1)}
	s, st, cancel := newTestSender(t, p)
	if err := st.Enqueue("c1", outboxEntry(postMessage, Message{Content: "1"})); err != nil {
		t.Fatal(err)
	}
	s.kick("c1")
	<-p.arrived // the post is in flight, held by the gate
	cancel()
	if !returned(5*time.Second, s.close) {
		t.Fatal("close waits for a post Discord holds")
	}
	s.kick("c1")
	s.mu.Lock()
	running := len(s.running)
	s.mu.Unlock()
	if running != 0 {
		t.Fatal("a sender started after the close")
	}
	if left, err := st.Outbox("c1"); err != nil || len(left) != 1 {
		t.Fatalf("outbox after the close: %d entries, %v; want the unsent post kept", len(left), err)
	}
	if len(p.posted()) != 0 {
		t.Fatal("the post went out after all")
	}
}

// hangingThreads is a Discord that answers no edit nor thread archive
// until the request's context ends.
type hangingThreads struct {
	gatedPoster
	started chan struct{}
}

func (p *hangingThreads) hang(ctx context.Context) error {
	p.started <- struct{}{}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Second): // a failed test ends all the same
		return errors.New("no answer")
	}
}

func (p *hangingThreads) OpenThread(ctx context.Context, _, _ string) (string, error) {
	return "", p.hang(ctx)
}
func (p *hangingThreads) ArchiveThread(ctx context.Context, _ string) error { return p.hang(ctx) }
func (p *hangingThreads) EditMessage(ctx context.Context, _, _ string, _ Message) error {
	return p.hang(ctx)
}

// TestSenderCloseEndsEveryRequest: every request the sender makes (an
// archive, an edit, not only a post) takes the service's context, so a
// close never waits for Discord to answer one.
func TestSenderCloseEndsEveryRequest(t *testing.T) {
	t.Parallel()
	for name, e := range map[string]store.OutboxEntry{
		"archive": archiveEntry(),
		"edit":    editEntry("m1", Message{Content: "closed"}),
	} {
		t.Run(name, func(t *testing.T) {
			p := &hangingThreads{gatedPoster: gatedPoster{gate: make(chan error)}, started: make(chan struct{}, 1)}
			s, st, cancel := newTestSender(t, p)
			if err := st.Enqueue("c1", e); err != nil {
				t.Fatal(err)
			}
			s.kick("c1")
			<-p.started
			cancel()
			if !returned(5*time.Second, s.close) {
				t.Fatalf("close waits for Discord to answer the %s", name)
			}
			if left, err := st.Outbox("c1"); err != nil || len(left) != 1 {
				t.Fatalf("outbox after the close: %d entries, %v; want the %s kept", len(left), err, name)
			}
		})
	}
}
