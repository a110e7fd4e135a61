package ops

import (
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"conductor/store"
)

// A process joining the fleet takes its range; while another holds it, it
// takes one dead process's range (one: it starts serving that one), and
// the fleet's other processes take the rest; a renewal keeps a range, and
// a lost lease stops the process. Fences name the lease of a guild's shard.
func TestFleetJoinTakeOverAndFence(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "c.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := slog.New(slog.DiscardHandler)
	const ttl = 300 * time.Millisecond
	ctx := t.Context()
	// Two processes that die: their leases expire unreleased.
	for _, r := range []store.ShardRange{{Count: 4, First: 0, Last: 1}, {Count: 4, First: 2, Last: 2}} {
		if _, err := st.AcquireShards(ctx, "dead-"+r.String(), r, ttl); err != nil {
			t.Fatal(err)
		}
	}
	// A process asking for shard 3 gets it.
	c, got, err := JoinFleet(ctx, st, log, "c", store.ShardRange{Count: 4, First: 3, Last: 3}, ttl)
	if err != nil || got.First != 3 {
		t.Fatalf("join: %v %v", got, err)
	}
	time.Sleep(ttl + 50*time.Millisecond)
	if err := c.renew(ctx); err == nil {
		t.Fatal("c's lease expired too while nobody renewed it: its renewal must fail")
	}
	c, _, _ = JoinFleet(ctx, st, log, "c2", store.ShardRange{Count: 4, First: 3, Last: 3}, ttl)
	// Another asking for 3 (held by c2) takes one dead range, 0-1, and
	// only one: it starts serving that one.
	d, got, err := JoinFleet(ctx, st, log, "d", store.ShardRange{Count: 4, First: 3, Last: 3}, ttl)
	if err != nil || got.First != 0 || got.Last != 1 {
		t.Fatalf("a standby joining: %v %v", got, err)
	}
	if o := d.Owned(); !slices.Equal(o.Shards, []int{0, 1}) {
		t.Fatalf("d owns %v: it took more than the range it serves", o.Shards)
	}
	// c2 takes the other dead range in its loop.
	if took := c.takeOver(ctx, 0); len(took) != 1 || took[0].First != 2 {
		t.Fatalf("c2 took %v", took)
	}
	if o := c.Owned(); !slices.Equal(o.Shards, []int{2, 3}) {
		t.Fatalf("c2 owns %v", o.Shards)
	}
	// Fences: a guild of shard 2 commits under c2's lease; under d, no lease matches.
	guild := "8388608" // 2 << 22
	if f := c.Fence(guild); f.Shard != 2 || f.Holder != "c2" || f.Token <= 0 {
		t.Fatalf("c2's fence %+v", f)
	}
	if f := d.Fence(guild); f.Token != -1 {
		t.Fatalf("d's fence for a shard it does not hold: %+v", f)
	}
	if err := c.renew(ctx); err != nil {
		t.Fatal(err)
	}
	// At a clean stop c2 gives up the range it asked for (3), and leaves
	// the one it took over (2) to expire, so that another process takes it
	// over rather than wait for a process that is gone.
	c.Release(ctx)
	rows, err := st.ShardLeases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rows[3].Holder != "" || !rows[2].Live || rows[2].Holder != "c2" {
		t.Fatalf("after c2's release: %+v", rows)
	}
	time.Sleep(ttl + 50*time.Millisecond)
	// (d's own lease expired too, unrenewed here: it takes that back as well.)
	took := d.takeOver(ctx, 0)
	if !slices.Contains(took, store.ShardRange{Count: 4, First: 2, Last: 2}) {
		t.Fatalf("d took %v after c2 stopped, not shard 2", took)
	}
	// The range c2 released waits for c2's restart a while (three
	// leases), then, c2 not back, is another's: a fleet made smaller
	// leaves no shard unserved.
	if slices.Contains(took, store.ShardRange{Count: 4, First: 3, Last: 3}) {
		t.Fatalf("d took %v: the range c2 released at once, before its restart could take it", took)
	}
	time.Sleep(2*ttl + 100*time.Millisecond)
	if took := d.takeOver(ctx, 0); !slices.Contains(took, store.ShardRange{Count: 4, First: 3, Last: 3}) {
		t.Fatalf("d took %v three leases after c2's clean stop, not shard 3", took)
	}
}
