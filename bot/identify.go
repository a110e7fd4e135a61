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

// localIdentifyGate is the gate of one process.
type localIdentifyGate struct {
	clock gateClock
	// interval is a bucket's pace; margin is added after each login, for the time an
	// IDENTIFY takes to reach Discord, which varies from one to the next.
	interval, margin time.Duration
	// refresh asks GET /gateway/bot again once the day's count has renewed.
	refresh func(context.Context) (SessionLimit, error)
	log     *slog.Logger

	mu          sync.Mutex
	concurrency int
	buckets     map[int]*identifyBucket
	// left logins until resetAt; known: Limit was called.
	left       int
	resetAt    time.Time
	known      bool
	refreshing bool
	// exhausted: the wait for the renewal has been logged.
	exhausted bool
	// changed is closed and replaced on every change, to wake the waiters.
	changed chan struct{}
}

type identifyBucket struct {
	busy    bool      // a login granted and not yet released
	next    time.Time // the bucket's next login, no sooner
	waiting []int     // shards waiting, lowest first: buckets start in order
}

func newLocalIdentifyGate(clock gateClock, interval time.Duration, refresh func(context.Context) (SessionLimit, error), log *slog.Logger) *localIdentifyGate {
	return &localIdentifyGate{clock: clock, interval: interval, margin: interval / 10, refresh: refresh, log: log,
		concurrency: 1, buckets: map[int]*identifyBucket{}, changed: make(chan struct{})}
}

func (g *localIdentifyGate) changedLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *localIdentifyGate) Limit(l SessionLimit) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if l.MaxConcurrency >= 1 && l.MaxConcurrency != g.concurrency {
		g.concurrency = l.MaxConcurrency
		g.buckets = map[int]*identifyBucket{} // nobody waits yet: Limit comes before the shards start
	}
	g.left, g.resetAt, g.known = l.Remaining, g.clock.Now().Add(l.ResetAfter), true
	if g.left > 0 {
		g.exhausted = false
	}
	g.changedLocked()
}

func (g *localIdentifyGate) bucketLocked(shard int) *identifyBucket {
	key := shard % g.concurrency
	b := g.buckets[key]
	if b == nil {
		b = &identifyBucket{}
		g.buckets[key] = b
	}
	return b
}

// expect queues shards before they ask, so that each bucket starts its shards in order
// whichever goroutine asks first.
func (g *localIdentifyGate) expect(shards []int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, shard := range shards {
		g.enqueueLocked(shard)
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
		case !g.known:
		case g.left <= 0 && now.Before(g.resetAt):
			if !g.exhausted {
				g.exhausted = true
				g.log.Warn("Discord's gateway logins for today are used up (session_start_limit): no shard logs in until they renew, "+
					"rather than have Discord reset the token; the shards that are connected go on serving",
					"renew_at", g.resetAt.UTC().Format(time.RFC3339), "in", g.resetAt.Sub(now).Round(time.Second), "shard", shard)
			}
			wait = g.resetAt.Sub(now)
		case g.left <= 0:
			if !g.refreshing {
				g.refreshing = true
				go g.renew(ctx)
			}
		default:
			b.busy = true
			g.left--
			g.mu.Unlock()
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

// renew asks Discord how many logins the new day gives, a minute apart while it fails, until
// ctx (the gateway's) ends.
func (g *localIdentifyGate) renew(ctx context.Context) {
	defer func() {
		g.mu.Lock()
		g.refreshing = false
		g.changedLocked()
		g.mu.Unlock()
	}()
	for {
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		l, err := g.refresh(rctx)
		cancel()
		if err == nil && (l.Remaining > 0 || l.ResetAfter > 0) {
			g.Limit(l)
			if l.Remaining > 0 {
				g.log.Info("Discord's gateway logins renewed", "remaining", l.Remaining, "total", l.Total)
			}
			return
		}
		if err != nil {
			g.log.Warn("asking Discord for the gateway logins left (GET /gateway/bot)", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-g.clock.After(time.Minute):
		}
	}
}
