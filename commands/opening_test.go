package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/data"
	"conductor/store"
)

// threadedPoster is a Poster that opens threads and edits posts, as the
// Discord transport does.
type threadedPoster struct {
	*fakePoster
	mu       sync.Mutex
	threads  []string
	archived map[string]bool
	edits    map[string]Message
}

func (p *threadedPoster) OpenThread(_ context.Context, channel, name string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	th := fmt.Sprintf("%s-th%d", channel, len(p.threads)+1)
	p.threads = append(p.threads, th)
	return th, nil
}

func (p *threadedPoster) ArchiveThread(_ context.Context, thread string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.archived[thread] = true
	return nil
}

func (p *threadedPoster) EditMessage(_ context.Context, channel, id string, m Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.edits[id] = m
	return nil
}

// threaded gives the world's service a poster that opens threads.
func (w *world) threaded(cfg func(*Config)) *threadedPoster {
	p := &threadedPoster{fakePoster: w.poster, archived: map[string]bool{}, edits: map[string]Message{}}
	w.svc.Close()
	c := Config{Catalog: data.Embedded(), Store: w.store, Renderer: sharedRenderer, Poster: p,
		Now: func() time.Time { return w.now }, BotDelay: time.Millisecond}
	if cfg != nil {
		cfg(&c)
	}
	w.svc = New(c)
	return p
}

// One member opens at most two lobbies and one channel shows at most ten:
// the others are refused privately, before any thread is opened.
func TestLobbyLimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.threaded(nil)
	for i := range 30 {
		a := w.cmd("u1", "ttr", "new", nil)
		if want := i < 2; strings.Contains(a.msg.Content, "already host") == want || !a.msg.Ephemeral {
			t.Fatalf("/ttr new #%d: %q", i+1, a.msg.Content)
		}
	}
	if len(p.threads) != 2 || len(w.poster.all("c1")) != 2 {
		t.Fatalf("%d threads and %d lobby posts for one member, want 2", len(p.threads), len(w.poster.all("c1")))
	}
	for i := range 10 {
		a := w.cmd(fmt.Sprint("v", i), "ttr", "new", nil)
		if want := i < 8; strings.Contains(a.msg.Content, "already has 10 tables") == want {
			t.Fatalf("/ttr new by v%d: %q", i, a.msg.Content)
		}
	}
	if len(p.threads) != 10 {
		t.Fatalf("%d threads in one channel, want 10", len(p.threads))
	}
	// In another channel, a member of the full one still opens a table.
	if a := w.do(&Request{Type: CommandRequest, User: "v9", Channel: "c2", Name: "ttr", Sub: "new"}); !strings.Contains(a.msg.Content, "open") {
		t.Fatalf("a table in another channel: %q", a.msg.Content)
	}
}

// A lobby nobody starts expires after a day: its message says so and
// loses its buttons, its thread is archived, and its host may open another.
func TestLobbyExpires(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.threaded(func(c *Config) { c.MaxLobbiesPerMember = 1 })
	w.cmd("u1", "ttr", "new", nil)
	thread := p.threads[0]
	// A player comes and goes: the lobby is stored again, and still knows
	// its message.
	w.do(&Request{Type: CommandRequest, User: "u2", Channel: thread, Name: "ttr", Sub: "join"})
	w.do(&Request{Type: CommandRequest, User: "u2", Channel: thread, Name: "ttr", Sub: "leave"})
	rec, err := w.store.Get(thread)
	if err != nil || rec.Messages["lobby"] == "" {
		t.Fatalf("the lobby's message is not remembered: %+v %v", rec, err)
	}
	w.now = time.Now().Add(23 * time.Hour)
	w.svc.CheckTimers()
	if _, err := w.store.Get(thread); err != nil {
		t.Fatal("the lobby expired early")
	}
	w.now = time.Now().Add(25 * time.Hour)
	w.svc.CheckTimers()
	w.svc.Quiet()
	if _, err := w.store.Get(thread); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the lobby is still open: %v", err)
	}
	edit, ok := p.edits[rec.Messages["lobby"]]
	if !ok || !strings.Contains(edit.Content, "24 hours") || len(edit.Components) != 0 {
		t.Fatalf("the lobby's message was not closed: %+v", edit)
	}
	if !p.archived[thread] {
		t.Fatal("the lobby's thread was not archived")
	}
	if a := w.cmd("u1", "ttr", "new", nil); strings.Contains(a.msg.Content, "already host") {
		t.Fatalf("the host may not open another table: %q", a.msg.Content)
	}
}

// A DM Discord asks to delay (40003) waits as asked, on the service's
// clock, and is then delivered; the table's boards never wait for it.
func TestTurnDMWaitsAsDiscordSays(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	clock := &testClock{now: w.now}
	w.configure(func(c *Config) { c.Now, c.After = clock.Now, clock.After })
	gid := startedGame(t, w, nil)
	w.cmd("u2", "ttr", "notify", nil)
	w.poster.mu.Lock()
	w.poster.dmErrs["u2"] = []error{&Backoff{Wait: 50 * time.Millisecond, Err: errors.New("40003")}}
	w.poster.mu.Unlock()
	clock.mu.Lock()
	clock.waiting = make(chan time.Duration, 1)
	clock.mu.Unlock()
	boards := len(w.poster.all("c1"))
	// The requests end once the channel's posts are sent: the board, not
	// the DM waiting in its own queue.
	click := func() { w.handle(&Request{Type: ComponentRequest, User: "u1", CustomID: "draw:" + gid + ":0:deck"}) }
	click()
	click()
	if len(w.poster.all("c1")) != boards+1 {
		t.Fatal("the board after the turn did not come")
	}
	select {
	case d := <-clock.waiting:
		if d != 50*time.Millisecond {
			t.Fatalf("the delayed DM waits %v, want the 50ms Discord asked", d)
		}
	case <-time.After(10 * time.Second): // a failed test ends all the same
		t.Fatal("the delayed DM does not wait")
	}
	w.poster.mu.Lock()
	early := len(w.poster.dms["u2"])
	w.poster.mu.Unlock()
	if early != 0 {
		t.Fatalf("%d DMs delivered before the wait ended", early)
	}
	clock.advance(50 * time.Millisecond)
	w.svc.Quiet()
	w.poster.mu.Lock()
	n := len(w.poster.dms["u2"])
	w.poster.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d DMs after the wait, want the delayed one", n)
	}
	if got := retryDelay(&Backoff{Err: errors.New("40003")}, firstRetry); got != minBackoff {
		t.Errorf("without Discord's word a delayed DM waits %v, want %v", got, minBackoff)
	}
}

// A new table's seed comes from Config.NewSeed, so that tests deal the
// same games on every run; without one, each table draws its own.
func TestNewTablesDealFromTheSeedSource(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	open := func(ch, user string) uint64 {
		t.Helper()
		w.do(&Request{Type: CommandRequest, Channel: ch, User: user, Name: "ttr", Sub: "new", Options: map[string]string{"map": "usa"}})
		rec, err := w.store.Get(ch)
		if err != nil {
			t.Fatalf("no table in %s: %v", ch, err)
		}
		return rec.Seed
	}
	if a, b := open("c1", "u1"), open("c2", "u2"); a == b {
		t.Fatalf("two tables drew the same seed %d", a)
	}
	w.svc.Close()
	w.svc = New(Config{Catalog: data.Embedded(), Store: w.store, Renderer: sharedRenderer, Poster: w.poster,
		Now: func() time.Time { return w.now }, NewSeed: func() uint64 { return 42 }})
	if got := open("c3", "u3"); got != 42 {
		t.Fatalf("seed %d, want the source's 42", got)
	}
}
