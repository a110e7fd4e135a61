package ops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"conductor/store"
)

// A fleet is several processes serving one PostgreSQL database, each a
// range of the bot's shards under a lease (store/lease.go): a process
// takes its range (CONDUCTOR_SHARDS) when it starts, renews it every third
// of the lease (a heartbeat), and gives it up when it stops. A process
// whose range is held, by one that took it over, serves the range of a
// process that died instead, or waits as a standby until one dies. Every
// process looks for ranges whose lease expired (their process died or
// froze) every ninth of the lease and takes them over: their shards'
// connections, deadlines, bots' turns and posts go on there. A process
// that cannot renew its leases before they end stops, since another may
// serve its shards by then; its moves in flight fail at their commit
// (MoveCommit.Fence), never half done.

// DefaultLease is how long a fleet's process holds its shards without
// renewing them: a dead process's shards are served again within it and
// a ninth of it.
const DefaultLease = 45 * time.Second

// Fleet is this process's leases on its shards.
type Fleet struct {
	st     *store.Store
	log    *slog.Logger
	holder string
	count  int
	ttl    time.Duration
	// want is the range asked for (CONDUCTOR_SHARDS).
	want store.ShardRange

	mu     sync.Mutex
	leases []*store.ShardLease
}

// FleetHolder names this process in the leases: its host, its process id
// and a random part (a restarted process is another holder).
func FleetHolder() string {
	host, _ := os.Hostname()
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// JoinFleet takes want for holder, or, while another process holds it,
// the range of a process whose lease expired; it waits until one of them
// is free or ctx ends, and returns the range taken.
func JoinFleet(ctx context.Context, st *store.Store, log *slog.Logger, holder string, want store.ShardRange, ttl time.Duration) (*Fleet, store.ShardRange, error) {
	if ttl <= 0 {
		ttl = DefaultLease
	}
	f := &Fleet{st: st, log: log, holder: holder, count: want.Count, ttl: ttl, want: want}
	said := false
	for {
		l, err := st.AcquireShards(ctx, holder, want, ttl)
		if err == nil {
			f.leases = []*store.ShardLease{l}
			log.Info("holding the shards", "shards", want.String(), "holder", holder, "lease", ttl)
			return f, want, nil
		}
		if !errors.Is(err, store.ErrLeaseHeld) {
			return nil, want, fmt.Errorf("taking %s: %w", want, err)
		}
		if got := f.takeOver(ctx, 1); len(got) > 0 {
			return f, got[0], nil
		}
		if !said {
			log.Warn("the shards asked for are held by another process; waiting as a standby until they, or a dead process's, are free", "err", err)
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, want, ctx.Err()
		case <-time.After(f.checkEvery()):
		}
	}
}

// checkEvery is how often the leases are looked at for dead processes.
func (f *Fleet) checkEvery() time.Duration { return f.ttl / 9 }

// Owned is the shards this process serves now.
func (f *Fleet) Owned() *store.Owned {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := &store.Owned{Count: f.count}
	for _, l := range f.leases {
		for sh := l.Range.First; sh <= l.Range.Last; sh++ {
			o.Shards = append(o.Shards, sh)
		}
	}
	slices.Sort(o.Shards)
	return o
}

// Owns says whether this process serves the guild's shard now.
func (f *Fleet) Owns(guild string) bool {
	return f.leaseOf(store.ShardOf(guild, f.count)) != nil
}

// leaseOf is the lease held on shard; nil when this process holds none.
func (f *Fleet) leaseOf(shard int) *store.ShardLease {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, l := range f.leases {
		if shard >= l.Range.First && shard <= l.Range.Last {
			return l
		}
	}
	return nil
}

// Fence is the lease a move in the guild's game commits under. A guild of
// a shard this process does not hold gets a fence no lease matches: the
// move is refused rather than committed by a process that does not serve
// its server.
func (f *Fleet) Fence(guild string) *store.Fence {
	shard := store.ShardOf(guild, f.count)
	if l := f.leaseOf(shard); l != nil {
		return l.Fence(shard)
	}
	return &store.Fence{Shard: shard, Holder: f.holder, Token: -1}
}

// Run renews the leases every third of their length and takes over the
// ranges of dead processes, calling adopt with each (which starts serving
// it), and sweep after each renewal (the posts of other processes'
// servers in members' DM queues wait for it). It returns when ctx ends
// (nil) or when a lease is lost or could not be renewed in time: this
// process must stop serving.
func (f *Fleet) Run(ctx context.Context, adopt func(store.ShardRange) error, sweep func()) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The heartbeat runs on its own: nothing the takeovers or the sweeps
	// do may hold a renewal back past the lease.
	lost := make(chan error, 1)
	go func() {
		renew := time.NewTicker(f.ttl / 3)
		defer renew.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-renew.C:
				if err := f.renew(ctx); err != nil {
					lost <- err
					return
				}
				if sweep != nil {
					go sweep()
				}
			}
		}
	}()
	check := time.NewTicker(f.checkEvery())
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-lost:
			return err
		case <-check.C:
			for _, r := range f.takeOver(ctx, 0) {
				if err := adopt(r); err != nil {
					return fmt.Errorf("serving %s taken over: %w", r, err)
				}
			}
		}
	}
}

// renew renews every lease; a failure is retried until the lease's Until.
func (f *Fleet) renew(ctx context.Context) error {
	f.mu.Lock()
	leases := slices.Clone(f.leases)
	f.mu.Unlock()
	for i, l := range leases {
		for {
			n, err := f.st.RenewShards(ctx, l, f.ttl)
			if err == nil {
				leases[i] = n
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, store.ErrLeaseLost) || !time.Now().Add(time.Second).Before(l.Until) {
				return fmt.Errorf("the lease on %s ended: another process may serve them now, so this one stops: %w", l.Range, err)
			}
			f.log.Warn("renewing the shards' lease failed; retrying", "shards", l.Range.String(), "until", l.Until, "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(time.Second):
			}
		}
	}
	f.mu.Lock()
	f.leases = leases
	f.mu.Unlock()
	return nil
}

// takeOver acquires the ranges of this shard count whose lease expired
// without being released (a process that died or froze), at most limit
// of them (0: all), and returns them. A released range waits for its
// process (a restart).
func (f *Fleet) takeOver(ctx context.Context, limit int) []store.ShardRange {
	rows, err := f.st.ShardLeases(ctx)
	if err != nil {
		f.log.Warn("reading the shards' leases", "err", err)
		return nil
	}
	var took []store.ShardRange
	for _, r := range deadRanges(rows, f.count, 3*f.ttl) {
		if limit > 0 && len(took) == limit {
			break
		}
		l, err := f.st.AcquireShards(ctx, f.holder, r, f.ttl)
		if err != nil {
			if !errors.Is(err, store.ErrLeaseHeld) {
				f.log.Warn("taking over shards", "shards", r.String(), "err", err)
			}
			continue // another process was first
		}
		f.mu.Lock()
		f.leases = append(f.leases, l)
		f.mu.Unlock()
		f.log.Info("took over the shards of a process that stopped renewing them", "shards", r.String(), "holder", f.holder)
		took = append(took, r)
	}
	return took
}

// deadRanges groups the leases of count shards whose process is gone by
// their acquisition (holder and token) into ranges: a lease that expired
// unreleased (the process died or froze), or one released at a clean stop
// and not taken again within grace (its process is not coming back: the
// fleet was made smaller). A released range waits that long for its own
// process, which a deploy restarts in seconds.
func deadRanges(rows []store.LeaseRow, count int, grace time.Duration) []store.ShardRange {
	gone := func(l store.LeaseRow) bool {
		return !l.Live && l.Count == count && (l.Holder != "" || l.Heartbeat > grace)
	}
	var out []store.ShardRange
	for i := 0; i < len(rows); i++ {
		l := rows[i]
		if !gone(l) {
			continue
		}
		r := store.ShardRange{Count: count, First: l.Shard, Last: l.Shard}
		for i+1 < len(rows) && rows[i+1].Shard == r.Last+1 && rows[i+1].Holder == l.Holder && rows[i+1].Token == l.Token && gone(rows[i+1]) {
			i++
			r.Last++
		}
		out = append(out, r)
	}
	return out
}

// Release gives up the lease on the range this process asked for at a
// clean stop, so that its restart takes it at once. The ranges it took
// over are left to expire: their process is gone, and another process
// takes them over after the lease, where a released range would wait for
// a process that never comes back.
func (f *Fleet) Release(ctx context.Context) {
	f.mu.Lock()
	var leases []*store.ShardLease
	for _, l := range f.leases {
		if l.Range == f.want {
			leases = append(leases, l)
		}
	}
	f.leases = nil
	f.mu.Unlock()
	for _, l := range leases {
		if err := f.st.ReleaseShards(ctx, l); err != nil {
			f.log.Warn("releasing the shards' lease", "shards", l.Range.String(), "err", err)
		}
	}
}
