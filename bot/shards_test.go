package bot_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
	"conductor/internal/testkit/sketch"
	"conductor/store"
)

// shard is one process of a sharded deployment: its own bot, service and
// database.
type shard struct {
	st  *store.Store
	svc *commands.Service
	b   *bot.Bot
	tr  *tracker
}

func startShard(t *testing.T, srv *fakediscord.Server, id, count int) *shard {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "shard.db"), &store.Options{NoSync: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cat := data.Embedded()
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(cat.IDs()),
		Shards: &bot.ShardRange{From: id, To: id}, ShardCount: count, Logger: logger(), ReadyTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	svc := commands.New(commands.Config{Catalog: cat, Store: st, Renderer: &sketch.Renderer{}, Poster: b, Logger: logger()})
	sh := &shard{st: st, svc: svc, b: b, tr: newTracker(svc)}
	if err := b.Start(context.Background(), sh.tr); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		b.Stop(ctx)
		svc.Close()
		b.Close()
		st.Close()
	})
	return sh
}

// Two shards against one fake Discord: each identifies as its shard, and
// each serves only the servers Discord routes to it, keeping their games in
// its own database.
func TestTwoShardsServeOnlyTheirGuilds(t *testing.T) {
	t.Parallel()
	// Two processes, one shard each, in two login buckets: their gates do not
	// know of each other's logins.
	srv := fakediscord.New(t, fakediscord.Options{WaitTimeout: 30 * time.Second, MaxConcurrency: 2})
	// Guild ids are snowflakes; make one for each shard.
	var guilds [2]fakediscord.Guild
	for have := 0; have != 3; {
		g := srv.CreateGuild("server")
		s := fakediscord.ShardFor(g.ID, 2)
		if have&(1<<s) == 0 {
			guilds[s] = g
			have |= 1 << s
		}
	}
	shards := [2]*shard{startShard(t, srv, 0, 2), startShard(t, srv, 1, 2)}

	// The fake records an IDENTIFY as it answers READY: wait for both.
	err := srv.WaitFor("both shards identified", func() bool {
		seen := map[[2]int]bool{}
		for _, r := range srv.Identifies() {
			seen[r.Shard] = true
		}
		return seen[[2]int{0, 2}] && seen[[2]int{1, 2}]
	})
	if err != nil {
		t.Fatalf("%v: %v", err, srv.Identifies())
	}
	// Commands are registered once, by shard 0.
	if n := len(srv.RequestsTo("PUT", "/applications/{application_id}/commands")); n != 1 {
		t.Errorf("global command registrations: %d, want 1 (by shard 0)", n)
	}

	for s, g := range guilds {
		alice := srv.CreateUser("alice")
		ch := srv.CreateTextChannel(g.ID, "ttr")
		h, err := srv.RunCommand(alice.ID, ch.ID, "ttr", fakediscord.Subcommand("new"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.WaitCallback(); err != nil {
			t.Fatalf("shard %d's guild got no answer: %v", s, err)
		}
		if err := shards[s].tr.wait(h.ID, 1); err != nil {
			t.Fatalf("shard %d did not handle its guild's interaction: %v", s, err)
		}
		other := shards[1-s]
		game := ch.ID
		if th := srv.Threads(ch.ID); len(th) > 0 {
			game = th[0].ID // the game's own thread
		}
		if rec, err := shards[s].st.Get(game); err != nil || rec.Guild != g.ID {
			t.Fatalf("shard %d's database lacks its guild's game: %v %v", s, rec, err)
		}
		if _, err := other.st.Get(game); err == nil {
			t.Fatalf("shard %d's database holds a game of shard %d's guild", 1-s, s)
		}
	}
	srv.CheckClean(t)
}
