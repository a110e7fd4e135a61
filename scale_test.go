package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/internal/pgtest"
	"conductor/store"
)

// The scale test: a database of CONDUCTOR_SCALE live mid-game games (100
// servers, ten parent channels each, a game per thread) served by a real
// `conductor run` process against the fake Discord. It reports what
// docs/scale.md lists: the time from the process's start until the first
// interaction is answered, its resident memory after start and after a
// /draw in 1% of the games, the latency of /draw in a game and of /board in
// a channel without a game, its CPU over an idle minute, and the database's
// bytes per game. It is not part of the normal test run:
//
//	CONDUCTOR_SCALE=100000 nice -n 10 go test -run '^TestScale$' -timeout 2h -v .
//
// The generated database is cached in os.TempDir() (see scaleDBPath) and
// reused while its games are recent enough for no turn timer to fall due.

// scaleServers is the number of servers the games are spread over.
const scaleServers = 100

// scaleIDBase starts the made-up snowflakes of the generated database.
const scaleIDBase = 1_200_000_000_000_000_000

func TestScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("CONDUCTOR_SCALE"))
	if n <= 0 {
		t.Skip("set CONDUCTOR_SCALE to the number of live games, e.g. CONDUCTOR_SCALE=100000 (see docs/scale.md)")
	}
	if n%(scaleServers*10) != 0 {
		t.Fatalf("CONDUCTOR_SCALE=%d: use a multiple of %d", n, scaleServers*10)
	}
	idle := time.Minute
	if v := os.Getenv("CONDUCTOR_SCALE_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatal(err)
		}
		idle = d
	}
	cached := scaleDBPath(n)
	if err := ensureScaleDB(t, cached, n); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(cached)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("database: %s, %d games, %d bytes, %.0f bytes a game", cached, n, info.Size(), float64(info.Size())/float64(n))

	// The run works on a copy: moves change the games.
	dir := t.TempDir()
	db := filepath.Join(dir, "conductor.db")
	if err := copyFile(cached, db); err != nil {
		t.Fatal(err)
	}
	srv := fakediscord.New(t, fakediscord.Options{HeartbeatInterval: 41250 * time.Millisecond, WaitTimeout: 2 * time.Minute})
	w := adoptServer(t, srv, db, n)
	// CONDUCTOR_SCALE_POSTGRES=1: the same games, copied into PostgreSQL
	// (conductor migrate --to), served from there.
	if os.Getenv("CONDUCTOR_SCALE_POSTGRES") != "" {
		dsn := pgtest.Database(t)
		begin := time.Now()
		var out, errs strings.Builder
		if code := realMain([]string{"migrate", "--db", db, "--to", dsn}, nil, &out, &errs); code != 0 {
			t.Fatalf("migrate --to: exit %d: %s", code, errs.String())
		}
		t.Logf("copied into PostgreSQL in %v", time.Since(begin).Round(time.Second))
		db = dsn
	}

	// The bot: this test binary again, as `conductor run`.
	cmd := exec.Command(os.Args[0], "-test.run=^TestScaleChild$")
	cmd.Env = append(os.Environ(), "CONDUCTOR_SCALE_CHILD=1", "DISCORD_TOKEN=fake-bot-token", "DISCORD_API_URL="+srv.BaseURL(),
		"CONDUCTOR_DB="+db, "DISCORD_GUILD_ID="+w.guild, "LOG_LEVEL=warn", "CONDUCTOR_HTTP=")
	logs, err := os.Create(filepath.Join(dir, "bot.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	cmd.Stdout, cmd.Stderr = logs, logs
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	pid := cmd.Process.Pid
	if _, err := srv.WaitReady(0); err != nil {
		t.Fatal(err)
	}
	ready := time.Since(begin)
	if err := srv.WaitFor("the commands", func() bool { return len(srv.Commands(w.guild)) > 0 }); err != nil {
		t.Fatal(err)
	}
	registered := time.Since(begin)
	// The first interaction: one that comes too early may be dropped (a
	// bot drops what it cannot answer within Discord's three seconds), so
	// another follows until one is answered.
	first := w.games[0]
	for try := 0; ; try++ {
		if _, _, err := answer(srv, 5*time.Second, first.user, first.channel, "draw", fakediscord.StringOption("card", "deck")); err == nil {
			break
		} else if try == 60 {
			t.Fatalf("no interaction answered after the start: %v\n%s", err, tail(logs.Name()))
		}
	}
	firstAnswer := time.Since(begin)
	settled := settle(t, pid)
	rssStart := rssKB(t, pid)

	// Touch 1% of the games: a /draw by the player to move in each.
	var draws []time.Duration
	failed, unanswered := 0, 0
	cpuDraws := cpuTime(t, pid)
	for _, g := range w.games[1:] {
		m, took, err := answer(srv, 30*time.Second, g.user, g.channel, "draw", fakediscord.StringOption("card", "deck"))
		if err != nil {
			unanswered++
			draws = append(draws, took)
			continue
		}
		if !strings.Contains(m.Content, "You drew") {
			failed++
			if failed < 5 {
				t.Logf("/draw in %s answered %q", g.channel, m.Content)
			}
		}
		draws = append(draws, took)
	}
	cpuDraws = cpuTime(t, pid) - cpuDraws
	settle(t, pid)
	rssTouched := rssKB(t, pid)

	// /board where there is no game: a parent channel, by a member seated
	// in some of its threads.
	var boards []time.Duration
	cpuBoards := cpuTime(t, pid)
	for i := range 500 {
		p := w.parents[i%len(w.parents)]
		_, took, err := answer(srv, 30*time.Second, w.games[i%len(w.games)].user, p, "board")
		if err != nil {
			unanswered++
		}
		boards = append(boards, took)
	}
	cpuBoards = cpuTime(t, pid) - cpuBoards

	time.Sleep(5 * time.Second)
	cpu0 := cpuTime(t, pid)
	time.Sleep(idle)
	cpuIdle := cpuTime(t, pid) - cpu0

	stopAt := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	stopped = true
	if err != nil {
		t.Errorf("the bot ended with %v:\n%s", err, tail(logs.Name()))
	}
	t.Logf("games %d, touched %d (/draw refused %d; %d requests not answered within 30 s)", n, len(w.games), failed, unanswered)
	t.Logf("first answer %v after the start (gateway ready at %v, commands registered at %v); busy until %v after the start",
		firstAnswer.Round(time.Millisecond), ready.Round(time.Millisecond), registered.Round(time.Millisecond), settled.Sub(begin).Round(100*time.Millisecond))
	t.Logf("resident memory after start %.1f MB, after touching %d games %.1f MB (goal %.1f MB)",
		float64(rssStart)/1024, len(w.games), float64(rssTouched)/1024, 150+float64(len(w.games))*64/1024)
	t.Logf("/draw p50 %v p99 %v (until the answer shows); the bot's CPU %.2f ms a /draw", quantile(draws, 0.5), quantile(draws, 0.99),
		float64(cpuDraws.Microseconds())/1000/float64(len(draws)))
	t.Logf("/board where no game is p50 %v p99 %v; the bot's CPU %.2f ms a /board", quantile(boards, 0.5), quantile(boards, 0.99),
		float64(cpuBoards.Microseconds())/1000/float64(len(boards)))
	if loads, err := os.ReadFile("/proc/loadavg"); err == nil {
		t.Logf("machine load (1, 5, 15 minutes): %s", strings.Join(strings.Fields(string(loads))[:3], " "))
	}
	t.Logf("CPU over %v idle: %v (%.2f ms a minute)", idle, cpuIdle, float64(cpuIdle.Microseconds())/1000/idle.Minutes())
	t.Logf("stop took %v", time.Since(stopAt).Round(time.Millisecond))
	t.Logf("bytes a game on disk: %.0f", float64(info.Size())/float64(n))
}

// TestScaleChild is the bot of TestScale, run in a process of its own.
func TestScaleChild(t *testing.T) {
	if os.Getenv("CONDUCTOR_SCALE_CHILD") == "" {
		t.Skip("run by TestScale")
	}
	os.Exit(realMain([]string{"run"}, os.Stdin, os.Stdout, os.Stderr))
}

// scaleDBPath is where the generated database of n games is cached, per
// schema version.
func scaleDBPath(n int) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("conductor-scale-%d-schema%d.db", n, store.CurrentSchema))
}

// scaleFresh is how long a generated database serves: its last moves are up
// to two hours old and its turn timers a week, so no reminder falls due
// (a third of a week) while it is reused.
const scaleFresh = 48 * time.Hour

// template is a game played to the middle: the moves of a whole table.
type template struct {
	board   string
	variant string
	players int
	seed    uint64
	moves   []engine.NotatedMove
	current int // the seat to play after the moves
}

// ensureScaleDB generates the database unless a fresh one is cached.
func ensureScaleDB(t *testing.T, path string, n int) error {
	if info, err := os.Stat(path); err == nil && time.Since(info.ModTime()) < scaleFresh {
		return nil
	}
	begin := time.Now()
	tmp := path + ".tmp"
	os.Remove(tmp)
	st, err := store.Open(tmp, &store.Options{NoSync: true})
	if err != nil {
		return err
	}
	templates := makeTemplates(t, 256)
	rng := rand.New(rand.NewPCG(7, 7))
	now := time.Now().UTC()
	perServer := n / scaleServers
	perParent := perServer / 10
	interaction := uint64(scaleIDBase + 900_000_000_000_000)
	for i := range n {
		server, parent := i/perServer, i/perParent
		tpl := &templates[rng.IntN(len(templates))]
		rec := &store.GameRecord{
			Channel: strconv.Itoa(scaleIDBase + 1_000_000 + i), Guild: strconv.Itoa(scaleIDBase + server),
			Map: tpl.board, Variant: tpl.variant, Seed: tpl.seed, Rules: engine.LatestRevision, Status: store.StatusPlaying,
			Options: map[string]string{"locale": "en", "turn_timer": "10080", "parent": strconv.Itoa(scaleIDBase + 100_000 + parent)},
		}
		members := rng.Perm(200)[:tpl.players]
		for s, m := range members {
			rec.Seats = append(rec.Seats, store.Seat{UserID: scaleMember(server, m), Name: fmt.Sprint("member ", m), Color: []string{"red", "blue", "green", "yellow", "black"}[s]})
		}
		rec.Host = rec.Seats[0].UserID
		at := now.Add(-time.Duration(rng.Int64N(int64(2 * time.Hour))))
		rec.Log = make([]store.LogEntry, len(tpl.moves))
		for k := len(tpl.moves) - 1; k >= 0; k-- {
			interaction++
			rec.Log[k] = store.LogEntry{Seat: tpl.moves[k].Seat, Action: tpl.moves[k].Action, At: at, Interaction: strconv.FormatUint(interaction, 10)}
			at = at.Add(-time.Duration(10+rng.IntN(1800)) * time.Second)
		}
		rec.Created = at
		if err := st.Put(rec); err != nil {
			return err
		}
		if (i+1)%10000 == 0 {
			t.Logf("generated %d games in %v", i+1, time.Since(begin).Round(time.Second))
		}
	}
	// Each game is then loaded once by the service, as it would have been
	// when it was played: that stores its deadline and its snapshot.
	svc := commands.New(commands.Config{Catalog: data.Embedded(), Store: st, Renderer: imaging.NewRenderer(), Poster: nopPoster{}})
	for i := range n {
		ch := strconv.Itoa(scaleIDBase + 1_000_000 + i)
		svc.Handle(context.Background(), &commands.Request{Type: commands.CommandRequest, ID: "warm" + ch, Channel: ch, Name: "score"}, &commands.Recorder{})
		if (i+1)%10000 == 0 {
			t.Logf("loaded %d games in %v", i+1, time.Since(begin).Round(time.Second))
		}
	}
	svc.Close()
	if err := st.Close(); err != nil {
		return err
	}
	t.Logf("generated %d games in %v", n, time.Since(begin).Round(time.Second))
	return os.Rename(tmp, path)
}

type nopPoster struct{}

func (nopPoster) Post(context.Context, string, commands.Message) (string, error) { return "1", nil }
func (nopPoster) DM(context.Context, string, commands.Message) error             { return nil }

func scaleMember(server, m int) string {
	return strconv.Itoa(scaleIDBase + 10_000_000 + server*1000 + m)
}

// makeTemplates plays k games with random legal moves, leaning towards
// claims as people play, each to a point between 100 and 170 moves where a
// player is to start a turn.
func makeTemplates(t *testing.T, k int) []template {
	cat := data.Embedded()
	rng := rand.New(rand.NewPCG(11, 13))
	var out []template
	var buf []engine.Action
	for seed := uint64(1); len(out) < k; seed++ {
		board, variant := "europe", ""
		switch r := rng.IntN(10); {
		case r < 3:
			board = "usa"
		case r < 4:
			board = "marklin"
		}
		b, err := cat.Board(board)
		if err != nil {
			t.Fatal(err)
		}
		players := 2 + rng.IntN(4)
		g, err := engine.New(engine.Config{Board: b, Variant: variant, Players: players, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		target := 100 + rng.IntN(71)
		var moves []engine.NotatedMove
		for len(moves) < target || g.Phase() != engine.PhaseTurn {
			if g.Phase() == engine.PhaseOver || len(moves) > 400 {
				break
			}
			seat := g.ToAct()
			buf = g.LegalActions(seat, buf[:0])
			a := pickMove(rng, g, buf)
			if err := g.Play(seat, a); err != nil {
				t.Fatalf("template %d: %s: %v", seed, engine.FormatAction(b, a), err)
			}
			moves = append(moves, engine.NotatedMove{Seat: seat, Action: engine.FormatAction(b, a)})
		}
		if g.Phase() != engine.PhaseTurn || len(moves) < target {
			continue
		}
		out = append(out, template{board: board, variant: variant, players: players, seed: seed, moves: moves, current: g.Current()})
	}
	return out
}

// pickMove chooses among legal actions roughly as a person would: claims
// often, tickets seldom, the fewest tickets kept, tunnels paid.
func pickMove(rng *rand.Rand, g *engine.Game, legal []engine.Action) engine.Action {
	by := map[engine.ActionKind][]engine.Action{}
	for _, a := range legal {
		by[a.Kind] = append(by[a.Kind], a)
	}
	pick := func(kinds ...engine.ActionKind) (engine.Action, bool) {
		for _, k := range kinds {
			if as := by[k]; len(as) > 0 {
				return as[rng.IntN(len(as))], true
			}
		}
		return engine.Action{}, false
	}
	switch g.Phase() {
	case engine.PhaseSetup, engine.PhaseKeepTickets:
		if a, ok := pick(engine.ActDrawTickets); ok {
			return a
		}
		// Keep the fewest tickets allowed.
		best := legal[0]
		for _, a := range legal {
			if a.Kind == engine.ActKeep && popcount(a.Keep) < popcount(best.Keep) {
				best = a
			}
		}
		return best
	case engine.PhaseTunnel:
		if a, ok := pick(engine.ActTunnelPay, engine.ActTunnelCancel); ok {
			return a
		}
	}
	r := rng.IntN(100)
	switch {
	case r < 45:
		if a, ok := pick(engine.ActClaim); ok {
			return a
		}
	case r < 48:
		if a, ok := pick(engine.ActDrawTickets, engine.ActStation, engine.ActMovePassenger); ok {
			return a
		}
	}
	if a, ok := pick(engine.ActDraw); ok {
		return a
	}
	return legal[rng.IntN(len(legal))]
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// scaleWorld is what the fake Discord knows of the database: one server
// whose games are the ones the test touches (1% of them).
type scaleWorld struct {
	guild   string
	parents []string
	games   []touched
}

type touched struct{ channel, user string }

// adoptServer gives the fake Discord the first server of the database: its
// channels, threads and members get the fake's ids, and the database's
// records of that server are moved to those ids.
func adoptServer(t *testing.T, srv *fakediscord.Server, db string, n int) *scaleWorld {
	st, err := store.Open(db, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat := data.Embedded()
	old := strconv.Itoa(scaleIDBase)
	recs, err := st.ListGuild(old)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n/scaleServers {
		t.Fatalf("%d games in the first server, want %d", len(recs), n/scaleServers)
	}
	g := srv.CreateGuild("Scale")
	w := &scaleWorld{guild: g.ID}
	users := map[string]string{}
	parents := map[string]string{}
	slices.SortFunc(recs, func(a, b *store.GameRecord) int { return strings.Compare(a.Channel, b.Channel) })
	for _, rec := range recs {
		p := rec.Options["parent"]
		if parents[p] == "" {
			parents[p] = srv.CreateTextChannel(g.ID, fmt.Sprint("parent-", len(parents))).ID
			w.parents = append(w.parents, parents[p])
		}
		th := srv.CreateThread(parents[p], "game")
		if err := st.Delete(rec.Channel); err != nil {
			t.Fatal(err)
		}
		rec.Channel, rec.Guild, rec.Options["parent"] = th.ID, g.ID, parents[p]
		for i := range rec.Seats {
			u := rec.Seats[i].UserID
			if users[u] == "" {
				users[u] = srv.CreateUser(rec.Seats[i].Name).ID
				srv.AddMember(g.ID, users[u])
			}
			rec.Seats[i].UserID = users[u]
		}
		rec.Host = rec.Seats[0].UserID
		if err := st.Put(rec); err != nil {
			t.Fatal(err)
		}
		b, err := cat.Board(rec.Map)
		if err != nil {
			t.Fatal(err)
		}
		moves := make([]engine.NotatedMove, len(rec.Log))
		for i, e := range rec.Log {
			moves[i] = engine.NotatedMove{Seat: e.Seat, Action: e.Action}
		}
		eg, err := engine.ReplayNotation(engine.Config{Board: b, Variant: rec.Variant, Players: len(rec.Seats), Seed: rec.Seed, Revision: rec.Rules}, moves, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.games = append(w.games, touched{channel: th.ID, user: rec.Seats[eg.Current()].UserID})
	}
	return w
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// answer runs a command and waits for its answer to show (a deferred
// answer, once edited in): the answer and how long it took.
func answer(srv *fakediscord.Server, timeout time.Duration, user, channel, name string, opts ...fakediscord.CommandOption) (fakediscord.Message, time.Duration, error) {
	begin := time.Now()
	h, err := srv.RunCommand(user, channel, name, opts...)
	if err != nil {
		return fakediscord.Message{}, 0, err
	}
	var m fakediscord.Message
	err = srv.WaitForTimeout(timeout, "the answer of "+h.ID, func() bool {
		var ok bool
		m, ok = h.Original()
		return ok && (m.Content != "" || len(m.Embeds) > 0)
	})
	return m, time.Since(begin), err
}

// settle waits until a process is idle (less than 20 ms of CPU in a
// second), for two minutes at most, and says when.
func settle(t *testing.T, pid int) time.Time {
	end := time.Now().Add(2 * time.Minute)
	last := cpuTime(t, pid)
	for time.Now().Before(end) {
		time.Sleep(time.Second)
		now := cpuTime(t, pid)
		if now-last < 20*time.Millisecond {
			return time.Now().Add(-time.Second)
		}
		last = now
	}
	t.Log("the bot stayed busy for two minutes")
	return time.Now()
}

// rssKB reads a process's resident memory.
func rssKB(t *testing.T, pid int) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			return kb
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// cpuTime reads a process's user and system CPU time.
func cpuTime(t *testing.T, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command name (which may hold spaces).
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))].Round(10 * time.Microsecond)
}

func tail(path string) string {
	raw, _ := os.ReadFile(path)
	if len(raw) > 4000 {
		raw = raw[len(raw)-4000:]
	}
	return string(raw)
}
