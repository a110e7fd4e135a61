package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
)

// eventually waits until cond holds, looking every 10 ms, for at most a minute: for what
// only the bot knows (its log, its health), which no change of the fake announces.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// interactionFrames are the INTERACTION_CREATE dispatches the fake sent, by the shard whose
// connection carried them, with the guild of each interaction ("" for a DM).
func interactionFrames(srv *fakediscord.Server) (byShard map[int]int, guildOf map[string]string, shardOf map[string]int) {
	byShard, guildOf, shardOf = map[int]int{}, map[string]string{}, map[string]int{}
	for _, f := range srv.GatewayFrames() {
		if f.FromClient || f.Type != "INTERACTION_CREATE" {
			continue
		}
		var d struct {
			ID      string `json:"id"`
			GuildID string `json:"guild_id"`
		}
		json.Unmarshal(f.Data, &d)
		byShard[f.Shard]++
		guildOf[d.ID], shardOf[d.ID] = d.GuildID, f.Shard
	}
	return byShard, guildOf, shardOf
}

// One process runs the 4 shards Discord recommends, and serves games in servers on every
// shard: each interaction reaches the bot on its server's shard, is answered once, and every
// game is in the process's one database; the commands are registered once.
func TestOneProcessServesEveryShard(t *testing.T) {
	t.Parallel()
	const shards = 4
	e := newEnv(t, envOptions{global: true, fake: fakediscord.Options{RecommendedShards: shards}})
	for id := range shards {
		if _, err := e.srv.WaitReady(id); err != nil {
			t.Fatal(err)
		}
	}
	// A server on each shard (the env's own is on one of them).
	guilds := map[int]fakediscord.Guild{fakediscord.ShardFor(e.guild.ID, shards): e.guild}
	for len(guilds) < shards {
		g := e.srv.CreateGuild("server")
		guilds[fakediscord.ShardFor(g.ID, shards)] = g
	}
	var tables []*table
	for id := range shards {
		tb := newTableIn(e, e.srv.CreateTextChannel(guilds[id].ID, "ttr"), "usa", "", "alice", "bob")
		tb.setup()
		tb.drawTurn()
		tables = append(tables, tb)
	}
	e.svc.Quiet()

	byShard, guildOf, shardOf := interactionFrames(e.srv)
	for id, guild := range guildOf {
		if want := fakediscord.ShardFor(guild, shards); shardOf[id] != want {
			t.Errorf("interaction %s of server %s came on shard %d, want %d", id, guild, shardOf[id], want)
		}
		if n := callbacks(e.srv, id); n != 1 {
			t.Errorf("interaction %s (shard %d): %d callbacks, want 1", id, shardOf[id], n)
		}
	}
	h := e.b.Health()
	if h.ShardCount != shards || len(h.Shards) != shards || !h.Connected {
		t.Fatalf("health: %d shards of %d, connected %v", len(h.Shards), h.ShardCount, h.Connected)
	}
	for _, s := range h.Shards {
		if !s.Connected || s.Interactions != int64(byShard[s.ID]) || byShard[s.ID] == 0 || s.Logins != 1 {
			t.Errorf("shard %d: %+v; the fake sent it %d interactions", s.ID, s, byShard[s.ID])
		}
	}
	for _, tb := range tables {
		if rec, err := e.st.Get(tb.ch.ID); err != nil || rec.Guild != tb.parent.GuildID {
			t.Errorf("the game of server %s is not in the database: %+v %v", tb.parent.GuildID, rec, err)
		}
	}
	if n := len(e.srv.RequestsTo("PUT", "/applications/{application_id}/commands")); n != 1 {
		t.Errorf("%d registrations of the commands, want 1 for the %d shards", n, shards)
	}
	ids := e.srv.Identifies()
	if len(ids) != shards {
		t.Errorf("%d IDENTIFYs, want one per shard: %+v", len(ids), ids)
	}
	for _, id := range ids {
		if !id.ShardSent || id.Shard[1] != shards {
			t.Errorf("IDENTIFY %+v, want [shard, %d]", id, shards)
		}
	}
	e.srv.CheckClean(t)
}

// startShards starts a bot running every shard of the fake, with the fake's login pace.
func startBot(t *testing.T, srv *fakediscord.Server, interval time.Duration, log *slog.Logger) (*bot.Bot, error) {
	t.Helper()
	if log == nil {
		log = logger()
	}
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(data.Embedded().IDs()),
		Logger: log, IdentifyInterval: interval, ReadyTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Stop(context.Background())
		b.Close()
	})
	return b, b.Start(t.Context(), nopHandler{})
}

// Shards log in by max_concurrency buckets (shard % max_concurrency), one IDENTIFY per
// bucket per interval, in shard order, and Discord refuses none. The interval is shortened
// for the fake and the bot alike: Discord's is 5 s.
func TestLoginsArePacedByBucket(t *testing.T) {
	t.Parallel()
	const shards, interval = 4, time.Second
	for _, concurrency := range []int{1, 2} {
		t.Run(fmt.Sprint("max_concurrency ", concurrency), func(t *testing.T) {
			t.Parallel()
			srv := fakediscord.New(t, fakediscord.Options{RecommendedShards: shards, MaxConcurrency: concurrency, IdentifyInterval: interval})
			if _, err := startBot(t, srv, interval, nil); err != nil {
				t.Fatal(err)
			}
			for id := range shards {
				if _, err := srv.WaitReady(id); err != nil {
					t.Fatal(err)
				}
			}
			byBucket := map[int][]fakediscord.IdentifyRecord{}
			for _, id := range srv.Identifies() {
				byBucket[id.Bucket] = append(byBucket[id.Bucket], id)
			}
			if len(byBucket) != concurrency {
				t.Fatalf("logins in %d buckets, want %d", len(byBucket), concurrency)
			}
			for bucket, ids := range byBucket {
				if len(ids) != shards/concurrency {
					t.Errorf("bucket %d: %d logins, want %d", bucket, len(ids), shards/concurrency)
				}
				for i := 1; i < len(ids); i++ {
					if gap := ids[i].Time.Sub(ids[i-1].Time); gap < interval {
						t.Errorf("bucket %d: shard %d logged in %v after shard %d, want at least %v", bucket, ids[i].Shard[0], gap, ids[i-1].Shard[0], interval)
					}
					if ids[i].Shard[0] < ids[i-1].Shard[0] {
						t.Errorf("bucket %d: shard %d logged in before shard %d", bucket, ids[i-1].Shard[0], ids[i].Shard[0])
					}
				}
			}
			if concurrency > 1 {
				// The buckets log in side by side: the second's first login does not wait for the first's.
				if gap := byBucket[1][0].Time.Sub(byBucket[0][0].Time); gap >= interval {
					t.Errorf("bucket 1 logged in %v after bucket 0: the buckets did not start together", gap)
				}
			}
			srv.CheckClean(t)
		})
	}
}

// Op 9: not resumable, the shard waits (1 to 5 s at Discord's pace, a fifth of the interval
// to all of it here) and logs in again on a new connection; resumable, it waits the same and
// resumes instead, on READY's resume_gateway_url. Discord refuses nothing.
func TestInvalidSessionBacksOffThenLogsIn(t *testing.T) {
	t.Parallel()
	const interval = time.Second
	e := newEnv(t, envOptions{fake: fakediscord.Options{IdentifyInterval: interval}})
	first, err := e.srv.WaitReady(0)
	if err != nil {
		t.Fatal(err)
	}
	op9At := func(n int) time.Time {
		var at []time.Time
		for _, f := range e.srv.GatewayFrames() {
			if !f.FromClient && f.Op == 9 {
				at = append(at, f.Time)
			}
		}
		if len(at) < n {
			t.Fatalf("%d op 9 sent, want %d", len(at), n)
		}
		return at[n-1]
	}

	if err := e.srv.InvalidateSession(0); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.WaitFor("a second login", func() bool { return len(e.srv.Identifies()) == 2 }); err != nil {
		t.Fatal(err)
	}
	second := e.srv.Identifies()[1]
	if wait := second.Time.Sub(op9At(1)); wait < interval/5 {
		t.Errorf("the shard logged in again %v after op 9, want a back-off of at least %v", wait, interval/5)
	}
	if second.SessionID == first.SessionID {
		t.Error("the new login reused the invalidated session")
	}
	// Interactions are served on the new session.
	a := e.ttr(e.user("alice").ID, e.channel("table").ID, "help")
	if a.cb.Type != fakediscord.CallbackMessage {
		t.Errorf("/ttr help after op 9: %+v", a.cb)
	}

	before := 0 // a heartbeat late on a loaded machine is resumed too
	for _, r := range e.srv.Resumes() {
		if r.Accepted {
			before++
		}
	}
	if err := e.srv.InvalidSession(0, true); err != nil {
		t.Fatal(err)
	}
	resumes, err := e.srv.WaitResumes(before + 1)
	if err != nil {
		t.Fatal(err)
	}
	resumed := resumes[len(resumes)-1]
	if wait := resumed.Time.Sub(op9At(2)); wait < interval/5 {
		t.Errorf("the shard resumed %v after a resumable op 9, want a back-off of at least %v", wait, interval/5)
	}
	if !resumed.OnResumeURL || resumed.SessionID != second.SessionID {
		t.Errorf("resume %+v, want session %s on resume_gateway_url", resumed, second.SessionID)
	}
	if n := len(e.srv.Identifies()); n != 2 {
		t.Errorf("%d logins: a resumable op 9 must not log in again", n)
	}
	e.srv.CheckClean(t)
}

// A dropped connection and Discord's op 7 are resumed on READY's resume_gateway_url, not
// on the first URL (discordgo's gateway did the latter, which the fake now records).
func TestResumesUseTheResumeURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.srv.DropConnection(0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.WaitResumes(1); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.WaitFor("the shard back", func() bool { return e.srv.Connected(0) }); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.SendReconnect(0); err != nil {
		t.Fatal(err)
	}
	resumes, err := e.srv.WaitResumes(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resumes {
		if !r.OnResumeURL {
			t.Errorf("resume %+v not on resume_gateway_url", r)
		}
	}
	if n := len(e.srv.Identifies()); n != 1 {
		t.Errorf("%d logins for two resumes", n)
	}
	e.srv.CheckClean(t)
}

// With no gateway login left today the bot logs in no shard (Discord would reset the token),
// says so, and asks Discord nothing more until the renewal; then it logs in.
func TestNoLoginLeftWaitsForTheRenewal(t *testing.T) {
	// Not parallel: it reads discordgo's log, which goes to the newest bot's logger.
	srv := fakediscord.New(t, fakediscord.Options{IdentifyInterval: 10 * time.Millisecond})
	const renewal = 1500 * time.Millisecond
	srv.SetSessionStartLimit(0, renewal)
	logs := &logSink{}
	begin := time.Now()
	started := make(chan error, 1)
	var b *bot.Bot
	go func() {
		var err error
		b, err = startBot(t, srv, 10*time.Millisecond, slog.New(slog.NewTextHandler(logs, nil)))
		started <- err
	}()
	eventually(t, "the wait in the log", func() bool { return strings.Contains(logs.String(), "logins for today are used up") })
	if n := len(srv.Identifies()); n != 0 || len(srv.GatewayFaults()) != 0 || srv.TokenReset() {
		t.Fatalf("%d logins, faults %v, token reset %v: the bot logged in with none left", n, srv.GatewayFaults(), srv.TokenReset())
	}
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	ids := srv.Identifies()
	if len(ids) != 1 || ids[0].Time.Sub(begin) < renewal {
		t.Errorf("logins %+v, want one after the renewal %v after the start", ids, renewal)
	}
	if n := len(srv.RequestsTo("GET", "/gateway/bot")); n != 2 {
		t.Errorf("%d GET /gateway/bot, want 2 (the start, the renewal): the bot must not poll Discord", n)
	}
	if !strings.Contains(logs.String(), "renewed") {
		t.Errorf("the renewal is not in the log:\n%s", logs)
	}
	_ = b
	srv.CheckClean(t)
}

// Logins run out while the bot runs: an invalidated shard waits for the renewal, and the
// other shard goes on serving.
func TestShardWaitsForLoginsWhileTheOthersServe(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{global: true, fake: fakediscord.Options{RecommendedShards: 2, MaxConcurrency: 2}})
	for id := range 2 {
		if _, err := e.srv.WaitReady(id); err != nil {
			t.Fatal(err)
		}
	}
	e.srv.SetSessionStartLimit(0, time.Hour)
	if err := e.srv.InvalidateSession(1); err != nil {
		t.Fatal(err)
	}
	eventually(t, "shard 1 waiting for the renewal", func() bool {
		h := e.b.Health()
		return len(h.Shards) == 2 && strings.Contains(h.Shards[1].State, "renew")
	})
	h := e.b.Health()
	if !h.DownSince.IsZero() {
		t.Errorf("down since %v: a shard waiting for Discord's renewal must not make the watchdog restart the process", h.DownSince)
	}
	if p := strings.Join(h.Problems(time.Now()), "; "); !strings.Contains(p, "gateway shard 1 waiting for Discord's gateway logins to renew") {
		t.Errorf("problems %q", p)
	}
	guild := e.guild
	if fakediscord.ShardFor(guild.ID, 2) != 0 {
		guild = e.srv.CreateGuild("server")
		for fakediscord.ShardFor(guild.ID, 2) != 0 {
			guild = e.srv.CreateGuild("server")
		}
	}
	a := e.ttr(e.user("alice").ID, e.srv.CreateTextChannel(guild.ID, "t").ID, "help")
	if a.cb.Type != fakediscord.CallbackMessage {
		t.Errorf("shard 0 did not answer: %+v", a.cb)
	}
	if n := len(e.srv.Identifies()); n != 2 || e.srv.TokenReset() || len(e.srv.GatewayFaults()) != 0 {
		t.Errorf("%d logins, token reset %v, faults %v", n, e.srv.TokenReset(), e.srv.GatewayFaults())
	}
	// The start's, and the count asked before the second login: no more
	// while the shard waits.
	if n := len(e.srv.RequestsTo("GET", "/gateway/bot")); n != 2 {
		t.Errorf("%d GET /gateway/bot, want 2: the waiting shard polls Discord", n)
	}
}

// A bot in more servers than its shards may hold: Discord closes the shard with 4011, and
// the start fails saying which setting to change, rather than logging in again and again.
func TestShardingRequiredStopsTheStart(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t, fakediscord.Options{MaxGuildsPerShard: 1})
	srv.CreateGuild("one")
	srv.CreateGuild("two")
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), ShardCount: 1, Logger: logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Start(t.Context(), nopHandler{})
	if err == nil || !strings.Contains(err.Error(), "4011") || !strings.Contains(err.Error(), "CONDUCTOR_SHARD_COUNT") {
		t.Fatalf("start: %v", err)
	}
	if n := slices.IndexFunc(srv.GatewayFrames(), func(f fakediscord.GatewayFrame) bool { return f.FromClient && f.Op == 2 }); n < 0 {
		t.Fatal("no IDENTIFY was sent")
	}
	if n := len(srv.GatewayFrames()); n > 4 {
		t.Errorf("%d gateway frames: the bot tried again after 4011", n)
	}
	if !errors.Is(err, context.Canceled) && b.Health().Connected {
		t.Error("connected after 4011")
	}
}
