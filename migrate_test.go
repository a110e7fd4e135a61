package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/pgtest"
	"conductor/ops"
	"conductor/store"
)

// The PostgreSQL tests of this package share one throwaway cluster.
func TestMain(m *testing.M) { pgtest.Main(m) }

// playedGame is a game in channel with moves random legal moves, as
// stored by the bot.
func playedGame(t *testing.T, channel, guild string, seed uint64, moves int) *store.GameRecord {
	t.Helper()
	b, err := data.Embedded().Board("usa")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(engine.Config{Board: b, Players: 3, Seed: seed, Revision: engine.LatestRevision})
	if err != nil {
		t.Fatal(err)
	}
	rec := &store.GameRecord{Channel: channel, Guild: guild, Map: "usa", Seed: seed, Rules: engine.LatestRevision,
		Status: store.StatusPlaying, Created: time.Now().UTC().Truncate(time.Second)}
	for s := range 3 {
		rec.Seats = append(rec.Seats, store.Seat{UserID: fmt.Sprint("u", s), Name: fmt.Sprint("P", s)})
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var buf []engine.Action
	for i := 0; i < moves && g.Phase() != engine.PhaseOver; i++ {
		seat := g.ToAct()
		buf = g.LegalActions(seat, buf[:0])
		a := buf[rng.IntN(len(buf))]
		if err := g.Play(seat, a); err != nil {
			t.Fatal(err)
		}
		rec.Log = append(rec.Log, store.LogEntry{Seat: seat, Action: engine.FormatAction(b, a),
			At: rec.Created.Add(time.Duration(i) * time.Minute), Interaction: fmt.Sprint(seed*1000 + uint64(i))})
	}
	return rec
}

// conductor migrate --to copies a file into PostgreSQL and checks it:
// every game replays there; a game the file already held broken is
// reported, not refused; the bot refuses the database until the copy is
// finished, and the command refuses to copy over a finished copy.
func TestMigrateToPostgres(t *testing.T) {
	dsn := pgtest.Database(t)
	file := filepath.Join(t.TempDir(), "conductor.db")
	st, err := store.Open(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if err := st.Put(playedGame(t, fmt.Sprint("c", i), fmt.Sprint("g", i%3), uint64(i+1), 20+7*i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Archive("c11", store.ArchiveResult{Status: store.StatusAbandoned}); err != nil {
		t.Fatal(err)
	}
	broken := playedGame(t, "c99", "g0", 99, 30)
	broken.Log[20].Action = "claim nowhere"
	if err := st.Put(broken); err != nil {
		t.Fatal(err)
	}
	// While a bot holds the file, the command says to stop it.
	var o, e bytes.Buffer
	if code := realMain([]string{"migrate", "--db", file, "--to", dsn}, nil, &o, &e); code != 1 || !strings.Contains(e.String(), "stop the bot first") {
		t.Fatalf("with the file in use: exit %d: %s", code, e.String())
	}
	st.Close()

	o.Reset()
	e.Reset()
	if code := realMain([]string{"migrate", "--db", file, "--to", dsn}, nil, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, o.String(), e.String())
	}
	for _, want := range []string{"12 live games", "1 archived games", "checked", "channel c99", "do not replay", "keep " + file + " as a backup"} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("the output does not say %q:\n%s", want, o.String())
		}
	}
	pg, err := store.Open(dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := pg.Get("c10")
	if err != nil || len(rec.Log) != 90 {
		t.Fatalf("a game in PostgreSQL: %v, %v", rec, err)
	}
	if err := ops.CheckCopy(pg); err != nil {
		t.Fatalf("the bot refuses the finished copy: %v", err)
	}
	pg.Close()
	o.Reset()
	e.Reset()
	if code := realMain([]string{"migrate", "--db", file, "--to", dsn}, nil, &o, &e); code != 1 || !strings.Contains(e.String(), "already holds a complete copy") {
		t.Fatalf("migrating again over a finished copy: exit %d: %s", code, e.String())
	}
}

// The bot refuses a database whose copy has not finished, saying to run
// the copy again.
func TestServeRefusesAnUnfinishedCopy(t *testing.T) {
	dsn := pgtest.Database(t)
	file := filepath.Join(t.TempDir(), "conductor.db")
	st, err := store.Open(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(playedGame(t, "c1", "g1", 1, 10)); err != nil {
		t.Fatal(err)
	}
	pg, err := store.Open(dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CopyTo(pg, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	pg.Close()
	_, err = ops.OpenDatabase(ops.Config{DBPath: dsn, ShardCount: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "has not finished") || !strings.Contains(err.Error(), "run it again") {
		t.Fatalf("serving an unfinished copy: %v", err)
	}
}

// What works on a file only says what to do on PostgreSQL instead.
func TestFileOnlyCommandsOnPostgres(t *testing.T) {
	dsn := "postgres://bot:s3cret@db.example/conductor"
	var o, e bytes.Buffer
	if code := realMain([]string{"backup", "--db", dsn, filepath.Join(t.TempDir(), "x.db")}, nil, &o, &e); code != 1 ||
		!strings.Contains(e.String(), "pg_dump") || strings.Contains(e.String(), "s3cret") {
		t.Fatalf("backup of PostgreSQL: exit %d: %s", code, e.String())
	}
	e.Reset()
	if code := realMain([]string{"reshard", "--from", "1", "--to", "2", dsn, filepath.Join(t.TempDir(), "b.db")}, nil, &o, &e); code != 1 ||
		!strings.Contains(e.String(), "changing the shard count is a restart") || strings.Contains(e.String(), "s3cret") {
		t.Fatalf("reshard with PostgreSQL: exit %d: %s", code, e.String())
	}
	e.Reset()
	if code := realMain([]string{"migrate", "--db", dsn, "--to", dsn}, nil, &o, &e); code != 2 || !strings.Contains(e.String(), "--db is the bbolt file") {
		t.Fatalf("migrate from PostgreSQL: exit %d: %s", code, e.String())
	}
	// A process of a fleet on PostgreSQL runs a range of shards (under a
	// lease, ops/fleet.go); it must know the count the others use.
	if cfg, err := ops.ConfigFromEnv(func(k string) string {
		return map[string]string{"DISCORD_TOKEN": "t", "CONDUCTOR_DB": dsn, "CONDUCTOR_SHARD_COUNT": "4", "CONDUCTOR_SHARDS": "2-3"}[k]
	}, nil); err != nil || cfg.Shards == nil || cfg.Shards.From != 2 || cfg.Shards.To != 3 {
		t.Fatalf("a range of shards on PostgreSQL: %+v %v", cfg.Shards, err)
	}
	if _, err := ops.ConfigFromEnv(func(k string) string {
		return map[string]string{"DISCORD_TOKEN": "t", "CONDUCTOR_DB": dsn, "CONDUCTOR_SHARDS": "2-3"}[k]
	}, nil); err == nil || !strings.Contains(err.Error(), "set CONDUCTOR_SHARD_COUNT") {
		t.Fatalf("a range without the count on PostgreSQL: %v", err)
	}
}
