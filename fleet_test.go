package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/fakediscord"
	"conductor/internal/pgtest"
	"conductor/store"
)

// fleetGame is a table of the fleet test: a member against a bot, in a
// server of its own.
type fleetGame struct {
	guild, channel, user string
	shard                int
	// acked are the interactions of the member's moves the bot answered.
	acked []string
}

// TestFleetTakesOverADeadProcess runs the bot as three processes on one
// PostgreSQL database, one shard each, serving a game in each of 30
// servers (6 unless CONDUCTOR_FLEET_FULL=1) through the fake Discord; the process of shard 1 is SIGKILLed
// while its bots are about to move and its boards are being posted. Its
// shard must be served again by another process within 60 s (the lease is
// 10 s here), every move the bot acknowledged must be in its game once,
// the bots' turns pending at the kill must be played, and the outbox must
// empty (each post delivered once: Discord, and the fake, create one
// message per nonce, and an entry keeps its nonce across processes).
func TestFleetTakesOverADeadProcess(t *testing.T) {
	dsn := pgtest.Database(t)
	// Two servers a shard in the README's suite (which runs it under the
	// race detector, where each board drawn costs ten times as much); the
	// 30 of the issue with CONDUCTOR_FLEET_FULL=1, as .ci/run sets.
	const shards = 3
	servers := 6
	if os.Getenv("CONDUCTOR_FLEET_FULL") != "" {
		servers = 30
	}
	// Heartbeats every 2 s, as the bot's harness has them: three processes under
	// the race detector on a loaded machine can starve one of 500 ms.
	srv := fakediscord.New(t, fakediscord.Options{RecommendedShards: shards, MaxConcurrency: shards, WaitTimeout: 30 * time.Second, HeartbeatInterval: 2 * time.Second})
	games := seedFleetGames(t, srv, dsn, shards, servers)

	dir := t.TempDir()
	procs := make([]*exec.Cmd, shards)
	for i := range shards {
		procs[i] = startFleetProcess(t, srv, dsn, dir, i)
	}
	for i := range shards {
		if _, err := srv.WaitReady(i); err != nil {
			t.Fatal(err, fleetLogs(dir))
		}
	}
	if err := srv.WaitFor("the commands", func() bool { return len(srv.Commands("")) > 0 }); err != nil {
		t.Fatal(err, fleetLogs(dir))
	}

	// A first turn everywhere, shard 1's tables last: the kill follows
	// their moves at once, while their bots wait to move and their
	// boards are drawn and posted.
	order := make([]*fleetGame, 0, len(games))
	for _, g := range games {
		if g.shard != 1 {
			order = append(order, g)
		}
	}
	for _, g := range games {
		if g.shard == 1 {
			order = append(order, g)
		}
	}
	playRound(t, srv, order, 30*time.Second, dir)
	killed := time.Now()
	if err := procs[1].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	procs[1].Wait()

	// A second turn everywhere: the dead process's tables answer again
	// once another process took shard 1 over, after their bots moved.
	var mu sync.Mutex
	var servedAgain time.Time
	var wg sync.WaitGroup
	for _, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := playTurn(srv, g, 90*time.Second); err != nil {
				t.Errorf("table of shard %d: %v", g.shard, err)
				return
			}
			if g.shard == 1 {
				mu.Lock()
				if servedAgain.IsZero() {
					servedAgain = time.Now()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.Fatal(fleetLogs(dir))
	}
	took := servedAgain.Sub(killed)
	t.Logf("shard 1 served again %v after its process was killed", took.Round(100*time.Millisecond))
	if took > 60*time.Second {
		t.Errorf("shard 1 was served again only %v after the kill, past 60 s", took)
	}

	st, err := store.Open(dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	emptied := time.Now()
	if err := srv.WaitForTimeout(2*time.Minute, "the outbox to empty", func() bool {
		n, _, err := st.OutboxDepth()
		return err == nil && n == 0
	}); err != nil {
		n, _, _ := st.OutboxDepth()
		t.Fatalf("%v: %d posts never delivered\n%s", err, n, fleetLogs(dir))
	}
	t.Logf("the outbox emptied %v after the last move", time.Since(emptied).Round(100*time.Millisecond))
	for _, g := range games {
		rec, err := st.Get(g.channel)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, e := range rec.Log {
			if e.Interaction != "" {
				seen[e.Interaction]++
			}
		}
		for id, n := range seen {
			if n > 1 {
				t.Errorf("table of shard %d: interaction %s applied %d times", g.shard, id, n)
			}
		}
		for _, id := range g.acked {
			if seen[id] != 1 {
				t.Errorf("table of shard %d: acknowledged move %s is in the log %d times", g.shard, id, seen[id])
			}
		}
		nonces := map[string]bool{}
		for _, m := range srv.Messages(g.channel) {
			if m.Nonce != "" && nonces[m.Nonce] {
				t.Errorf("table of shard %d: two messages of nonce %s", g.shard, m.Nonce)
			}
			nonces[m.Nonce] = true
		}
	}
	// Who holds what: shard 1 is held by a live process other than the
	// one killed, every shard by a live lease.
	rows, err := st.ShardLeases(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	holders := map[string]bool{}
	for _, r := range rows {
		if !r.Live {
			t.Errorf("shard %d's lease is not live: %+v", r.Shard, r)
		}
		holders[r.Holder] = true
	}
	if len(rows) != shards || len(holders) != 2 {
		t.Errorf("leases %+v: want %d shards held by the 2 processes left", rows, shards)
	}
	for _, i := range []int{0, 2} {
		procs[i].Process.Signal(syscall.SIGTERM)
	}
	for _, i := range []int{0, 2} {
		if err := procs[i].Wait(); err != nil {
			t.Errorf("process %d ended with %v", i, err)
		}
	}
	if t.Failed() {
		t.Log(fleetLogs(dir))
	}
}

// TestFleetChild is a process of TestFleetTakesOverADeadProcess.
func TestFleetChild(t *testing.T) {
	if os.Getenv("CONDUCTOR_FLEET_CHILD") == "" {
		t.Skip("run by TestFleetTakesOverADeadProcess")
	}
	os.Exit(realMain([]string{"run"}, os.Stdin, os.Stdout, os.Stderr))
}

func startFleetProcess(t *testing.T, srv *fakediscord.Server, dsn, dir string, shard int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestFleetChild$")
	cmd.Env = append(os.Environ(), "CONDUCTOR_FLEET_CHILD=1", "DISCORD_TOKEN=fake-bot-token", "DISCORD_API_URL="+srv.BaseURL(),
		"CONDUCTOR_DB="+dsn, "CONDUCTOR_SHARD_COUNT=3", fmt.Sprint("CONDUCTOR_SHARDS=", shard), "CONDUCTOR_LEASE=10s",
		"CONDUCTOR_HTTP=", "LOG_LEVEL=info")
	logs, err := os.Create(filepath.Join(dir, fmt.Sprint("process-", shard, ".log")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logs.Close() })
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}

// fleetLogs is the end of each process's log.
func fleetLogs(dir string) string {
	var b strings.Builder
	paths, _ := filepath.Glob(filepath.Join(dir, "process-*.log"))
	for _, p := range paths {
		fmt.Fprintf(&b, "\n--- %s\n%s", filepath.Base(p), tail(p))
	}
	return b.String()
}

// seedFleetGames makes a server, a channel and a member in the fake for
// each game, and stores a game there, past its tickets, the member to
// move against an easy bot.
func seedFleetGames(t *testing.T, srv *fakediscord.Server, dsn string, shards, servers int) []*fleetGame {
	st, err := store.Open(dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := data.Embedded().Board("usa")
	if err != nil {
		t.Fatal(err)
	}
	var out []*fleetGame
	var buf []engine.Action
	seed := uint64(0)
	// A server's shard follows the millisecond of its id: servers are
	// made until each shard has its share.
	perShard := make([]int, shards)
	for i := 0; i < servers; {
		g := srv.CreateGuild(fmt.Sprint("server ", i))
		if sh := fakediscord.ShardFor(g.ID, shards); perShard[sh] >= servers/shards {
			time.Sleep(time.Millisecond)
			continue
		} else {
			perShard[sh]++
			i++
		}
		ch := srv.CreateTextChannel(g.ID, "ttr")
		u := srv.CreateUser(fmt.Sprint("player", i))
		srv.AddMember(g.ID, u.ID)
		// A seed whose setup leaves the member to move.
		var moves []store.LogEntry
		for {
			seed++
			eg, err := engine.New(engine.Config{Board: b, Players: 2, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 1))
			moves = moves[:0]
			for eg.Phase() != engine.PhaseTurn {
				seat := eg.ToAct()
				buf = eg.LegalActions(seat, buf[:0])
				a := pickMove(rng, eg, buf)
				if err := eg.Play(seat, a); err != nil {
					t.Fatal(err)
				}
				moves = append(moves, store.LogEntry{Seat: seat, Action: engine.FormatAction(b, a), At: time.Now().UTC().Truncate(time.Millisecond)})
			}
			if eg.Current() == 0 {
				break
			}
		}
		rec := &store.GameRecord{Channel: ch.ID, Guild: g.ID, ID: fmt.Sprint("fleet-", i), Map: "usa", Seed: seed, Rules: engine.LatestRevision,
			Status: store.StatusPlaying, Options: map[string]string{"locale": "en", "turn_timer": "10080"}, Host: u.ID, Created: time.Now().UTC(),
			Seats: []store.Seat{{UserID: u.ID, Name: u.Username, Color: "red"}, {Name: "Bot 1", Bot: "easy", Color: "blue"}}, Log: moves}
		if err := st.Put(rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, &fleetGame{guild: g.ID, channel: ch.ID, user: u.ID, shard: fakediscord.ShardFor(g.ID, shards)})
	}
	return out
}

// playRound plays a turn of each game, one after another.
func playRound(t *testing.T, srv *fakediscord.Server, games []*fleetGame, timeout time.Duration, dir string) {
	t.Helper()
	for _, g := range games {
		if err := playTurn(srv, g, timeout); err != nil {
			t.Fatalf("table of shard %d: %v%s", g.shard, err, fleetLogs(dir))
		}
	}
}

// playTurn draws twice from the deck as the member, each draw tried again
// until the bot answers "You drew" (while the bot's turn is not over, or
// the shard not served, it answers otherwise or not at all).
func playTurn(srv *fakediscord.Server, g *fleetGame, timeout time.Duration) error {
	end := time.Now().Add(timeout)
	for draws := 0; draws < 2; {
		if time.Now().After(end) {
			return fmt.Errorf("draw %d not answered within %v", draws+1, timeout)
		}
		h, err := srv.RunCommand(g.user, g.channel, "draw", fakediscord.StringOption("card", "deck"))
		if err != nil {
			time.Sleep(200 * time.Millisecond) // the shard is not served
			continue
		}
		var m fakediscord.Message
		err = srv.WaitForTimeout(5*time.Second, "the answer of "+h.ID, func() bool {
			var ok bool
			m, ok = h.Original()
			return ok && (m.Content != "" || len(m.Embeds) > 0)
		})
		if err == nil && strings.Contains(m.Content, "You drew") {
			g.acked = append(g.acked, h.ID)
			draws++
			continue
		}
		time.Sleep(200 * time.Millisecond)
	}
	return nil
}
