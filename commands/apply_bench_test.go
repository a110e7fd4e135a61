package commands

import (
	"fmt"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit/recorded"
)

// BenchmarkApplyUnderTheLock: the moves of a recorded game applied by its
// table, as a move is under the table's lock: the engine's move, its
// narration, its board's outbox entry and its commit (the store without
// fsync). It reports the time per move.
func BenchmarkApplyUnderTheLock(b *testing.B) {
	w := newWorld(b)
	rg := recorded.All(b)[0]
	moves := 0
	for i := 0; b.Loop(); i++ {
		ch := fmt.Sprint("rec", i)
		if err := w.store.Put(recordOf(rg, ch)); err != nil {
			b.Fatal(err)
		}
		tb, err := w.svc.tables.get(ch)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range rg.Moves[:len(rg.Moves)-1] {
			a, err := engine.ParseAction(tb.game.Board(), m.Action)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tb.apply(m.Seat, a, nil); err != nil {
				b.Fatal(err)
			}
			moves++
		}
		tb.mu.Unlock()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}
