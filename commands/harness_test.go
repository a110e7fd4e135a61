package commands

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/data"
	"conductor/imaging"
	"conductor/internal/pgtest"
	"conductor/store"
)

// fakePoster records the messages the service posts outside interactions.
type fakePoster struct {
	mu       sync.Mutex
	posts    map[string][]Message
	dms      map[string][]Message
	dmClosed map[string]bool
	// dmErrs are the answers of the next DMs to a user, in order.
	dmErrs map[string][]error
	n      int
}

func newFakePoster() *fakePoster {
	return &fakePoster{posts: map[string][]Message{}, dms: map[string][]Message{}, dmClosed: map[string]bool{}, dmErrs: map[string][]error{}}
}

func (p *fakePoster) Post(_ context.Context, ch string, m Message) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.posts[ch] = append(p.posts[ch], m)
	return fmt.Sprint("m", p.n), nil
}

func (p *fakePoster) DM(_ context.Context, user string, m Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dmClosed[user] {
		return ErrDMClosed
	}
	if errs := p.dmErrs[user]; len(errs) > 0 {
		p.dmErrs[user] = errs[1:]
		if errs[0] != nil {
			return errs[0]
		}
	}
	p.dms[user] = append(p.dms[user], m)
	return nil
}

func (p *fakePoster) last(ch string) Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	ps := p.posts[ch]
	if len(ps) == 0 {
		return Message{}
	}
	return ps[len(ps)-1]
}

func (p *fakePoster) all(ch string) []Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Message(nil), p.posts[ch]...)
}

// answer is what a request got back.
type answer struct {
	kind      string // reply, update, ack, choices
	msg       Message
	choices   []Choice
	followUps []Message
}

// answerOf is what a recorded request got back. The Responder contract
// holds: one answer, then follow-ups.
func answerOf(t testing.TB, r *Recorder) answer {
	t.Helper()
	var out answer
	for _, a := range r.Answers() {
		switch {
		case a.Kind == AnswerFollowUp && out.kind == "":
			t.Errorf("a follow-up before the answer: %q", a.Message.Content)
			out.followUps = append(out.followUps, a.Message)
		case a.Kind == AnswerFollowUp:
			out.followUps = append(out.followUps, a.Message)
		case out.kind != "":
			t.Errorf("a second answer (%s after %s): %q", a.Kind, out.kind, a.Message.Content)
		default:
			out.kind, out.msg, out.choices = string(a.Kind), a.Message, a.Choices
		}
	}
	return out
}

// keepFirstTickets has user, at seat, open the first ticket choice of
// channel c1's game and keep the fewest tickets allowed.
func (w *world) keepFirstTickets(user string, seat int) answer {
	g, gid := w.game("c1")
	a := w.click(user, "setup:"+gid+":0:")
	lo, _ := g.KeepRange(seat)
	var vals []string
	for i := range lo {
		vals = append(vals, strconv.Itoa(i))
	}
	return w.click(user, findSelect(a.msg), vals...)
}

// world is a Service wired to fakes, with a clock tests can move.
type world struct {
	t        testing.TB
	svc      *Service
	poster   *fakePoster
	renderer Renderer
	store    *store.Store
	now      time.Time
	nextID   int
	path     string
	// tweaks change the configuration of every service the world starts.
	tweaks []func(*Config)
}

// botsPlayed waits until the bots due to move have played (a bot's turn
// that leaves another bot to play arms it before it ends).
func (w *world) botsPlayed() { w.svc.runner.wg.Wait() }

// testClock is a clock the test moves while bots and senders, in their own
// goroutines, read it and wait on it: a wait (After) ends when the test
// moves the clock past it, never on its own.
type testClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []clockWait
	// waiting, when not nil, hears how long each wait is, as it begins.
	waiting chan time.Duration
}

type clockWait struct {
	at time.Time
	ch chan time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	if d <= 0 {
		ch <- c.now
	} else {
		c.waits = append(c.waits, clockWait{c.now.Add(d), ch})
	}
	waiting := c.waiting
	c.mu.Unlock()
	if waiting != nil {
		waiting <- d
	}
	return ch
}

// advance moves the clock on, ending the waits it passes.
func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waits[:0]
	for _, w := range c.waits {
		if w.at.After(c.now) {
			kept = append(kept, w)
		} else {
			w.ch <- c.now
		}
	}
	c.waits = kept
}

// sharedRenderer draws real pictures, for the tests that look at their
// pixels; the others use a sketch (sketch_test.go). It keeps the boards'
// static layers between tests.
var sharedRenderer = imaging.NewRenderer()

// pictures are the scenes the world's services drew (its renderer is a
// sketch unless a test asked for real pictures).
func (w *world) pictures() *sketch {
	w.t.Helper()
	sk, ok := w.renderer.(*sketch)
	if !ok {
		w.t.Fatal("the world draws real pictures")
	}
	return sk
}

// TestMain stops the PostgreSQL cluster of CONDUCTOR_TEST_POSTGRES=1.
func TestMain(m *testing.M) { pgtest.Main(m) }

// newWorld keeps its games in a bbolt file, or with
// CONDUCTOR_TEST_POSTGRES=1 in a PostgreSQL database of its own: the suite
// on the fleet's store.
func newWorld(t testing.TB) *world {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.db")
	if os.Getenv("CONDUCTOR_TEST_POSTGRES") != "" {
		path = pgtest.Database(t)
	}
	st, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, poster: newFakePoster(), renderer: &sketch{}, store: st, now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), path: path}
	w.svc = w.service()
	t.Cleanup(func() { w.svc.Close(); st.Close() })
	return w
}

func (w *world) service() *Service {
	c := Config{Catalog: data.Embedded(), Store: w.store, Renderer: w.renderer, Poster: w.poster,
		Now: func() time.Time { return w.now }, BotDelay: time.Millisecond}
	for _, tweak := range w.tweaks {
		tweak(&c)
	}
	return New(c)
}

// configure changes the configuration of the world's services: the
// service starts again with it, on the same store.
func (w *world) configure(tweak func(*Config)) {
	w.tweaks = append(w.tweaks, tweak)
	w.svc.Close()
	w.svc = w.service()
}

// bots gives the world's services a bot maker, and the levels offered
// when some are named.
func (w *world) bots(maker BotMaker, levels ...string) {
	w.configure(func(c *Config) {
		c.Bots = maker
		if levels != nil {
			c.BotLevels = levels
		}
	})
}

// restart simulates the bot restarting: a new Service on a reopened store.
func (w *world) restart() {
	w.svc.Close()
	if err := w.store.Close(); err != nil {
		w.t.Fatal(err)
	}
	st, err := store.Open(w.path, &store.Options{NoSync: true})
	if err != nil {
		w.t.Fatal(err)
	}
	w.store = st
	w.svc = w.service()
}

// setPoster puts another Discord in front of the running service.
func (w *world) setPoster(p Poster) {
	w.svc.cfg.Poster = p
	w.svc.out.poster = p
	w.svc.opener.poster = p
}

func (w *world) do(req *Request) answer {
	a := w.handle(req)
	w.svc.Quiet() // posts are sent by the channel's sender
	return a
}

// handle is do without waiting for the posts to be delivered (Discord
// may be down).
func (w *world) handle(req *Request) answer {
	w.nextID++
	if req.ID == "" {
		req.ID = fmt.Sprint("i", w.nextID)
	}
	if req.Channel == "" {
		req.Channel = "c1"
	}
	if req.Guild == "" {
		req.Guild = "g1"
	}
	if req.UserName == "" {
		req.UserName = "name-" + req.User
	}
	r := &Recorder{}
	w.svc.Handle(context.Background(), req, r)
	return answerOf(w.t, r)
}

func (w *world) cmd(user, name, sub string, opts map[string]string) answer {
	return w.do(&Request{Type: CommandRequest, User: user, Name: name, Sub: sub, Options: opts})
}

func (w *world) click(user, customID string, values ...string) answer {
	return w.do(&Request{Type: ComponentRequest, User: user, CustomID: customID, Values: values})
}

// lobby is the newest lobby posted in a channel (a table's lobby is a post
// of its own; /ttr new answers privately).
func (w *world) lobby(ch string) (Message, bool) {
	posts := w.poster.all(ch)
	for i := len(posts) - 1; i >= 0; i-- {
		if findButton(posts[i], "lobby:") != "" {
			return posts[i], true
		}
	}
	return Message{}, false
}

// decodePNG checks that a file is a PNG and returns its width.
func decodePNG(t testing.TB, f File) int {
	t.Helper()
	im, err := png.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", f.Name, err)
	}
	return im.Bounds().Dx()
}

// findButton returns the custom id of the first component whose id starts
// with prefix.
func findButton(m Message, prefix string) string {
	for _, row := range m.Components {
		for _, c := range row {
			if strings.HasPrefix(c.ID, prefix) && !c.Disabled {
				return c.ID
			}
		}
	}
	return ""
}
