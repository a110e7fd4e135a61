package bot_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
)

// Two processes of a fleet, a shard each, in the one identify bucket of
// max_concurrency 1, starting together: their logins share the bucket's
// pace (IdentifyPace, kept in the database by ops.FleetIdentifyPace; here
// the same rule in memory), so they are an interval apart and Discord
// refuses neither. Each process's own gate alone would let both log in
// at once.
func TestLoginsArePacedAcrossProcesses(t *testing.T) {
	const interval = time.Second
	srv := fakediscord.New(t, fakediscord.Options{RecommendedShards: 2, MaxConcurrency: 1, IdentifyInterval: interval})
	var mu sync.Mutex
	next := map[int]time.Time{}
	pace := func(_ context.Context, bucket int, spacing time.Duration) (time.Duration, error) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		slot := next[bucket]
		if slot.Before(now) {
			slot = now
		}
		next[bucket] = slot.Add(spacing)
		return slot.Sub(now), nil
	}
	var wg sync.WaitGroup
	for shard := range 2 {
		b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(data.Embedded().IDs()),
			Logger: logger(), IdentifyInterval: interval, ReadyTimeout: 20 * time.Second,
			Shards: &bot.ShardRange{From: shard, To: shard}, ShardCount: 2, IdentifyPace: pace})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			b.Stop(context.Background())
			b.Close()
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.Start(t.Context(), nopHandler{}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for id := range 2 {
		if _, err := srv.WaitReady(id); err != nil {
			t.Fatal(err)
		}
	}
	ids := srv.Identifies()
	if len(ids) != 2 {
		t.Fatalf("%d logins, want 2", len(ids))
	}
	if gap := ids[1].Time.Sub(ids[0].Time); gap < interval {
		t.Errorf("the two processes logged in %v apart in one bucket, want at least %v", gap, interval)
	}
	srv.CheckClean(t)
}
