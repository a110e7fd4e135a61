package bot_test

import (
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// Two shards, each with a fresh database whose outbox counters run alike,
// post their tables' lobbies and welcomes: Discord deduplicates nonces per
// application, and none of them swallows the other's.
func TestTwoShardsPostingWithTheSameCounter(t *testing.T) {
	t.Parallel()
	// Two processes, one shard each, in two login buckets: their gates do not
	// know of each other's logins.
	srv := fakediscord.New(t, fakediscord.Options{WaitTimeout: 30 * time.Second, MaxConcurrency: 2})
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
	if err := srv.WaitFor("both shards ready", func() bool { return srv.Connected(0) && srv.Connected(1) }); err != nil {
		t.Fatal(err)
	}
	var channels [2]fakediscord.Channel
	for s, g := range guilds {
		channels[s] = srv.CreateTextChannel(g.ID, "ttr")
		h, err := srv.RunCommand(srv.CreateUser("alice").ID, channels[s].ID, "ttr", fakediscord.Subcommand("new"))
		if err != nil {
			t.Fatal(err)
		}
		if err := shards[s].tr.wait(h.ID, 1); err != nil {
			t.Fatal(err)
		}
	}
	for s, ch := range channels {
		// The posts go out after the answers, paced by the global limit.
		posted := func() bool {
			_, lobby := srv.LatestMessage(ch.ID, func(m fakediscord.Message) bool { return button(m, "lobby:", ":join") != "" })
			threads := srv.Threads(ch.ID)
			return lobby && len(threads) == 1 && len(srv.Messages(threads[0].ID)) == 1
		}
		if err := srv.WaitFor("the lobby and its thread's welcome", posted); err != nil {
			t.Errorf("shard %d: the lobby was swallowed or its thread has no welcome: %v", s, err)
			continue
		}
		lobby, _ := srv.LatestMessage(ch.ID, func(m fakediscord.Message) bool { return button(m, "lobby:", ":join") != "" })
		if lobby.Nonce == "" {
			t.Errorf("shard %d's lobby has no nonce", s)
		}
	}
	srv.CheckClean(t)
}
