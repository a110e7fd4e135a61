package bot

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// Discord rations gateway logins (IDENTIFY; a RESUME is not one):
//
//   - Shards log in by buckets: rate_limit_key = shard_id % max_concurrency, and each bucket
//     takes one IDENTIFY per 5 seconds; a sooner one is answered op 9 (Gateway → Sharding →
//     Max Concurrency; Rate Limiting). Buckets start in order: shard 0 to 15, then 16 to 31...
//   - A bot has session_start_limit.total logins a day (1,000 below 150,000 servers); "upon
//     hitting this limit, all active sessions for the app will be terminated, the bot token
//     will be reset". GET /gateway/bot says how many remain and when the count renews.
//
// An IdentifyGate grants logins under both. The process's own (newLocalIdentifyGate) knows
// the logins of this process only; several processes sharing the shards will need one
// coordinated through their database, behind the same interface.

// IdentifyInterval is how often a bucket may log in: Discord's 5 seconds.
const IdentifyInterval = 5 * time.Second

// SessionLimit is what GET /gateway/bot says of the logins left (session_start_limit).
type SessionLimit struct {
	Total, Remaining int
	ResetAfter       time.Duration
	MaxConcurrency   int
}

// IdentifyGate grants gateway logins.
type IdentifyGate interface {
	// Limit tells the gate what GET /gateway/bot said, at start and whenever the bot asks
	// again.
	Limit(SessionLimit)
	// Acquire blocks until shard may log in now (its bucket's last login far enough back, a
	// session start left), or ctx ends. The caller then dials and sends its IDENTIFY at once,
	// and calls release with the time the IDENTIFY was written, or the zero time when none
	// was (the dial failed): the login is then not counted.
	Acquire(ctx context.Context, shard int) (release func(sent time.Time), err error)
}

// gateClock is the time as a gate sees it: the machine's, or a test's.
type gateClock interface {
	Now() time.Time
	After(time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// localIdentifyGate is the gate of one process. The shards' first logins use the count
// GET /gateway/bot gave at the start; any later login (after op 9, or a session Discord timed
// out) asks Discord again first, so that logins spent elsewhere (another process, an earlier
// run) are counted: the waiting shards share one answer.
type localIdentifyGate struct {
	clock gateClock
	// interval is a bucket's pace; margin is added after each login, for the time an
	// IDENTIFY takes to reach Discord, which varies from one to the next.
	interval, margin time.Duration
	// refresh asks GET /gateway/bot.
	refresh func(context.Context) (SessionLimit, error)
	log     *slog.Logger

	mu          sync.Mutex
	concurrency int // set by the first Limit
	buckets     map[int]*identifyBucket
	// left logins until resetAt, as of fetchedAt; known: Limit was called.
	left      int
	resetAt   time.Time
	fetchedAt time.Time
	known     bool
	// first are the shards whose first login the start's count covers (expect).
	first map[int]bool
	// refreshing: a GET /gateway/bot is under way; after one failed, none before retryAt.
	refreshing bool
	retryAt    time.Time
	// exhausted: the wait for the renewal has been logged.
	exhausted bool
	// changed is closed and replaced on every change, to wake the waiters.
	changed chan struct{}
	// pace, when set, reserves a bucket's login slot among the fleet's processes.
	pace IdentifyPace
}

// IdentifyPace reserves the next login slot of an identify bucket among the processes of a
// fleet, spaced at least spacing after the previous one whichever process took it, and
// returns how long to wait for it (ops.FleetPace, through the database).
type IdentifyPace func(ctx context.Context, bucket int, spacing time.Duration) (time.Duration, error)

type identifyBucket struct {
	busy    bool      // a login granted and not yet released
	next    time.Time // the bucket's next login, no sooner
	waiting []int     // shards waiting, lowest first: buckets start in order
}

func newLocalIdentifyGate(clock gateClock, interval time.Duration, refresh func(context.Context) (SessionLimit, error), log *slog.Logger) *localIdentifyGate {
	return &localIdentifyGate{clock: clock, interval: interval, margin: interval / 10, refresh: refresh, log: log,
		buckets: map[int]*identifyBucket{}, first: map[int]bool{}, changed: make(chan struct{})}
}

func (g *localIdentifyGate) changedLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *localIdentifyGate) Limit(l SessionLimit) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.concurrency == 0 {
		// Buckets are keyed by it: it is kept for the process's life (Discord
		// changes it for a bot that grows past 150,000 servers, with a restart).
		g.concurrency = max(1, l.MaxConcurrency)
	}
	now := g.clock.Now()
	g.left, g.resetAt, g.fetchedAt, g.known = l.Remaining, now.Add(l.ResetAfter), now, true
	if g.left > 0 {
		g.exhausted = false
	} else {
		// Asked again at the renewal, Discord may not have renewed yet (its
		// milliseconds are rounded, its clock is not this one): a second
		// apart at least, rather than asking again and again.
		g.resetAt = now.Add(max(l.ResetAfter, time.Second))
	}
	g.changedLocked()
}

func (g *localIdentifyGate) bucketLocked(shard int) *identifyBucket {
	key := shard % max(1, g.concurrency)
	b := g.buckets[key]
	if b == nil {
		b = &identifyBucket{}
		g.buckets[key] = b
	}
	return b
}

// expect queues the shards about to start, so that each bucket starts its shards in order
// whichever goroutine asks first, and lets their first logins use the start's count.
func (g *localIdentifyGate) expect(shards []int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, shard := range shards {
		g.enqueueLocked(shard)
		g.first[shard] = true
	}
}

func (g *localIdentifyGate) enqueueLocked(shard int) *identifyBucket {
	b := g.bucketLocked(shard)
	if !slices.Contains(b.waiting, shard) {
		b.waiting = append(b.waiting, shard)
		slices.Sort(b.waiting)
	}
	return b
}

// Exhausted reports whether the day's logins are used up, and when they renew.
func (g *localIdentifyGate) Exhausted() (bool, time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.known && g.left <= 0, g.resetAt
}

func (g *localIdentifyGate) Acquire(ctx context.Context, shard int) (func(time.Time), error) {
	g.mu.Lock()
	b := g.enqueueLocked(shard)
	asked := g.clock.Now()
	defer func() {
		// Granted or given up: no longer waiting.
		g.mu.Lock()
		if i := slices.Index(b.waiting, shard); i >= 0 {
			b.waiting = slices.Delete(b.waiting, i, i+1)
		}
		g.changedLocked()
		g.mu.Unlock()
	}()
	for {
		now := g.clock.Now()
		var wait time.Duration // 0: until something changes
		switch {
		case b.busy || b.waiting[0] != shard:
		case now.Before(b.next):
			wait = b.next.Sub(now)
		case !g.known || g.refreshing:
		case g.left <= 0 && now.Before(g.resetAt):
			if !g.exhausted {
				g.exhausted = true
				g.log.Warn("Discord's gateway logins for today are used up (session_start_limit): no shard logs in until they renew, "+
					"rather than have Discord reset the token; the shards that are connected go on serving",
					"renew_at", g.resetAt.UTC().Format(time.RFC3339), "in", g.resetAt.Sub(now).Round(time.Second), "shard", shard)
			}
			wait = g.resetAt.Sub(now)
		case g.left <= 0 || !g.first[shard] && g.fetchedAt.Before(asked):
			// Renewed by now, or a later login: ask Discord what is left.
			if now.Before(g.retryAt) {
				wait = g.retryAt.Sub(now)
				break
			}
			g.refreshing = true
			go g.recount(ctx)
		default:
			b.busy = true
			g.left--
			delete(g.first, shard)
			bucket := shard % max(1, g.concurrency)
			g.mu.Unlock()
			if g.pace != nil {
				if err := g.waitPace(ctx, bucket); err != nil {
					g.releaser(b)(time.Time{})
					return nil, err
				}
			}
			return g.releaser(b), nil
		}
		changed := g.changed
		g.mu.Unlock()
		var timer <-chan time.Time
		if wait > 0 {
			timer = g.clock.After(wait)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-changed:
		case <-timer:
		}
		g.mu.Lock()
	}
}

// waitPace waits for the bucket's slot among the fleet's processes (IdentifyPace): each
// process paces its own shards, and the slots, shared through the database, keep the
// processes' logins of a bucket apart too. Without an answer the process waits a whole
// interval, as if another process had just logged in.
func (g *localIdentifyGate) waitPace(ctx context.Context, bucket int) error {
	wait, err := g.pace(ctx, bucket, g.interval+g.margin)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		g.log.Warn("the fleet's login slot could not be reserved; waiting a whole interval", "bucket", bucket, "err", err)
		wait = g.interval + g.margin
	}
	if wait <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-g.clock.After(wait):
		return nil
	}
}

// releaser ends a granted login: the bucket's next one comes interval (and the margin) after
// it was sent; one never sent gives its session start back.
func (g *localIdentifyGate) releaser(b *identifyBucket) func(time.Time) {
	var once sync.Once
	return func(sent time.Time) {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			b.busy = false
			if sent.IsZero() {
				g.left++
			} else {
				b.next = sent.Add(g.interval + g.margin)
			}
			g.changedLocked()
		})
	}
}

// recount asks Discord how many logins are left. When that fails, the count the gate has
// stands for a minute (none left: the shards wait that minute).
func (g *localIdentifyGate) recount(ctx context.Context) {
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	l, err := g.refresh(rctx)
	cancel()
	if err == nil {
		g.mu.Lock()
		renewed := g.left <= 0 && l.Remaining > 0
		g.refreshing = false
		g.mu.Unlock()
		g.Limit(l)
		if renewed {
			g.log.Info("Discord's gateway logins renewed", "remaining", l.Remaining, "total", l.Total)
		}
		return
	}
	g.log.Warn("asking Discord for the gateway logins left (GET /gateway/bot)", "err", err)
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.clock.Now()
	g.refreshing, g.retryAt, g.fetchedAt = false, now.Add(time.Minute), now
	g.changedLocked()
}
