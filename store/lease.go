package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Shard leases: several processes serve one database, each a range of
// the bot's gateway shards, and a lease says which process serves which
// shard, for a while. A process acquires its range, renews it well before
// it expires (a heartbeat), and releases it when it stops; a process that
// died stops renewing, and once its lease expired another one acquires
// the range (takes it over). No two processes ever hold one shard:
//
//   - a lease is kept per shard, and acquiring a range takes every shard of
//     it or none (all in one transaction);
//   - acquisitions run one at a time (a lock of the database's), and all
//     live leases are of one shard count: a process started with another
//     count is refused until the old count's leases are released or expired
//     (changing the count is a restart of the whole fleet);
//   - expiry is judged by the database's clock only, so the machines'
//     clocks do not matter; a holder stops serving at Until, which it
//     computes from its own clock as the time it asked plus the lease's
//     length, never later than the database's expiry;
//   - each acquisition gets a new fencing token, larger than every earlier
//     one; a move committed with a Fence (MoveCommit.Fence) commits only
//     while the lease with that token is held, so a process that was
//     paused past its lease (a long GC, a frozen VM) cannot commit a move
//     the new holder does not see.
//
// On PostgreSQL the leases are rows (pglease.go); a bbolt file has one
// process, and keeps them in memory with the same rules.

var (
	// ErrLeaseHeld: another process holds a shard asked for (or holds
	// shards of another shard count); the error says who and until when.
	ErrLeaseHeld = errors.New("store: shard lease held by another process")
	// ErrLeaseLost: the lease expired or was taken over; stop serving.
	ErrLeaseLost = errors.New("store: shard lease lost")
)

// ShardRange is the shards First to Last (inclusive) of a bot run with
// Count shards.
type ShardRange struct {
	Count, First, Last int
}

func (r ShardRange) String() string {
	if r.First == r.Last {
		return fmt.Sprintf("shard %d of %d", r.First, r.Count)
	}
	return fmt.Sprintf("shards %d-%d of %d", r.First, r.Last, r.Count)
}

func (r ShardRange) check() error {
	if r.Count < 1 || r.First < 0 || r.First > r.Last || r.Last >= r.Count {
		return fmt.Errorf("store: %d-%d of %d is not a range of shards (0 <= first <= last < count)", r.First, r.Last, r.Count)
	}
	return nil
}

// ShardLease is a process's hold on a range of shards.
type ShardLease struct {
	Holder string
	Range  ShardRange
	// Token is the fencing token of this acquisition.
	Token int64
	// Expires is when the lease ends by the database's clock.
	Expires time.Time
	// Until is when the holder must stop serving, by its own clock: when
	// it asked, plus the lease's length.
	Until time.Time
}

// Fence names the lease a move is committed under: the shard of the
// move's game, held by Holder with Token.
func (l *ShardLease) Fence(shard int) *Fence {
	return &Fence{Shard: shard, Holder: l.Holder, Token: l.Token}
}

// Fence makes a move commit only while a shard's lease is held.
type Fence struct {
	Shard  int
	Holder string
	Token  int64
}

// LeaseRow is one shard's lease as the database holds it (the fleet view).
type LeaseRow struct {
	Shard, Count int
	Holder       string // "" once released
	Token        int64
	Expires      time.Time
	Live         bool // not released, not expired by the database's clock
	// Heartbeat is how long ago the lease was taken or last renewed, by
	// the database's clock.
	Heartbeat time.Duration
	renewed   time.Time // memoryLeases' own
}

// leaseBackend keeps the leases.
type leaseBackend interface {
	acquireShards(ctx context.Context, holder string, r ShardRange, ttl time.Duration) (token int64, expires time.Time, err error)
	renewShards(ctx context.Context, l *ShardLease, ttl time.Duration) (time.Time, error)
	releaseShards(ctx context.Context, l *ShardLease) error
	shardLeases(ctx context.Context) ([]LeaseRow, error)
}

func checkLeaseArgs(holder string, ttl time.Duration) error {
	switch {
	case holder == "":
		return errors.New("store: a lease needs a holder's name")
	case ttl < time.Millisecond:
		return fmt.Errorf("store: a lease of %v is too short", ttl)
	}
	return nil
}

// AcquireShards takes the shards of r for holder for ttl: every shard of
// it, or none. A shard held by holder already is renewed with the others;
// one held by another process until later is ErrLeaseHeld.
func (s *Store) AcquireShards(ctx context.Context, holder string, r ShardRange, ttl time.Duration) (*ShardLease, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	if err := checkLeaseArgs(holder, ttl); err != nil {
		return nil, err
	}
	start := time.Now()
	token, expires, err := s.be.acquireShards(ctx, holder, r, ttl)
	if err != nil {
		return nil, err
	}
	return &ShardLease{Holder: holder, Range: r, Token: token, Expires: expires, Until: start.Add(ttl)}, nil
}

// RenewShards extends l by ttl from now: a heartbeat, to send well before
// l.Until. ErrLeaseLost when any shard of it expired or changed hands;
// then the holder must stop serving the range.
func (s *Store) RenewShards(ctx context.Context, l *ShardLease, ttl time.Duration) (*ShardLease, error) {
	if err := checkLeaseArgs(l.Holder, ttl); err != nil {
		return nil, err
	}
	start := time.Now()
	expires, err := s.be.renewShards(ctx, l, ttl)
	if err != nil {
		return nil, err
	}
	n := *l
	n.Expires, n.Until = expires, start.Add(ttl)
	return &n, nil
}

// ReleaseShards gives l's shards up at once, so that another process may
// take them without waiting for the expiry. Releasing a lease already lost
// does nothing.
func (s *Store) ReleaseShards(ctx context.Context, l *ShardLease) error {
	return s.be.releaseShards(ctx, l)
}

// ShardLeases lists every shard's lease, by shard: which process serves
// which shards, for a fleet view.
func (s *Store) ShardLeases(ctx context.Context) ([]LeaseRow, error) {
	return s.be.shardLeases(ctx)
}

// heldError describes the leases in the way of an acquisition.
func heldError(r ShardRange, in []LeaseRow) error {
	var parts []string
	for _, l := range in {
		if l.Count != r.Count {
			parts = append(parts, fmt.Sprintf("%s holds shard %d of %d (another shard count) until %s",
				l.Holder, l.Shard, l.Count, l.Expires.UTC().Format(time.RFC3339)))
		} else {
			parts = append(parts, fmt.Sprintf("%s holds shard %d until %s", l.Holder, l.Shard, l.Expires.UTC().Format(time.RFC3339)))
		}
		if len(parts) == 5 && len(in) > 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(in)-5))
			break
		}
	}
	return fmt.Errorf("%w: cannot take %s: %s", ErrLeaseHeld, r, strings.Join(parts, "; "))
}

// memoryLeases keeps the leases of a bbolt file, whose one process is the
// only one to ask: the same rules as the database's, by this clock.
type memoryLeases struct {
	leaseMu sync.Mutex
	rows    map[int]*LeaseRow
	tokens  int64
}

func (m *memoryLeases) acquireShards(_ context.Context, holder string, r ShardRange, ttl time.Duration) (int64, time.Time, error) {
	m.leaseMu.Lock()
	defer m.leaseMu.Unlock()
	now := time.Now()
	var in []LeaseRow
	for _, l := range m.rows {
		live := l.Holder != "" && l.Expires.After(now)
		if live && (l.Count != r.Count || (l.Shard >= r.First && l.Shard <= r.Last && l.Holder != holder)) {
			in = append(in, *l)
		}
	}
	if len(in) > 0 {
		sortRows(in)
		return 0, time.Time{}, heldError(r, in)
	}
	if m.rows == nil {
		m.rows = map[int]*LeaseRow{}
	}
	m.tokens++
	expires := now.Add(ttl)
	for sh := r.First; sh <= r.Last; sh++ {
		m.rows[sh] = &LeaseRow{Shard: sh, Count: r.Count, Holder: holder, Token: m.tokens, Expires: expires, renewed: now}
	}
	return m.tokens, expires, nil
}

func (m *memoryLeases) renewShards(_ context.Context, l *ShardLease, ttl time.Duration) (time.Time, error) {
	m.leaseMu.Lock()
	defer m.leaseMu.Unlock()
	now := time.Now()
	if !m.holds(l, now) {
		return time.Time{}, fmt.Errorf("%w: %s of %s (token %d)", ErrLeaseLost, l.Range, l.Holder, l.Token)
	}
	expires := now.Add(ttl)
	for sh := l.Range.First; sh <= l.Range.Last; sh++ {
		m.rows[sh].Expires, m.rows[sh].renewed = expires, now
	}
	return expires, nil
}

// holds: every shard of l is l's and live.
func (m *memoryLeases) holds(l *ShardLease, now time.Time) bool {
	for sh := l.Range.First; sh <= l.Range.Last; sh++ {
		row := m.rows[sh]
		if row == nil || row.Holder != l.Holder || row.Token != l.Token || row.Count != l.Range.Count || !row.Expires.After(now) {
			return false
		}
	}
	return true
}

func (m *memoryLeases) releaseShards(_ context.Context, l *ShardLease) error {
	m.leaseMu.Lock()
	defer m.leaseMu.Unlock()
	for sh := l.Range.First; sh <= l.Range.Last; sh++ {
		if row := m.rows[sh]; row != nil && row.Holder == l.Holder && row.Token == l.Token {
			row.Holder, row.Expires = "", time.Time{}
		}
	}
	return nil
}

func (m *memoryLeases) shardLeases(context.Context) ([]LeaseRow, error) {
	m.leaseMu.Lock()
	defer m.leaseMu.Unlock()
	now := time.Now()
	out := make([]LeaseRow, 0, len(m.rows))
	for _, l := range m.rows {
		row := *l
		row.Live = row.Holder != "" && row.Expires.After(now)
		row.Heartbeat, row.renewed = now.Sub(l.renewed), time.Time{}
		out = append(out, row)
	}
	sortRows(out)
	return out, nil
}

// fenced checks a fence against the leases in memory.
func (m *memoryLeases) fenced(f *Fence) error {
	m.leaseMu.Lock()
	defer m.leaseMu.Unlock()
	row := m.rows[f.Shard]
	if row == nil || row.Holder != f.Holder || row.Token != f.Token || !row.Expires.After(time.Now()) {
		return fmt.Errorf("%w: shard %d is no longer %s's (token %d)", ErrLeaseLost, f.Shard, f.Holder, f.Token)
	}
	return nil
}

func sortRows(rows []LeaseRow) {
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && rows[j].Shard < rows[j-1].Shard; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
}
