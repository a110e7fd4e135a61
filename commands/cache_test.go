package commands

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/store"
)

// twin plays the same requests on two worlds: one keeps its table in
// memory, the other drops it before every request (parking what it must)
// and loads it again. Every answer, every post and the stored game must be
// the same.
type twin struct {
	t             *testing.T
	kept, dropped *world
	steps         int
}

func newTwin(t *testing.T, rec func() *store.GameRecord) *twin {
	tw := &twin{t: t, kept: newWorld(t), dropped: newWorld(t)}
	for _, w := range []*world{tw.kept, tw.dropped} {
		if err := w.store.Put(rec()); err != nil {
			t.Fatal(err)
		}
	}
	return tw
}

// do sends a request to both worlds and compares what they answer.
func (tw *twin) do(req func(w *world) answer) answer {
	tw.t.Helper()
	tw.steps++
	a := req(tw.kept)
	if inMemory(tw.dropped, "c1") && !tw.dropped.svc.tables.evict("c1") {
		tw.t.Fatalf("step %d: the table could not be dropped", tw.steps)
	}
	b := req(tw.dropped)
	if !reflect.DeepEqual(a, b) {
		tw.t.Fatalf("step %d: the dropped table answered differently:\n kept    %+v\n dropped %+v", tw.steps, a.msg, b.msg)
	}
	return a
}

func (tw *twin) cmd(user, name string, opts map[string]string) answer {
	return tw.do(func(w *world) answer { return w.cmd(user, name, "", opts) })
}

func (tw *twin) ttr(user, sub string) answer {
	return tw.do(func(w *world) answer { return w.cmd(user, "ttr", sub, nil) })
}

func (tw *twin) click(user, id string, values ...string) answer {
	return tw.do(func(w *world) answer { return w.click(user, id, values...) })
}

// game is the kept world's game: both are the same.
func (tw *twin) game() *engine.Game {
	g, _ := tw.kept.game("c1")
	return g
}

func (tw *twin) same() {
	tw.t.Helper()
	a, b := mustRecord(tw.t, tw.kept), mustRecord(tw.t, tw.dropped)
	if !reflect.DeepEqual(a.Log, b.Log) || !reflect.DeepEqual(a.Due, b.Due) {
		tw.t.Fatalf("the stored games differ: %d and %d moves, due %+v and %+v", len(a.Log), len(b.Log), a.Due, b.Due)
	}
	// Nonces differ by design: each database opening draws its prefix.
	unnonced := func(ms []Message) []Message {
		out := slices.Clone(ms)
		for i := range out {
			out[i].Nonce = ""
		}
		return out
	}
	if ka, da := unnonced(tw.kept.poster.all("c1")), unnonced(tw.dropped.poster.all("c1")); !reflect.DeepEqual(ka, da) {
		for i := range min(len(ka), len(da)) {
			if !reflect.DeepEqual(ka[i], da[i]) {
				k, d := ka[i], da[i]
				k.Files, d.Files = nil, nil
				tw.t.Fatalf("the posts differ from the %dth on:\nkept    %+v\ndropped %+v", i, k, d)
			}
		}
		tw.t.Fatalf("the posts differ: %d kept, %d dropped", len(ka), len(da))
	}
}

func mustRecord(t *testing.T, w *world) *store.GameRecord {
	t.Helper()
	rec, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A game dropped from memory and loaded again before every request —
// with a question open for the tickets drawn, a tunnel to pay, a claim to
// confirm, a colour to choose, an undo vote, a /board repost — behaves
// exactly as one kept in memory.
func TestDroppedTableBehavesAsKept(t *testing.T) {
	t.Parallel()
	tw := newTwin(t, func() *store.GameRecord {
		return &store.GameRecord{Channel: "c1", Guild: "g1", ID: "g-twin", Map: "europe", Variant: "classic", Seed: 31, Host: "u1",
			Status: store.StatusLobby, Options: map[string]string{"locale": "en", "confirm": "on", "turn_timer": "0"},
			Seats: []store.Seat{{UserID: "u1", Name: "Ada", Color: "red"}, {UserID: "u2", Name: "Bo", Color: "blue"}}}
	})
	users := []string{"u1", "u2"}
	tw.ttr("u1", "start")
	g := tw.game()
	gid := "g-twin"
	// The first tickets: the menu, dropped, then the choice.
	for seat, u := range users {
		a := tw.click(u, "setup:"+gid+":0:")
		menu := findSelect(a.msg)
		lo, _ := g.KeepRange(seat)
		var vals []string
		for i := range lo {
			vals = append(vals, fmt.Sprint(i))
		}
		tw.click(u, menu, vals...)
	}
	done := map[string]bool{}
	for step := 0; step < 400 && len(done) < 5; step++ {
		g = tw.game()
		if g.Phase() == engine.PhaseOver {
			break
		}
		seat := g.Current()
		u := users[seat]
		turn := fmt.Sprint(g.Turn())
		switch {
		case !done["tunnel"] && tunnelClaim(g, seat) != nil:
			c := tunnelClaim(g, seat)
			a := tw.cmd(u, "claim", claimOpts(g, c))
			a = tw.click(u, findButton(a.msg, "confirm:"+gid+":"+turn+":yes"))
			if g.Phase() == engine.PhaseTunnel {
				done["tunnel"] = true
				// The question comes back with /hand, then is answered.
				if h := tw.cmd(u, "hand", nil); findButton(h.msg, "tunnel:") == "" {
					t.Fatalf("/hand does not ask for the tunnel: %q", h.msg.Content)
				}
				tw.click(u, findButton(a.msg, "tunnel:"))
			}
		case !done["pay"] && greyChoice(tw.kept, g, seat) != nil:
			c := greyChoice(tw.kept, g, seat)
			a := tw.cmd(u, "claim", map[string]string{"route": engine.TrackRef(g.Board(), c.Track)})
			if findButton(a.msg, "pay:") == "" {
				t.Fatalf("no payment question: %q", a.msg.Content)
			}
			if h := tw.cmd(u, "hand", nil); findButton(h.msg, "pay:") == "" {
				t.Fatalf("/hand does not ask how to pay: %q", h.msg.Content)
			}
			tw.click(u, lastPayButton(a.msg))
			done["pay"] = true
		case !done["tickets"] && g.Turn() >= 6:
			a := tw.click(u, "tickets:"+gid+":"+turn+":")
			if menu := findSelect(a.msg); menu == "" {
				t.Fatalf("no tickets to keep: %q", a.msg.Content)
			}
			h := tw.cmd(u, "hand", nil)
			menu := findSelect(h.msg)
			if menu == "" {
				t.Fatalf("/hand does not ask for the tickets: %q", h.msg.Content)
			}
			tw.click(u, menu, "0")
			done["tickets"] = true
		case !done["undo"] && seat == 0 && claimFor(g, 0) != nil && next(g, 0, claimFor(g, 0)):
			c := claimFor(g, 0)
			a := tw.cmd("u1", "claim", claimOpts(g, c))
			tw.click("u1", findButton(a.msg, "confirm:"))
			c2 := claimFor(tw.game(), 1)
			a = tw.cmd("u2", "claim", claimOpts(tw.game(), c2))
			tw.click("u2", findButton(a.msg, "confirm:"))
			n := len(tw.game().Log())
			vote := tw.ttr("u1", "undo")
			yes := findButton(vote.msg, "undo:")
			if yes == "" {
				t.Fatalf("no undo vote: %q", vote.msg.Content)
			}
			tw.click("u2", yes)
			if len(tw.game().Log()) != n-2 {
				t.Fatalf("the undo voted after a reload took back %d moves", n-len(tw.game().Log()))
			}
			done["undo"] = true
		case !done["board"]:
			tw.cmd(u, "board", nil)
			if a := tw.cmd(u, "board", nil); !strings.Contains(a.msg.Content, "again") && !strings.Contains(a.msg.Content, "second") {
				t.Fatalf("the repost cooldown was lost: %q", a.msg.Content)
			}
			done["board"] = true
		default:
			tw.click(u, "draw:"+gid+":"+turn+":deck")
			tw.click(u, "draw:"+gid+":"+fmt.Sprint(tw.game().Turn())+":deck")
		}
		tw.same()
	}
	if len(done) < 5 {
		t.Fatalf("only %v were played", done)
	}
	tw.same()
}

// tunnelClaim is a legal claim of a tunnel for seat, if any.
func tunnelClaim(g *engine.Game, seat int) *engine.Action {
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind == engine.ActClaim && g.Board().Tracks[a.Track].Tunnel {
			return &a
		}
	}
	return nil
}

// greyChoice is a grey route seat may pay in several colours, if any.
func greyChoice(w *world, g *engine.Game, seat int) *engine.Action {
	tb, _ := w.svc.tables.loaded("c1")
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind != engine.ActClaim || g.Board().Tracks[a.Track].Color != data.Gray || g.Board().Tracks[a.Track].Tunnel {
			continue
		}
		tb.mu.Lock()
		opts := payOptions(tb.game, seat, engine.Action{Kind: engine.ActClaim, Track: a.Track})
		tb.mu.Unlock()
		if len(opts) > 1 {
			return &a
		}
	}
	return nil
}

// next says whether, after seat plays c, the other player can claim too.
func next(g *engine.Game, seat int, c *engine.Action) bool {
	probe := g.Clone()
	return probe.Play(seat, *c) == nil && claimFor(probe, 1-seat) != nil
}

func lastPayButton(m Message) string {
	id := ""
	for _, row := range m.Components {
		for _, c := range row {
			if strings.HasPrefix(c.ID, "pay:") && !strings.HasSuffix(c.ID, ":cancel") {
				id = c.ID
			}
		}
	}
	return id
}

// A turn timer due while its game is out of memory fires once: each
// reminder once, then the turn played once, the table dropped before each
// check and the bot restarted in between.
func TestTimerDueWhileDroppedFiresOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, map[string]string{"turn_timer": "9"})
	g, _ := w.game("c1")
	n := len(g.Log())
	posts := len(w.poster.all("c1"))
	check := func(after time.Duration, restart bool) {
		t.Helper()
		if inMemory(w, "c1") && !w.svc.tables.evict("c1") {
			t.Fatal("the table was not dropped")
		}
		if restart {
			w.restart()
		}
		w.now = w.now.Add(after)
		for range 3 {
			w.svc.CheckTimers()
			w.svc.tables.evict("c1")
		}
		w.svc.Quiet()
	}
	check(4*time.Minute, false)
	if got := len(w.poster.all("c1")) - posts; got != 1 {
		t.Fatalf("%d posts after a third of the limit, want one reminder", got)
	}
	check(3*time.Minute, true)
	if got := len(w.poster.all("c1")) - posts; got != 2 {
		t.Fatalf("%d posts after two thirds, want two reminders", got)
	}
	check(3*time.Minute, false)
	rec := mustRecord(t, w)
	if len(rec.Log) <= n {
		t.Fatal("the turn was not played at the limit")
	}
	boards := 0
	for _, p := range w.poster.all("c1")[posts:] {
		if strings.Contains(p.Content, "took too long") {
			boards++
		}
	}
	if boards != 1 {
		t.Fatalf("the turn was played %d times", boards)
	}
	// The next turn's deadline is set, from the move just played.
	if rec.Due == nil || rec.Due.Kind != dueTurn || rec.Due.Moves != len(rec.Log) || !rec.Due.At.Equal(lastMoveAt(rec).Add(3*time.Minute)) {
		t.Fatalf("deadline after the timeout: %+v", rec.Due)
	}
}

// The cache holds MaxTables at most, the least recently used go first,
// idle tables go after IdleAfter, and a table about to let a bot move
// stays.
func TestCacheBoundsTheTablesInMemory(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.svc.tables.max = 3
	for i := range 6 {
		ch := fmt.Sprint("c", i)
		w.do(&Request{Type: CommandRequest, User: "u1", Channel: ch, Name: "board"})
	}
	if n := w.svc.tables.len(); n != 3 {
		t.Fatalf("%d tables in memory, want 3", n)
	}
	for _, ch := range []string{"c3", "c4", "c5"} {
		if _, ok := w.svc.tables.loaded(ch); !ok {
			t.Fatalf("%s, used last, was dropped", ch)
		}
	}
	w.now = w.now.Add(DefaultIdleAfter - time.Second)
	w.do(&Request{Type: CommandRequest, User: "u1", Channel: "c5", Name: "board"})
	w.now = w.now.Add(2 * time.Second)
	w.svc.EvictIdle()
	if _, ok := w.svc.tables.loaded("c5"); w.svc.tables.len() != 1 || !ok {
		t.Fatalf("after the idle time: %d tables", w.svc.tables.len())
	}
	// A table whose bot is about to move stays until it has moved.
	tb, _ := w.svc.tables.get("c5")
	tb.bot.timer = time.NewTimer(time.Hour)
	tb.unlock()
	w.now = w.now.Add(DefaultIdleAfter * 2)
	w.svc.EvictIdle()
	if w.svc.tables.evict("c5") || w.svc.tables.len() != 1 {
		t.Fatal("a table with a bot about to move was dropped")
	}
	tb.bot.timer.Stop()
	tb.bot.timer = nil
}

// After a restart, Resume lets the bots that were about to move carry on,
// found by their deadlines, and loads no other game.
func TestResumeFindsTheBotsDueByTheirDeadlines(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.bots(testBots, "easy")
	// A second game, a person to move: Resume leaves it on disk.
	w.do(&Request{Type: CommandRequest, User: "u3", Channel: "c2", Name: "ttr", Sub: "new", Options: map[string]string{"map": "usa"}})
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	w.keepFirstTickets("u1", 0)
	// u1's turn; the bot's move is scheduled, and the process stops
	// before it is played (its timer is lost with the process).
	w.configure(func(c *Config) { c.BotDelay = time.Hour })
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	rec := mustRecord(t, w)
	if rec.Due == nil || rec.Due.Kind != dueBot || rec.Due.Moves != len(rec.Log) {
		t.Fatalf("the bot's move is not a deadline: %+v", rec.Due)
	}
	n := len(rec.Log)
	w.configure(func(c *Config) { c.BotDelay = time.Millisecond })
	// Its deadline was set with the delay of the process that stopped:
	// the next start finds it all the same, once due.
	w.now = rec.Due.At.Add(-w.svc.cfg.BotDelay - botGrace)
	if err := w.svc.Resume(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		r, _ := w.store.Get("c1")
		return len(r.Log) > n
	}, "the bot moves after the restart")
	if inMemory(w, "c2") {
		t.Fatal("Resume loaded a game with nothing due")
	}
	// Once the bot has played, its table may leave memory again.
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 }) }, "u1's turn again")
	if !w.svc.tables.evict("c1") {
		t.Fatal("the table stays in memory after its bot played")
	}
}

// inMemory says whether a channel's table is in memory.
func inMemory(w *world, ch string) bool {
	_, ok := w.svc.tables.loaded(ch)
	return ok
}

// Hundreds of deadlines due at once (an upgraded file's checks) all fire
// in one pass.
func TestManyDeadlinesDueAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := range 600 {
		rec := &store.GameRecord{Channel: fmt.Sprint("l", i), Guild: "g1", Map: "usa", Status: store.StatusLobby,
			Seats: []store.Seat{{UserID: "u1", Name: "Ada"}}, Due: &store.Deadline{At: w.now.Add(-time.Hour), Kind: dueCheck}}
		if err := w.store.Put(rec); err != nil {
			t.Fatal(err)
		}
	}
	w.svc.CheckTimers()
	if due, _ := w.store.Due(w.now, 1000); len(due) != 0 {
		t.Fatalf("%d deadlines still due", len(due))
	}
}
