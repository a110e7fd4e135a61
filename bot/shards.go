package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// One process runs a range of gateway shards, by default all of them at the count Discord
// recommends: each shard is its own connection (gateway.go), logging in when the identify
// gate allows (identify.go); they share the handler, the REST client and the global gate.
// Commands are registered once, by the process that runs shard 0, on its first READY.

// ShardRange is the shards a process runs, From to To included.
type ShardRange struct{ From, To int }

func (r ShardRange) String() string {
	if r.From == r.To {
		return strconv.Itoa(r.From)
	}
	return fmt.Sprintf("%d-%d", r.From, r.To)
}

// ParseShardRange reads CONDUCTOR_SHARDS: "all" (nil), "A-B" or "A".
func ParseShardRange(v string) (*ShardRange, error) {
	v = strings.TrimSpace(v)
	if v == "" || strings.EqualFold(v, "all") {
		return nil, nil
	}
	from, to, isRange := strings.Cut(v, "-")
	if !isRange {
		to = from
	}
	a, errA := strconv.Atoi(strings.TrimSpace(from))
	b, errB := strconv.Atoi(strings.TrimSpace(to))
	if errA != nil || errB != nil || a < 0 || b < a {
		return nil, fmt.Errorf("%q: give all, a shard (3) or a range (0-7), the first no greater than the last", v)
	}
	return &ShardRange{From: a, To: b}, nil
}

// startShards plans the shards from GET /gateway/bot's answer and starts them.
func (b *Bot) startShards(gw *discordgo.GatewayBotResponse) error {
	count := b.cfg.ShardCount
	if count == 0 {
		count = max(1, gw.Shards)
	}
	run := ShardRange{0, count - 1}
	if b.cfg.Shards != nil {
		run = *b.cfg.Shards
	}
	if run.To >= count {
		return fmt.Errorf("shards %v of %d: this process must run shards below the count (CONDUCTOR_SHARDS, CONDUCTOR_SHARD_COUNT)", run, count)
	}
	if gw.Shards > count {
		// Discord requires sharding from 2,500 servers a shard (it closes a
		// shard past that with 4011); until then fewer shards do.
		b.log.Warn("Discord recommends more shards than this bot runs: set CONDUCTOR_SHARD_COUNT=auto (see docs/deploy.md)", "recommended", gw.Shards, "running", count)
	}
	n := run.To - run.From + 1
	if b.cfg.GlobalRate == 0 && b.cfg.GlobalLimiter == nil {
		// Discord's global limit is the bot's, whichever process sends: this
		// process's share is that of its shards.
		b.gate.setRate(globalShare(n, count))
	}
	limit := SessionLimit{Total: gw.SessionStartLimit.Total, Remaining: gw.SessionStartLimit.Remaining,
		ResetAfter: time.Duration(gw.SessionStartLimit.ResetAfter) * time.Millisecond, MaxConcurrency: max(1, gw.SessionStartLimit.MaxConcurrency)}
	if limit.Remaining < n {
		b.log.Warn("Discord allows fewer gateway logins today than this process has shards: those beyond wait for the renewal rather than have Discord reset the token",
			"remaining", limit.Remaining, "shards", n, "renew_in", limit.ResetAfter.Round(time.Second))
	}
	b.identify.Limit(limit)
	ids := make([]int, 0, n)
	for id := run.From; id <= run.To; id++ {
		ids = append(ids, id)
	}
	if g, ok := b.identify.(*localIdentifyGate); ok {
		g.expect(ids) // buckets start in order
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.mu.Lock()
	b.gatewayURL = strings.TrimSuffix(gw.URL, "/")
	b.shardCount, b.gwCancel, b.gwCtx = count, cancel, ctx
	for _, id := range ids {
		b.shards = append(b.shards, newShardConn(b, id, count))
	}
	shards := b.shards
	b.mu.Unlock()
	b.log.Info("starting the gateway", "shards", run.String(), "of", count, "recommended", gw.Shards,
		"max_concurrency", limit.MaxConcurrency, "logins_left", limit.Remaining)
	for _, c := range shards {
		go c.run(ctx)
	}
	return nil
}

// AddShards starts the shards From to To at the count Start used, beside
// those running: a fleet's process taking over the shards of one that died
// (ops.Fleet). Their logins go through the identify gate like the others'.
func (b *Bot) AddShards(r ShardRange) error {
	b.mu.Lock()
	ctx, count := b.gwCtx, b.shardCount
	if ctx == nil {
		b.mu.Unlock()
		return fmt.Errorf("shards %v: the gateway has not started", r)
	}
	if r.From < 0 || r.To < r.From || r.To >= count {
		b.mu.Unlock()
		return fmt.Errorf("shards %v are not shards of %d", r, count)
	}
	var ids []int
	for id := r.From; id <= r.To; id++ {
		if !slices.ContainsFunc(b.shards, func(c *shardConn) bool { return c.id == id }) {
			ids = append(ids, id)
		}
	}
	added := make([]*shardConn, 0, len(ids))
	for _, id := range ids {
		added = append(added, newShardConn(b, id, count))
	}
	// A new slice: Health and Close read the old one without the lock.
	b.shards = append(slices.Clip(b.shards), added...)
	n := len(b.shards)
	b.mu.Unlock()
	if b.cfg.GlobalRate == 0 && b.cfg.GlobalLimiter == nil {
		b.gate.setRate(globalShare(n, count))
	}
	if g, ok := b.identify.(*localIdentifyGate); ok {
		g.expect(ids)
	}
	b.log.Info("serving more shards", "shards", r.String(), "of", count, "now", n)
	for _, c := range added {
		go c.run(ctx)
	}
	return nil
}

// globalShare is the requests a second, under Discord's global limit, of a process that runs
// n of the bot's count shards: all of it when it runs every shard.
func globalShare(n, count int) float64 {
	return DefaultGlobalRate * float64(n) / float64(count)
}

// shardList is the process's shards (none before Start).
func (b *Bot) shardList() []*shardConn {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.shards
}

// runsShard reports whether this process runs the shard.
func (b *Bot) runsShard(id int) bool {
	for _, c := range b.shardList() {
		if c.id == id {
			return true
		}
	}
	return false
}

// acquireLogin waits for the shard's turn to log in.
func (b *Bot) acquireLogin(ctx context.Context, c *shardConn) (func(time.Time), error) {
	release, err := b.identify.Acquire(ctx, c.id)
	if err == nil {
		b.firstLoginOnce.Do(func() { close(b.firstLogin) })
	}
	return release, err
}

// shardFailed: Discord refused a shard for good. Before the start is done, the start fails
// with it.
func (b *Bot) shardFailed(err error) {
	b.readyOnce.Do(func() { b.ready <- err })
}

// invalidSessionBackoff is the wait after op 9: random, 1 to 5 s at Discord's pace.
func (b *Bot) invalidSessionBackoff() time.Duration {
	i := b.cfg.IdentifyInterval
	return i/5 + rand.N(i-i/5+1)
}

// gatewayToken is the token as IDENTIFY and RESUME carry it.
func (b *Bot) gatewayToken() string {
	return strings.TrimPrefix(strings.TrimSpace(b.cfg.Token), "Bot ")
}

// sessionLimit asks GET /gateway/bot for the logins left.
func (b *Bot) sessionLimit(ctx context.Context) (SessionLimit, error) {
	gw, err := b.s.GatewayBot(discordgo.WithContext(ctx))
	if err != nil {
		return SessionLimit{}, err
	}
	l := gw.SessionStartLimit
	return SessionLimit{Total: l.Total, Remaining: l.Remaining, ResetAfter: time.Duration(l.ResetAfter) * time.Millisecond,
		MaxConcurrency: max(1, l.MaxConcurrency)}, nil
}
