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
	srv := fakediscord.New(t, fakediscord.Options{WaitTimeout: 30 * time.Second})
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
		lobby, ok := srv.LatestMessage(ch.ID, func(m fakediscord.Message) bool { return button(m, "lobby:", ":join") != "" })
		if !ok {
			t.Errorf("shard %d's lobby was swallowed", s)
			continue
		}
		threads := srv.Threads(ch.ID)
		if len(threads) != 1 || len(srv.Messages(threads[0].ID)) != 1 {
			t.Errorf("shard %d's thread has no welcome", s)
		}
		if lobby.Nonce == "" {
			t.Errorf("shard %d's lobby has no nonce", s)
		}
	}
	srv.CheckClean(t)
}
