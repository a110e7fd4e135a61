package ops

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"conductor/internal/pgtest"
	"conductor/store"
)

// TestFleetGlobalPaceAtAnyShardCount simulates, on a test clock, a bot of
// 1, 10, 20 and 100 shards run by 1 to 4 processes, every shard sending
// as fast as its process's PacedLimiter lets it, each process a few
// milliseconds from the database (each reservation's trip there and back
// random, 0 to 3 ms each way). The paces are the database's (the slot
// after the latest, or now: store.Reserve, whose SQL TestPacingIsShared-
// ByProcesses checks): every sliding second holds at most 50 requests of
// the whole bot, and the bot sends at least 40 a second, however the
// shards are spread. (With each process's own limiter given its share of
// 50, as before, 4 processes starting together spend their bursts in the
// same second; TestGlobalGateAtAnyShardCountInOneProcess in bot/ logs it.)
func TestFleetGlobalPaceAtAnyShardCount(t *testing.T) {
	for _, shards := range []int{1, 10, 20, 100} {
		for procs := 1; procs <= min(4, shards); procs++ {
			worst, steady := simulateFleetPace(shards, procs, 30*time.Second)
			t.Logf("%3d shards over %d processes: worst second %d requests, steady %.1f/s", shards, procs, worst, steady)
			if worst > 50 {
				t.Errorf("%d shards over %d processes: %d requests in one second", shards, procs, worst)
			}
			if steady < 40 {
				t.Errorf("%d shards over %d processes: %.1f requests a second", shards, procs, steady)
			}
		}
	}
}

// simulateFleetPace runs the shards' senders one event at a time and
// returns the most requests in any sliding second and the rate over the
// last half of the run.
func simulateFleetPace(shards, procs int, run time.Duration) (worst int, steady float64) {
	rng := rand.New(rand.NewPCG(uint64(shards), uint64(procs)))
	var clock time.Duration // since the start
	var next time.Duration  // the database's pace: the next free slot
	reserveAt := func(at time.Duration, spacing time.Duration) time.Duration {
		slot := max(next, at)
		next = slot + spacing
		return slot - at
	}
	type sender struct {
		lim   *PacedLimiter
		ready time.Duration
	}
	var senders []*sender
	limiters := make([]*PacedLimiter, procs)
	for p := range procs {
		limiters[p] = newPacedLimiter(nil, time.Second/FleetGlobalRate, nil, slog.New(slog.DiscardHandler))
	}
	// Each shard of process p sends through its process's limiter.
	for s := range shards {
		senders = append(senders, &sender{lim: limiters[s%procs]})
	}
	var sends []time.Duration
	for {
		// The sender ready first goes next.
		k := 0
		for i, s := range senders {
			if s.ready < senders[k].ready {
				k = i
			}
		}
		s := senders[k]
		if s.ready > run {
			break
		}
		clock = s.ready
		there, back := time.Duration(rng.IntN(3000))*time.Microsecond, time.Duration(rng.IntN(3000))*time.Microsecond
		w := reserveAt(clock+there, s.lim.spacing)
		send := clock + there + back + w
		// The real Wait, given the same reservation, waits w.
		s.lim.reserve = func(context.Context, string, time.Duration) (time.Duration, error) { return w, nil }
		var waited time.Duration
		s.lim.after = func(d time.Duration) <-chan time.Time {
			waited = d
			c := make(chan time.Time, 1)
			c <- time.Time{}
			return c
		}
		if err := s.lim.Wait(context.Background()); err != nil || waited != w {
			panic("the limiter did not wait for its slot")
		}
		sends = append(sends, send)
		s.ready = send
	}
	slices.Sort(sends)
	for i, j := 0, 0; i < len(sends); i++ {
		for sends[i]-sends[j] >= time.Second {
			j++
		}
		worst = max(worst, i-j+1)
	}
	half := run / 2
	n := 0
	for _, at := range sends {
		if at >= half && at < run {
			n++
		}
	}
	return worst, float64(n) / half.Seconds()
}

// Three processes (three Stores on one PostgreSQL database), each with
// four senders as fast as their PacedLimiter lets them, for two seconds of
// real time: no sliding second holds more than 50 requests of them all,
// and they send about the fleet's rate together.
func TestFleetLimiterSharedThroughPostgres(t *testing.T) {
	dsn := pgtest.Database(t)
	var mu sync.Mutex
	var sends []time.Time
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range 3 {
		st, err := store.Open(dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		lim := NewFleetLimiter(st, slog.New(slog.DiscardHandler))
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for lim.Wait(ctx) == nil {
					mu.Lock()
					sends = append(sends, time.Now())
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	slices.SortFunc(sends, func(a, b time.Time) int { return a.Compare(b) })
	worst := 0
	for i, j := 0, 0; i < len(sends); i++ {
		for sends[i].Sub(sends[j]) >= time.Second {
			j++
		}
		worst = max(worst, i-j+1)
	}
	t.Logf("%d requests in 2 s, worst second %d", len(sends), worst)
	if worst > 50 {
		t.Errorf("%d requests in one second", worst)
	}
	if len(sends) < 60 {
		t.Errorf("%d requests in 2 s: the fleet's pace is %d a second", len(sends), FleetGlobalRate)
	}
}
