package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
	"conductor/internal/pgtest"
	"conductor/store"
	"conductor/web"
)

// otherProcess is a second process on the stack's PostgreSQL database: a
// commands.Service and a web.Server of its own, behind an address of its
// own, owning the tables of the servers owns says (none of the stack's,
// in these tests). It has no gateway: Discord sends the interactions to
// the stack's bot, and only the page's requests reach it. now, when
// given, is its page server's clock.
func (s *stack) otherProcess(dsn string, owns func(string) bool, now ...func() time.Time) *stack {
	s.t.Helper()
	st, err := store.Open(dsn, &store.Options{NoSync: true, Timeout: 5 * time.Second})
	if err != nil {
		s.t.Fatal(err)
	}
	o := &stack{t: s.t, srv: s.srv, guild: s.guild, st: st, b: s.b}
	var handler atomic.Value
	o.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.Load().(http.Handler).ServeHTTP(w, r)
	}))
	ws, err := web.New(web.Options{AppID: s.b.AppID, ClientSecret: s.srv.ClientSecret(), APIBase: s.srv.BaseURL(),
		PublicURL: o.http.URL, Discord: s.b, Store: st, Renderer: sharedRenderer, Logger: logger(), Now: clockOf(now)})
	if err != nil {
		s.t.Fatal(err)
	}
	o.web = ws
	o.svc = commands.New(commands.Config{Catalog: data.Embedded(), Store: st, Renderer: sharedRenderer, Poster: s.b,
		Logger: logger(), BotDelay: time.Millisecond, Activity: ws, Owns: owns})
	ws.Attach(o.svc)
	handler.Store(ws.Handler())
	s.t.Cleanup(func() {
		ws.Close()
		o.http.Close()
		o.svc.Close()
		st.Close()
	})
	return o
}

func clockOf(now []func() time.Time) func() time.Time {
	if len(now) > 0 {
		return now[0]
	}
	return nil
}

// waitFrame waits until the page got a state frame ok accepts, and
// returns how long that took.
func (p *page) waitFrame(ok func(frame) bool) time.Duration {
	p.t.Helper()
	start := time.Now()
	for time.Since(start) < 10*time.Second {
		for _, raw := range p.all() {
			var f frame
			if json.Unmarshal(raw, &f) == nil && f.Type == "state" && ok(f) {
				return time.Since(start)
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	p.t.Fatalf("%s's page got no such frame in 10 s", p.name)
	return 0
}

// TestAPageOnAnotherProcessFollowsAndPlays: two processes on one
// PostgreSQL database; the game's table is the first's (its bot answered
// the launch). Through the second: the players open their pages (the
// launch and the sessions are read from the database), follow a move made
// through the first, and a move made on a page there is played by the
// first, once, however often it is sent, and through whichever process.
func TestAPageOnAnotherProcessFollowsAndPlays(t *testing.T) {
	dsn := pgtest.Database(t)
	a := newStack(t, stackOptions{dsn: dsn, owns: func(string) bool { return true }})
	b := a.otherProcess(dsn, func(string) bool { return false })
	alice, bob := a.srv.CreateUser("alice"), a.srv.CreateUser("bob")
	_, thread := a.game(alice, bob)
	inst := a.launch(alice, thread) // answered by the first process

	sessions := map[string]string{}
	pages := map[string]*page{}
	for _, u := range []fakediscord.User{alice, bob} {
		ans, code := b.session(u, inst)
		if code != http.StatusOK || ans.Game == nil || ans.Game.Channel != thread {
			t.Fatalf("%s's session through the second process: %d %s", u.Username, code, ans.raw)
		}
		sessions[u.ID] = ans.Session
		pages[u.ID] = b.open(u.Username, ans.Session)
	}
	for _, u := range []fakediscord.User{alice, bob} {
		pages[u.ID].waitFrame(func(f frame) bool { return f.Game != "" })
	}

	// A move through the first process (its own page API, as Discord's
	// buttons would): every page on the second follows it.
	first := a.current(thread, alice, bob)
	track, ref := a.claimable(thread, first)
	seat := 0
	if first.ID == bob.ID {
		seat = 1
	}
	own, _ := a.session(first, inst)
	if ans, _ := a.act(own.Session, map[string]any{"route": ref}); len(ans.State) == 0 {
		t.Fatal("the first process's move has no state")
	}
	for _, u := range []fakediscord.User{alice, bob} {
		took := pages[u.ID].waitFrame(func(f frame) bool { return int(track) < len(f.Owners) && int(f.Owners[track]) == seat })
		t.Logf("%s's page on the second process showed the first's move after %v", u.Username, took)
	}

	// A move on a page of the second process: played by the first, once.
	second := a.current(thread, alice, bob)
	if second.ID == first.ID {
		t.Fatal("the turn did not pass")
	}
	// Who plays the page's moves: the first process, never the second.
	var playedByA, playedByB []string
	var mu sync.Mutex
	counting := func(srv *stack, played *[]string) {
		web.SetMoveHandler(srv.web, func(ctx context.Context, m commands.PageMove) []commands.Message {
			mu.Lock()
			*played = append(*played, m.ID)
			mu.Unlock()
			return srv.svc.Move(ctx, m)
		})
	}
	counting(a, &playedByA)
	counting(b, &playedByB)
	before := a.logLen(thread)
	f := b.state(sessions[second.ID])
	if f.Deck == nil {
		t.Fatalf("%s's frame through the second process offers no deck draw: %+v", second.Username, f)
	}
	body := map[string]any{"custom_id": f.Deck.ID, "nonce": "forwarded01"}
	ans, _ := b.act(sessions[second.ID], body)
	if got := a.logLen(thread); got != before+1 {
		t.Fatalf("after the page's move through the second process the log has %d moves, want %d", got, before+1)
	}
	var after frame
	if err := json.Unmarshal(ans.State, &after); err != nil || after.Type != "state" || after.Version <= f.Version {
		t.Fatalf("the move's answer carries no newer frame: %v %s", err, ans.State)
	}
	// Sent again, through either process: applied once.
	b.act(sessions[second.ID], map[string]any{"custom_id": f.Deck.ID, "nonce": "forwarded01"})
	a.act(sessions[second.ID], map[string]any{"custom_id": f.Deck.ID, "nonce": "forwarded01"})
	if got := a.logLen(thread); got != before+1 {
		t.Fatalf("the move sent three times was applied %d times", got-before)
	}
	mu.Lock()
	if len(playedByB) != 0 || len(playedByA) == 0 || !strings.HasSuffix(playedByA[0], ":forwarded01") {
		t.Fatalf("moves played by the first process %v, by the second %v: want the page's move by the first only", playedByA, playedByB)
	}
	mu.Unlock()
	// A page whose long poll reaches the second process with the first's
	// version (its last answer came from there) gets the second's frame at
	// once, not after the poll's 25 s.
	var fromA struct {
		Version uint64 `json:"version"`
		Origin  string `json:"origin"`
	}
	_, raw := a.call(sessions[second.ID], "GET", "/api/state", nil)
	if err := json.Unmarshal(raw, &fromA); err != nil || fromA.Origin == "" || fromA.Origin == after.Origin {
		t.Fatalf("the processes' frames name no distinct origins: %q and %q (%v)", fromA.Origin, after.Origin, err)
	}
	polled := make(chan int, 1)
	go func() {
		code, _ := b.call(sessions[second.ID], "GET", fmt.Sprintf("/api/state?after=%d&origin=%s", fromA.Version+1000, fromA.Origin), nil)
		polled <- code
	}()
	select {
	case code := <-polled:
		if code != http.StatusOK {
			t.Fatalf("the poll with the other process's version: %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a poll with the other process's version waited for a change of this one's")
	}

	// The other page on the second process follows it too.
	other := alice
	if second.ID == alice.ID {
		other = bob
	}
	pages[other.ID].waitFrame(func(f frame) bool { return f.Version >= after.Version })

}

// TestReplayLinksHoldAcrossProcesses: a replay link one process signs
// opens on another (the key is the database's), and once the server's
// games are forgotten through the first, the second answers 404 at once,
// though it kept the replay.
func TestReplayLinksHoldAcrossProcesses(t *testing.T) {
	dsn := pgtest.Database(t)
	a := newStack(t, stackOptions{dsn: dsn, owns: func(string) bool { return true }})
	b := a.otherProcess(dsn, func(string) bool { return false })
	rec, _ := a.archive(a.guild.ID, "europe-classic-bots")
	link := a.web.ReplayURL(a.guild.ID, rec.ID)
	path := strings.TrimPrefix(link, a.http.URL)
	if !strings.HasPrefix(path, "/r/") {
		t.Fatalf("link %q", link)
	}
	if other := b.web.ReplayURL(a.guild.ID, rec.ID); strings.TrimPrefix(other, b.http.URL) != path {
		t.Fatalf("the processes sign the game's link differently: %q and %q", link, other)
	}
	if code, _ := b.get(b.http.URL + path + "/data.json"); code != http.StatusOK {
		t.Fatalf("the first process's link on the second: %d", code)
	}
	if _, _, err := a.st.ForgetGuild(a.guild.ID); err != nil {
		t.Fatal(err)
	}
	a.web.Forgotten(a.guild.ID)
	deadline := time.Now().Add(5 * time.Second)
	for {
		code, _ := b.get(b.http.URL + path + "/data.json")
		if code == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second process still serves a forgotten server's replay: %d", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSocketBudgetsHoldAcrossProcesses: a user's pages count together on
// every process: with 8 open, half through each, a ninth is refused
// (4008) on either, and one closed makes room.
func TestSocketBudgetsHoldAcrossProcesses(t *testing.T) {
	dsn := pgtest.Database(t)
	a := newStack(t, stackOptions{dsn: dsn, owns: func(string) bool { return true }})
	b := a.otherProcess(dsn, func(string) bool { return false })
	alice, bob := a.srv.CreateUser("alice"), a.srv.CreateUser("bob")
	_, thread := a.game(alice, bob)
	inst := a.launch(alice, thread)
	ans, code := a.session(alice, inst)
	if code != http.StatusOK {
		t.Fatalf("session: %d %s", code, ans.raw)
	}
	var open []*page
	for i := range 8 {
		through := a
		if i%2 == 1 {
			through = b
		}
		p := through.open("alice", ans.Session)
		p.waitFrame(func(f frame) bool { return f.Game != "" })
		open = append(open, p)
	}
	for _, through := range []*stack{a, b} {
		p := through.open("alice's ninth", ans.Session)
		select {
		case <-p.closed:
		case <-time.After(10 * time.Second):
			t.Fatal("a ninth page stayed open")
		}
		p.mu.Lock()
		code := p.code
		p.mu.Unlock()
		if code != 4008 {
			t.Fatalf("a ninth page closed with %d, want 4008", code)
		}
	}
	open[1].ws.Close() // one of the second process's
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := a.open("alice's new page", ans.Session)
		got := make(chan bool, 1)
		go func() {
			for time.Now().Before(deadline) {
				for _, raw := range p.all() {
					var f frame
					if json.Unmarshal(raw, &f) == nil && f.Type == "state" {
						got <- true
						return
					}
				}
				select {
				case <-p.closed:
					got <- false
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
			got <- false
		}()
		if <-got {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a page closed on one process left no room on the other")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkMoveToAPageOnAnotherProcess: from a move's request on the
// process owning the table to a page open through another process having
// the frame that shows it (the notification, the other process reading
// the game again, the frame built and written). The players draw from
// the deck in turn through the owner's page API; the page is a
// spectator's, on the second process.
func BenchmarkMoveToAPageOnAnotherProcess(b *testing.B) {
	dsn := pgtest.Database(b)
	a := newStack(b, stackOptions{dsn: dsn, owns: func(string) bool { return true }})
	o := a.otherProcess(dsn, func(string) bool { return false })
	alice, bob, carol := a.srv.CreateUser("alice"), a.srv.CreateUser("bob"), a.srv.CreateUser("carol")
	_, thread := a.game(alice, bob)
	inst := a.launch(alice, thread)
	a.srv.JoinActivity(carol.ID, inst)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob} {
		ans, _ := a.session(u, inst)
		sessions[u.ID] = ans.Session
	}
	watcher, code := o.session(carol, inst)
	if code != http.StatusOK {
		b.Fatalf("the spectator's session on the second process: %d %s", code, watcher.raw)
	}
	p := o.open("carol", watcher.Session)
	p.waitFrame(func(f frame) bool { return f.Game != "" })
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		mover := a.current(thread, alice, bob)
		f := a.state(sessions[mover.ID])
		if f.Deck == nil {
			b.Fatalf("move %d: no deck to draw from", i)
		}
		seen := len(p.all())
		start := time.Now()
		a.act(sessions[mover.ID], map[string]any{"custom_id": f.Deck.ID})
		for len(p.all()) == seen {
			if time.Since(start) > 10*time.Second {
				b.Fatalf("move %d never reached the page on the second process", i)
			}
			time.Sleep(100 * time.Microsecond)
		}
		took = append(took, time.Since(start))
		a.svc.Quiet()
	}
	b.StopTimer()
	reportLatencies(b, took)
}

// BenchmarkForwardedMove: a move made on a page of a process that does
// not own the table, from its request to its answer: posted to the
// database, taken and played by the owner, answered, the game read again
// and the reader's frame built. The players draw from the deck in turn.
func BenchmarkForwardedMove(b *testing.B) {
	dsn := pgtest.Database(b)
	a := newStack(b, stackOptions{dsn: dsn, owns: func(string) bool { return true }})
	o := a.otherProcess(dsn, func(string) bool { return false })
	alice, bob := a.srv.CreateUser("alice"), a.srv.CreateUser("bob")
	_, thread := a.game(alice, bob)
	inst := a.launch(alice, thread)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob} {
		ans, _ := o.session(u, inst)
		sessions[u.ID] = ans.Session
	}
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		mover := a.current(thread, alice, bob)
		f := o.state(sessions[mover.ID])
		if f.Deck == nil {
			b.Fatalf("move %d: no deck to draw from", i)
		}
		start := time.Now()
		o.act(sessions[mover.ID], map[string]any{"custom_id": f.Deck.ID})
		took = append(took, time.Since(start))
		a.svc.Quiet()
	}
	b.StopTimer()
	reportLatencies(b, took)
}

// TestUserSignInsCountOnEveryProcess: a user's 10 sign-ins a minute are
// the bot's: spread over two processes, the eleventh is refused on either.
func TestUserSignInsCountOnEveryProcess(t *testing.T) {
	dsn := pgtest.Database(t)
	// One minute for the whole test, however slow the machine.
	frozen := time.Now()
	clock := func() time.Time { return frozen }
	a := newStack(t, stackOptions{dsn: dsn, owns: func(string) bool { return true }, now: clock})
	b := a.otherProcess(dsn, func(string) bool { return false }, clock)
	alice, bob := a.srv.CreateUser("alice"), a.srv.CreateUser("bob")
	_, thread := a.game(alice, bob)
	inst := a.launch(alice, thread)
	for i := range 10 {
		through := a
		if i%2 == 1 {
			through = b
		}
		if ans, code := through.session(alice, inst); code != http.StatusOK {
			t.Fatalf("sign-in %d: %d %s", i+1, code, ans.raw)
		}
	}
	for _, through := range []*stack{a, b} {
		if ans, code := through.session(alice, inst); code != http.StatusTooManyRequests {
			t.Fatalf("an eleventh sign-in in the minute: %d %s", code, ans.raw)
		}
	}
}
