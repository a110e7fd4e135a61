package commands

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"conductor/engine"
)

// expertBudget is the expert's time budget per decision (ai/expert.go).
const expertBudget = 1200 * time.Millisecond

// thinker stands in for the expert (commands may not import ai): on the
// first decision of its turn it computes until the expert's budget is
// spent (or its context is done), as the expert does searching near the
// end of a game, then draws from the deck. started hears when it begins
// to think.
type thinker struct {
	budget  time.Duration
	started chan<- struct{}
}

func (b thinker) Choose(ctx context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	if v.Phase == engine.PhaseTurn {
		select {
		case b.started <- struct{}{}:
		default:
		}
		spin(ctx, b.budget)
	}
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot == engine.DeckSlot {
			return a
		}
	}
	return legal[0]
}

// spin keeps a core busy for d, as a search does, or until ctx is done.
func spin(ctx context.Context, d time.Duration) {
	end := time.Now().Add(d)
	x := uint64(1)
	for time.Now().Before(end) && ctx.Err() == nil {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	_ = x
}

// thinkingTable is a started two-seat game, u1 against a thinking bot, at
// u1's turn.
func thinkingTable(b testing.TB, budget time.Duration, started chan<- struct{}) (*world, string) {
	w := newWorld(b)
	w.bots(func(level string, _ uint64) (Bot, error) {
		return thinker{budget: budget, started: started}, nil
	}, "expert")
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "expert"})
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	w.keepFirstTickets("u1", 0)
	// A process draws its first hand of a map slowly (the map's layers
	// are built once): draw it before measuring.
	w.cmd("u1", "hand", "", nil)
	return w, gid
}

// askEvery is how often the benchmark's player asks while the bot thinks.
const askEvery = 25 * time.Millisecond

// BenchmarkAnswersWhileBotThinks: while the expert thinks at a table,
// u1 asks /hand and /board there every askEvery (each request on its own,
// as people do, whether or not the one before was answered). It reports
// the percentiles of the time until each request is answered; the target
// is p99 ≤ 50 ms. (After the first, /board answers with its cooldown
// note: the clock of the test stands still.)
func BenchmarkAnswersWhileBotThinks(b *testing.B) {
	started := make(chan struct{}, 1)
	w, gid := thinkingTable(b, expertBudget, started)
	ctx := context.Background()
	var (
		mu      sync.Mutex
		lats    = map[string][]time.Duration{}
		pending sync.WaitGroup // requests not answered yet
	)
	ask := func(name string) {
		w.nextID++
		req := &Request{Type: CommandRequest, ID: fmt.Sprint("i", w.nextID), Channel: "c1", Guild: "g1", User: "u1", UserName: "name-u1", Name: name}
		r, start := &Recorder{}, time.Now()
		pending.Add(1)
		go func() {
			defer pending.Done()
			w.svc.Handle(ctx, req, r)
			a, ok := r.Answer()
			if !ok {
				b.Errorf("/%s was not answered", name)
			}
			took := a.At.Sub(start)
			mu.Lock()
			lats[name] = append(lats[name], took)
			lats[""] = append(lats[""], took)
			mu.Unlock()
		}()
	}
	b.ResetTimer()
	for range b.N {
		until(b, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 }) })
		turn := 0
		w.under("c1", func(g *engine.Game) bool { turn = g.Turn(); return true })
		w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
		w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
		<-started
		tick := time.NewTicker(askEvery)
		end := time.After(expertBudget)
		for i := 0; ; i++ {
			select {
			case <-tick.C:
				ask([]string{"hand", "board"}[i%2])
				continue
			case <-end:
			}
			break
		}
		tick.Stop()
		pending.Wait()
	}
	b.StopTimer()
	pct := func(name string, p float64) float64 {
		l := lats[name]
		slices.Sort(l)
		return float64(l[min(len(l)-1, int(p*float64(len(l))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct("", 0.5), "p50-ms")
	b.ReportMetric(pct("", 0.99), "p99-ms")
	b.ReportMetric(pct("hand", 0.99), "hand-p99-ms")
	b.ReportMetric(pct("board", 0.99), "board-p99-ms")
	b.ReportMetric(pct("", 1), "max-ms")
	b.ReportMetric(float64(len(lats[""]))/float64(b.N), "answers/op")
}

// until polls a condition a bot's move makes true.
func until(tb testing.TB, ok func() bool) {
	tb.Helper()
	for range 4000 {
		if ok() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	tb.Fatal("timed out")
}

// TestCloseStopsAThinkingBot: the process is told to stop (SIGTERM ends
// serve's context, which closes the service) while the expert searches
// with no time cap of its own. Close returns within a second, the bot's
// move is not played, and the game is intact: after a restart the bot
// plays its turn and the game goes on.
func TestCloseStopsAThinkingBot(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 1)
	w, gid := thinkingTable(t, time.Hour, started)
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 }) }, "u1's turn")
	turn := 0
	w.under("c1", func(g *engine.Game) bool { turn = g.Turn(); return true })
	w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
	w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
	<-started
	before, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	// Everyone is answered while it thinks.
	if a := w.cmd("u1", "score", "", nil); a.kind != "reply" {
		t.Fatalf("/score while the bot thinks: %+v", a)
	}
	closed := make(chan struct{})
	go func() { w.svc.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Second):
		t.Fatal("Close waits for the bot's search")
	}
	after, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Log) != len(before.Log) || after.Due == nil || after.Due.Kind != dueBot {
		t.Fatalf("the game changed when the service closed: %d moves (was %d), deadline %+v", len(after.Log), len(before.Log), after.Due)
	}

	w.bots(func(string, uint64) (Bot, error) {
		return thinker{budget: time.Millisecond, started: make(chan struct{}, 1)}, nil
	})
	if err := w.svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 && g.Turn() > turn })
	}, "the bot plays its turn after the restart")
	again, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Log) != len(before.Log)+2 || !slices.Equal(again.Log[:len(before.Log)], before.Log) {
		t.Fatalf("after the restart the log has %d moves, want the %d before and the bot's two draws", len(again.Log), len(before.Log))
	}
}
