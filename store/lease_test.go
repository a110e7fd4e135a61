package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// secondProcess is another process on s's database: another Store on
// PostgreSQL; on a file, which one process holds, s itself.
func secondProcess(t *testing.T, s *Store, path string) *Store {
	t.Helper()
	if onPostgres(t) {
		return openAt(t, path)
	}
	return s
}

// Ranges of shards are held whole or not at all, never by two holders;
// renewing, releasing and taking over after a release follow.
func TestShardLeases(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		ctx := context.Background()
		a, path := openTemp(t)
		b := secondProcess(t, a, path)
		la, err := a.AcquireShards(ctx, "proc-a", ShardRange{Count: 8, First: 0, Last: 3}, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if la.Until.After(time.Now().Add(time.Minute)) || la.Expires.IsZero() {
			t.Fatalf("lease %+v: Until after now+ttl", la)
		}
		// An overlapping range is refused whole, saying who holds what.
		_, err = b.AcquireShards(ctx, "proc-b", ShardRange{Count: 8, First: 2, Last: 5}, time.Minute)
		if !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "proc-a holds shard 2") {
			t.Fatalf("overlapping acquisition: %v", err)
		}
		lb, err := b.AcquireShards(ctx, "proc-b", ShardRange{Count: 8, First: 4, Last: 7}, time.Minute)
		if err != nil {
			t.Fatalf("the free shards 4-7: %v", err)
		}
		if lb.Token <= la.Token {
			t.Fatalf("tokens %d then %d: a later acquisition has a larger token", la.Token, lb.Token)
		}
		// Another shard count is refused while any lease of this one lives.
		if _, err := b.AcquireShards(ctx, "proc-c", ShardRange{Count: 16, First: 12, Last: 15}, time.Minute); !errors.Is(err, ErrLeaseHeld) ||
			!strings.Contains(err.Error(), "another shard count") {
			t.Fatalf("another count: %v", err)
		}
		// Renewing extends; the lease of the other holder is untouched.
		la2, err := a.RenewShards(ctx, la, 2*time.Minute)
		if err != nil || !la2.Expires.After(la.Expires) || la2.Token != la.Token {
			t.Fatalf("renewal: %+v %v", la2, err)
		}
		rows, err := a.ShardLeases(ctx)
		if err != nil || len(rows) != 8 {
			t.Fatalf("leases: %+v %v", rows, err)
		}
		for _, r := range rows {
			want := "proc-a"
			if r.Shard >= 4 {
				want = "proc-b"
			}
			if r.Holder != want || !r.Live || r.Count != 8 {
				t.Errorf("shard %d: %+v, want held by %s", r.Shard, r, want)
			}
		}
		// Released, the range is another's at once; its old holder has lost it.
		if err := a.ReleaseShards(ctx, la2); err != nil {
			t.Fatal(err)
		}
		lc, err := b.AcquireShards(ctx, "proc-b", ShardRange{Count: 8, First: 0, Last: 3}, time.Minute)
		if err != nil || lc.Token <= lb.Token {
			t.Fatalf("taking a released range: %+v %v", lc, err)
		}
		if _, err := a.RenewShards(ctx, la2, time.Minute); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("renewing a released lease: %v", err)
		}
		// Releasing a lease already lost changes nothing.
		if err := a.ReleaseShards(ctx, la2); err != nil {
			t.Fatal(err)
		}
		if rows, _ := a.ShardLeases(ctx); rows[0].Holder != "proc-b" || !rows[0].Live {
			t.Fatalf("shard 0 after a stale release: %+v", rows[0])
		}
		// Once every lease of count 8 is released, another count may start.
		for _, l := range []*ShardLease{lb, lc} {
			if err := b.ReleaseShards(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.AcquireShards(ctx, "proc-c", ShardRange{Count: 16, First: 0, Last: 15}, time.Minute); err != nil {
			t.Fatalf("a new count after the old released: %v", err)
		}
		if _, err := a.AcquireShards(ctx, "proc-a", ShardRange{Count: 8, First: 3, Last: 2}, time.Minute); err == nil {
			t.Fatal("an empty range was accepted")
		}
	})
}

// A process that stops renewing loses its shards when the lease expires:
// another takes them over, its renewal fails, and a move it commits under
// its old lease is refused and not stored, while the new holder's commits.
func TestShardLeaseTakeoverAndFence(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		ctx := context.Background()
		a, path := openTemp(t)
		b := secondProcess(t, a, path)
		mustPut(t, a, sampleGame("c1", "g1", 0))
		r := ShardRange{Count: 2, First: 0, Last: 1}
		// A second: a move and an acquisition fit in it under -race on a
		// loaded machine (300 ms did not always).
		old, err := a.AcquireShards(ctx, "dying", r, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Commit("c1", MoveCommit{Entry: LogEntry{Action: "m1", Interaction: "1"}, Fence: old.Fence(0)}); err != nil {
			t.Fatalf("a move under a live lease: %v", err)
		}
		if _, err := b.AcquireShards(ctx, "heir", r, time.Minute); !errors.Is(err, ErrLeaseHeld) {
			t.Fatalf("taking a live lease: %v", err)
		}
		time.Sleep(time.Until(old.Until) + 100*time.Millisecond)
		heir, err := b.AcquireShards(ctx, "heir", r, time.Minute)
		if err != nil {
			t.Fatalf("taking over an expired lease: %v", err)
		}
		if _, err := a.RenewShards(ctx, old, time.Minute); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("renewing after a takeover: %v", err)
		}
		if _, err := a.Commit("c1", MoveCommit{Entry: LogEntry{Action: "late", Interaction: "2"}, Fence: old.Fence(0)}); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("a move under a lost lease: %v", err)
		}
		if _, err := b.Commit("c1", MoveCommit{Entry: LogEntry{Action: "m2", Interaction: "3"}, Fence: heir.Fence(0)}); err != nil {
			t.Fatalf("the heir's move: %v", err)
		}
		if log := mustGet(t, b, "c1").Log; len(log) != 2 || log[1].Action != "m2" {
			t.Fatalf("log %+v: the lost lease's move was stored", log)
		}
	})
}

// Many processes racing for one expired range: exactly one gets it.
func TestShardLeaseRaceHasOneWinner(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		ctx := context.Background()
		a, path := openTemp(t)
		stores := []*Store{a, secondProcess(t, a, path), secondProcess(t, a, path)}
		r := ShardRange{Count: 4, First: 0, Last: 3}
		if _, err := a.AcquireShards(ctx, "gone", r, 50*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := range 9 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := stores[i%3].AcquireShards(ctx, fmt.Sprint("p", i), r, time.Minute)
				switch {
				case err == nil:
					wins.Add(1)
				case !errors.Is(err, ErrLeaseHeld):
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d processes took the range", wins.Load())
		}
	})
}
