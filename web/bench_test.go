package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/fakediscord"
)

// discardPoster takes the posts of the benchmark's tables: the boards are
// still drawn by the channels' senders (that load is real), not uploaded;
// threads are opened in the fake Discord.
type discardPoster struct{ b *bot.Bot }

func (discardPoster) Post(context.Context, string, commands.Message) (string, error) { return "m", nil }
func (discardPoster) DM(context.Context, string, commands.Message) error             { return nil }
func (p discardPoster) OpenThread(ctx context.Context, channel, name string) (string, error) {
	return p.b.OpenThread(ctx, channel, name)
}
func (discardPoster) ArchiveThread(context.Context, string) error { return nil }

// benchPage is an open page that notes when each version reached it.
type benchPage struct {
	mu     sync.Mutex
	latest uint64
	at     []versionAt
}

type versionAt struct {
	version uint64
	at      time.Time
}

func (p *benchPage) reached(v uint64) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, va := range p.at {
		if va.version >= v {
			return va.at, true
		}
	}
	return time.Time{}, false
}

// openBench opens a page with small client buffers (so the heap measured
// is mostly the server's) and records its frames' versions.
func (s *stack) openBench(session string) *benchPage {
	s.t.Helper()
	d := websocket.Dialer{ReadBufferSize: 512, WriteBufferSize: 256, HandshakeTimeout: 10 * time.Second}
	ws, _, err := d.Dial("ws"+strings.TrimPrefix(s.http.URL, "http")+"/ws", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := ws.WriteJSON(map[string]string{"hello": session}); err != nil {
		s.t.Fatal(err)
	}
	p := &benchPage{}
	go func() {
		var f struct {
			Version uint64 `json:"version"`
		}
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				return
			}
			now := time.Now()
			f.Version = 0
			json.Unmarshal(msg, &f)
			p.mu.Lock()
			if f.Version > p.latest {
				p.latest = f.Version
				p.at = append(p.at, versionAt{f.Version, now})
				if len(p.at) > 64 {
					p.at = p.at[len(p.at)-32:]
				}
			}
			p.mu.Unlock()
		}
	}()
	s.t.Cleanup(func() { ws.Close() })
	return p
}

// benchGame is a game of the benchmark and its open pages.
type benchGame struct {
	thread  string
	players []fakediscord.User
	pages   []*benchPage
}

// move makes the next request of the player to play: a claim of the
// longest track they can pay, else a card from the deck.
func (s *stack) benchMove(g *benchGame, n int) error {
	v, err := s.svc.View(g.thread, "", "en")
	if err != nil {
		return err
	}
	user := g.players[0]
	if v.Seats[v.Public.Current].User == g.players[1].ID {
		user = g.players[1]
	}
	pv, err := s.svc.View(g.thread, user.ID, "en")
	if err != nil {
		return err
	}
	req := commands.Request{Type: commands.ComponentRequest}
	if pv.CanClaim {
		eg := s.engineGame(g.thread)
		best := -1
		for _, a := range eg.LegalActions(pv.Seat, nil) {
			if a.Kind == engine.ActClaim && pv.Board.Tracks[a.Track].Color != data.Gray && int(pv.Board.Tracks[a.Track].Length) > best {
				best = int(pv.Board.Tracks[a.Track].Length)
				req = commands.Request{Type: commands.CommandRequest, Name: "claim", Options: map[string]string{"route": engine.TrackRef(pv.Board, a.Track)}}
			}
		}
	}
	if req.Type == commands.ComponentRequest {
		switch {
		case pv.Draws != nil && pv.Draws.Deck != nil && !pv.Draws.Deck.Disabled:
			req.CustomID = pv.Draws.Deck.ID
		case pv.Draws != nil && pv.Draws.Tickets != nil:
			req.CustomID = pv.Draws.Tickets.ID
		case pv.Prompt != nil && len(pv.Prompt.Components) > 0:
			c := pv.Prompt.Components[0][0]
			req.CustomID = c.ID
			for _, o := range c.Options {
				req.Values = append(req.Values, o.Value)
			}
		default:
			return fmt.Errorf("nothing to do at move %d", n)
		}
	}
	s.handle(user, g.thread, req)
	return nil
}

// BenchmarkMoveToEveryPage times a move from its request to every open
// page of its game having the frame that shows it, with 50 pages open on
// one game (two players, 48 spectators in two languages) and with 50
// games of 3 pages (two players and a spectator); p50/p99 over the moves,
// and the memory of an open page (heap and stacks of the server and of the
// small test client together, so an upper bound of the server's).
//
//	go test -run '^$' -bench MoveToEveryPage -benchtime 100x ./web/
func BenchmarkMoveToEveryPage(b *testing.B) {
	for _, c := range []struct {
		name         string
		games, pages int
	}{{"one-game-50-pages", 1, 50}, {"50-games-3-pages", 50, 3}} {
		b.Run(c.name, func(b *testing.B) {
			// The clock moves on two seconds a sign-in: 150 pages opened
			// from one address stay within its limit a minute.
			clock := &testClock{}
			s := newStack(b, stackOptions{now: clock.now, poster: func(b *bot.Bot) commands.Poster { return discardPoster{b} }})
			var games []*benchGame
			for i := range c.games {
				alice, bob := s.srv.CreateUser(fmt.Sprint("alice", i)), s.srv.CreateUser(fmt.Sprint("bob", i))
				_, thread := s.game(alice, bob)
				games = append(games, &benchGame{thread: thread, players: []fakediscord.User{alice, bob}})
			}
			s.svc.Quiet()
			settle := func() (m runtime.MemStats) {
				for range 3 {
					runtime.GC()
					time.Sleep(50 * time.Millisecond)
				}
				runtime.ReadMemStats(&m)
				return m
			}
			before := settle()
			goroutines := runtime.NumGoroutine()
			for i, g := range games {
				readers := append([]fakediscord.User(nil), g.players...)
				for k := 2; k < c.pages; k++ {
					u := s.srv.CreateUser(fmt.Sprint("watcher", i, "-", k))
					if k%2 == 1 {
						s.srv.SetUserLocale(u.ID, "fr")
					}
					readers = append(readers, u)
				}
				var ids []string
				for _, u := range readers {
					ids = append(ids, u.ID)
				}
				inst := s.srv.CreateActivityInstance(s.guild.ID, g.thread, ids...)
				for _, u := range readers {
					clock.advance(2 * time.Second)
					ans, code := s.session(u, inst)
					if code != 200 {
						b.Fatalf("session: %d %s", code, ans.raw)
					}
					g.pages = append(g.pages, s.openBench(ans.Session))
				}
				v := s.version(g.thread)
				for _, p := range g.pages {
					waitReached(b, p, v)
				}
			}
			after := settle()
			pages := c.games * c.pages
			perPage := (float64(after.HeapAlloc+after.StackInuse) - float64(before.HeapAlloc+before.StackInuse)) / float64(pages)
			perGoroutines := float64(runtime.NumGoroutine()-goroutines) / float64(pages)

			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for n := range b.N {
				g := games[n%len(games)]
				t0 := time.Now()
				if err := s.benchMove(g, n); err != nil {
					b.Fatalf("%v (the game ended? run with -benchtime 100x)", err)
				}
				v := s.version(g.thread)
				var last time.Time
				for _, p := range g.pages {
					at := waitReached(b, p, v)
					if at.After(last) {
						last = at
					}
				}
				lat = append(lat, last.Sub(t0))
			}
			b.StopTimer()
			reportLatencies(b, lat)
			b.ReportMetric(perPage/1024, "KiB/page")
			b.ReportMetric(perGoroutines, "goroutines/page")
		})
	}
}

// waitReached waits until a page got version v and returns when it did.
func waitReached(tb testing.TB, p *benchPage, v uint64) time.Time {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if at, ok := p.reached(v); ok {
			return at
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("a page never got version %d", v)
		case <-time.After(100 * time.Microsecond):
		}
	}
}

// BenchmarkReplayRequest is the server's CPU per replay-page request: the
// page, its data and a turn's SVG, asked again and again as a link shared
// in a busy server would be (the handler called directly, so the time is
// the server's work alone, one request at a time).
//
//	go test -run '^$' -bench ReplayRequest -count 5 ./web/
func BenchmarkReplayRequest(b *testing.B) {
	// The clock moves a second each time it is read: one address's
	// requests never meet its limit, which is still counted each time.
	var ticks atomic.Int64
	start := time.Now()
	s := newStack(b, stackOptions{now: func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * time.Second) }})
	rec, _ := s.archive(s.guild.ID, "europe-classic-bots")
	link := s.web.ReplayURL(s.guild.ID, rec.ID)
	path := strings.TrimPrefix(link, s.http.URL)
	h := s.web.Handler()
	for _, c := range []struct{ name, path string }{
		{"page", path},
		{"data", path + "/data.json"},
		{"turn", path + "/turn/40.svg"},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				w := httptest.NewRecorder()
				r := httptest.NewRequest("GET", c.path, nil)
				r.RemoteAddr = "198.51.100.7:4242"
				r.Header.Set("Accept-Encoding", "gzip, deflate, br") // as browsers ask
				h.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatalf("%s: %d", c.path, w.Code)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// processCPU is the CPU time the process has used (user and system, all
// threads): what a request costs the machine, whatever else waits on it.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSignInUnderJunkFlood: each operation is a minute in which one
// address sends 1,200 junk sign-ins (made-up codes for the real instance
// and for made-up ones, broken and oversized bodies) while 20 real users
// sign in from another: the share of real users who got a session, the
// code exchanges the junk cost, and the server's CPU per junk request.
//
//	go test -run '^$' -bench SignInUnderJunkFlood -benchtime 5x -count 5 ./web/
func BenchmarkSignInUnderJunkFlood(b *testing.B) {
	clock := &testClock{}
	s, inst, real := floodStack(b, clock, 20)
	var ok, all, exchanges int
	var cpu time.Duration
	for b.Loop() {
		clock.advance(time.Minute)
		cpu0 := processCPU()
		f := s.junkFlood(inst, []string{"203.0.113.66"}, 1200, real)
		cpu += processCPU() - cpu0
		ok, all, exchanges = ok+f.realOK, all+f.real, exchanges+f.exchanges
	}
	b.ReportMetric(100*float64(ok)/float64(all), "real-signed-in-%")
	b.ReportMetric(float64(exchanges)/float64(b.N), "junk-exchanges/flood")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*1200), "cpu-µs/junk")
}

// BenchmarkOpenSocket is the memory of an open page's WebSocket: 200
// spectators' pages held open on one game, the heap and stacks measured
// before and after (the small test clients' included, so an upper bound of
// the server's), and the goroutines each adds.
//
//	go test -run '^$' -bench OpenSocket -benchtime 1x -count 5 ./web/
func BenchmarkOpenSocket(b *testing.B) {
	const pages = 200
	for b.Loop() {
		b.StopTimer()
		clock := &testClock{}
		s := newStack(b, stackOptions{now: clock.now, poster: func(b *bot.Bot) commands.Poster { return discardPoster{b} }})
		alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
		_, thread := s.game(alice, bob)
		var sessions []string
		var ids []string
		var users []fakediscord.User
		for i := range pages {
			u := s.srv.CreateUser(fmt.Sprint("watcher", i))
			users, ids = append(users, u), append(ids, u.ID)
		}
		inst := s.srv.CreateActivityInstance(s.guild.ID, thread, ids...)
		for _, u := range users {
			clock.advance(2 * time.Second)
			ans, code := s.session(u, inst)
			if code != 200 {
				b.Fatalf("session: %d %s", code, ans.raw)
			}
			sessions = append(sessions, ans.Session)
		}
		settle := func() (m runtime.MemStats) {
			for range 3 {
				runtime.GC()
				time.Sleep(50 * time.Millisecond)
			}
			runtime.ReadMemStats(&m)
			return m
		}
		before := settle()
		goroutines := runtime.NumGoroutine()
		v := s.version(thread)
		for _, sess := range sessions {
			waitReached(b, s.openBench(sess), v)
		}
		after := settle()
		b.ReportMetric((float64(after.HeapAlloc+after.StackInuse)-float64(before.HeapAlloc+before.StackInuse))/pages/1024, "KiB/socket")
		b.ReportMetric(float64(runtime.NumGoroutine()-goroutines)/pages, "goroutines/socket")
		b.StartTimer()
	}
}

// reportLatencies reports the median and the 99th percentile of a
// benchmark's latencies, in milliseconds.
func reportLatencies(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	ms := func(q float64) float64 {
		return float64(took[min(len(took)-1, int(q*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}
