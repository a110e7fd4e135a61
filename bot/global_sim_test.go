package bot

import (
	"container/heap"
	"slices"
	"testing"
	"time"
)

// The global gate simulated on a clock of the test's: every shard sends as fast as the gate
// lets it (each spends its burst at once, then the steady rate) for 70 seconds, through the
// limiter Start gives a process (globalShare of the shards it runs, paced by
// newGlobalGate), reserving as Wait does. Discord's limit binds the whole bot: 50 requests
// in any second.

// simRequest is a shard's next request, asked at t.
type simRequest struct {
	t       time.Time
	process int
}

type simQueue []simRequest

func (q simQueue) Len() int           { return len(q) }
func (q simQueue) Less(i, j int) bool { return q[i].t.Before(q[j].t) }
func (q simQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)        { *q = append(*q, x.(simRequest)) }
func (q *simQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// simulateGate runs count shards, shardsPerProcess in each process, and returns the most
// requests sent in any one second (a sliding window) and the steady rate over the last 60 s.
func simulateGate(count, shardsPerProcess int) (worstSecond int, steady float64) {
	const run = 70 * time.Second
	start := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var gates []*globalGate
	q := &simQueue{}
	for shard := range count {
		p := shard / shardsPerProcess
		if p == len(gates) {
			g := newGlobalGate(nil, 0)
			g.setRate(globalShare(min(shardsPerProcess, count-p*shardsPerProcess), count))
			gates = append(gates, g)
		}
		heap.Push(q, simRequest{t: start, process: p})
	}
	var sent []time.Time
	for q.Len() > 0 {
		r := heap.Pop(q).(simRequest)
		at := gates[r.process].local.reserve(r.t)
		if at.Sub(start) >= run {
			continue
		}
		sent = append(sent, at)
		heap.Push(q, simRequest{t: at, process: r.process})
	}
	slices.SortFunc(sent, func(a, b time.Time) int { return a.Compare(b) })
	j := 0
	for i := range sent {
		for sent[i].Sub(sent[j]) >= time.Second { // the second ending at sent[i]
			j++
		}
		worstSecond = max(worstSecond, i-j+1)
	}
	inLastMinute := 0
	for _, at := range sent {
		if at.Sub(start) >= run-time.Minute {
			inLastMinute++
		}
	}
	return worstSecond, float64(inLastMinute) / 60
}

// One process runs every shard: they share one gate with the whole budget, so at any shard
// count no second holds more than 50 requests and the bot sends at least 40 a second.
func TestGlobalGateAtAnyShardCountInOneProcess(t *testing.T) {
	t.Parallel()
	for _, count := range []int{1, 10, 20, 100} {
		worst, steady := simulateGate(count, count)
		t.Logf("%3d shards in one process: worst second %d requests, steady %.1f/s", count, worst, steady)
		if worst > DefaultGlobalRate || steady < 40 {
			t.Errorf("%d shards in one process: worst second %d, steady %.1f/s; want at most %d and at least 40/s", count, worst, steady, DefaultGlobalRate)
		}
		// One shard per process, each gate given its share: what remains for a bot over
		// several processes (a gate coordinated between them).
		worst, steady = simulateGate(count, 1)
		t.Logf("%3d processes of one shard: worst second %d requests, steady %.1f/s", count, worst, steady)
	}
}
