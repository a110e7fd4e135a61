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
// spent, as the expert does searching near the end of a game, then draws
// from the deck. started hears when it begins to think.
type thinker struct {
	budget  time.Duration
	started chan<- struct{}
}

func (b thinker) Choose(v engine.PlayerView, legal []engine.Action) engine.Action {
	if v.Phase == engine.PhaseTurn {
		select {
		case b.started <- struct{}{}:
		default:
		}
		spin(b.budget)
	}
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot == engine.DeckSlot {
			return a
		}
	}
	return legal[0]
}

// spin keeps a core busy for d, as a search does.
func spin(d time.Duration) {
	end := time.Now().Add(d)
	x := uint64(1)
	for time.Now().Before(end) {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	_ = x
}

// thinkingTable is a started two-seat game, u1 against a thinking bot, at
// u1's turn.
func thinkingTable(b testing.TB, started chan<- struct{}) (*world, string) {
	w := newWorld(b)
	w.svc.cfg.Bots = func(level string, _ uint64) (Bot, error) {
		return thinker{budget: expertBudget, started: started}, nil
	}
	w.svc.cfg.BotLevels = []string{"expert"}
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "expert"})
	w.cmd("u1", "ttr", "start", nil)
	g, gid := w.game("c1")
	a := w.click("u1", "setup:"+gid+":0:")
	lo, _ := g.KeepRange(0)
	var vals []string
	for i := range lo {
		vals = append(vals, string(rune('0'+i)))
	}
	menu := ""
	for _, row := range a.msg.Components {
		for _, c := range row {
			if c.Kind == Select {
				menu = c.ID
			}
		}
	}
	w.click("u1", menu, vals...)
	return w, gid
}

// BenchmarkAnswersWhileBotThinks: while the expert thinks at a table,
// u1 asks /hand and /board there every 10 ms (each request on its own,
// as people do, whether or not the one before was answered). It reports
// the answers' latency percentiles; the target is p99 ≤ 50 ms. (After
// the first, /board answers with its cooldown note: the clock of the
// test stands still.)
func BenchmarkAnswersWhileBotThinks(b *testing.B) {
	started := make(chan struct{}, 1)
	w, gid := thinkingTable(b, started)
	ctx := context.Background()
	var (
		mu      sync.Mutex
		lats    []time.Duration
		pending []*sync.WaitGroup // requests not answered yet
	)
	ask := func(name string) {
		w.nextID++
		req := &Request{Type: CommandRequest, ID: fmt.Sprint("i", w.nextID), Channel: "c1", Guild: "g1", User: "u1", UserName: "name-u1", Name: name}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			w.svc.Handle(ctx, req, &fakeResponder{})
			d := time.Since(start)
			mu.Lock()
			lats = append(lats, d)
			mu.Unlock()
		}()
		pending = append(pending, &wg)
	}
	b.ResetTimer()
	for range b.N {
		until(b, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 }) })
		turn := 0
		w.under("c1", func(g *engine.Game) bool { turn = g.Turn(); return true })
		w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
		w.click("u1", fmt.Sprintf("draw:%s:%d:deck", gid, turn))
		<-started
		tick := time.NewTicker(10 * time.Millisecond)
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
		for _, wg := range pending {
			wg.Wait()
		}
		pending = pending[:0]
	}
	b.StopTimer()
	slices.Sort(lats)
	pct := func(p float64) float64 {
		return float64(lats[min(len(lats)-1, int(p*float64(len(lats))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(lats[len(lats)-1])/float64(time.Millisecond), "max-ms")
	b.ReportMetric(float64(len(lats))/float64(b.N), "answers/op")
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
