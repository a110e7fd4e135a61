package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/internal/pgtest"
)

// What only PostgreSQL has: its schema's versions, several processes on
// one database (two Stores stand for two processes: each has its own
// connections), and the friendly refusals of what only a file has.

// openPG opens a store on a new PostgreSQL schema; skips without PostgreSQL.
func openPG(t *testing.T) (*Store, string) {
	t.Helper()
	dsn := pgtest.Database(t)
	return openAt(t, dsn), dsn
}

func TestPostgresSchemaIsVersionedInTheDatabase(t *testing.T) {
	s, dsn := openPG(t)
	if v, err := s.SchemaVersion(); err != nil || v != len(pgMigrations) || s.LatestSchema() != v {
		t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, len(pgMigrations))
	}
	if s.Backend() != "postgres" {
		t.Fatalf("Backend = %q", s.Backend())
	}
	var rows int
	pgPool(t, s).QueryRow(context.Background(), "SELECT count(*) FROM conductor_schema").Scan(&rows)
	if rows != len(pgMigrations) {
		t.Fatalf("conductor_schema holds %d rows, want one per migration (%d)", rows, len(pgMigrations))
	}
	if from, to, err := s.Migrate(); err != nil || from != to {
		t.Fatalf("Migrate on a current database = %d, %d, %v", from, to, err)
	}
	// A newer schema is refused, saying what to do.
	pgExec(t, s, "INSERT INTO conductor_schema (version, name) VALUES ($1, 'from the future')", len(pgMigrations)+1)
	if _, err := Open(dsn, &Options{Timeout: testTimeout}); !errors.Is(err, ErrSchemaTooNew) || !strings.Contains(err.Error(), "newer conductor") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

// Processes starting together on an empty database create the schema once.
func TestPostgresConcurrentOpensMigrateOnce(t *testing.T) {
	dsn := pgtest.Database(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(dsn, &Options{Timeout: 5 * time.Second})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s := openAt(t, dsn)
	if v, _ := s.SchemaVersion(); v != len(pgMigrations) {
		t.Fatalf("version %d after concurrent opens", v)
	}
}

// The address's password never appears in what the store says of itself.
func TestPostgresPathHidesThePassword(t *testing.T) {
	for _, dsn := range []string{
		"postgres://bot:s3cret@db.example:5432/conductor?sslmode=require",
		"postgresql://bot@db.example/conductor?password=s3cret",
	} {
		if r := redactDSN(dsn); strings.Contains(r, "s3cret") || !strings.Contains(r, "db.example") {
			t.Errorf("redactDSN(%q) = %q", dsn, r)
		}
	}
	_, err := Open("postgres://bot:s3cret@127.0.0.1:1/nowhere?connect_timeout=1", &Options{Timeout: 500 * time.Millisecond})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "cannot reach PostgreSQL") {
		t.Fatalf("opening an unreachable database: %v", err)
	}
	if !IsPostgres("postgresql://x/y") || !IsPostgres("POSTGRES://x/y") || IsPostgres("/data/postgres.db") {
		t.Fatal("IsPostgres tells files from addresses wrongly")
	}
}

// What only a bbolt file has is refused on PostgreSQL with what to do.
func TestPostgresRefusesFileOnlyOperations(t *testing.T) {
	s, _ := openPG(t)
	mustPut(t, s, sampleGame("c1", "g1", 2))
	check := func(what string, err error, want string) {
		t.Helper()
		if !errors.Is(err, ErrFileOnly) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "postgres@") && strings.Contains(err.Error(), "password") {
			t.Errorf("%s: %v; want ErrFileOnly saying %q", what, err, want)
		}
	}
	_, err := s.Backup(&strings.Builder{})
	check("Backup", err, "pg_dump")
	check("BackupFile", s.BackupFile(filepath.Join(t.TempDir(), "copy.db")), "pg_dump")
	_, err = s.Export(Selection{Guild: "g1", Channels: []string{"c1"}})
	check("Export", err, "changing the shard count is a restart")
	check("Import", s.Import(&Bundle{}), "no game moves")
	_, err = s.Inventory()
	check("Inventory", err, "no game moves")
	_, _, err = s.Shard()
	check("Shard", err, "every shard shares the database")
	check("SetShard", s.SetShard(ShardIdentity{ID: 0, Count: 1}), "every shard shares the database")
	if _, err := s.Get("c1"); err != nil {
		t.Fatalf("the game after the refusals: %v", err)
	}
}

// Two processes moving in the same games: every move applies once, none is
// lost, and a retried interaction is refused whichever process sees it.
func TestPostgresTwoProcessesShareGames(t *testing.T) {
	a, dsn := openPG(t)
	b := openAt(t, dsn)
	const games, each = 3, 20
	for g := range games {
		mustPut(t, a, sampleGame(fmt.Sprint("c", g), "g1", 0))
	}
	var mu sync.Mutex
	applied := map[string]int{}
	// A round at a time (a retry comes within seconds: see
	// TestConcurrentAppends), four workers, two per process, each
	// interaction sent by one worker of each process.
	for i := range each {
		var wg sync.WaitGroup
		for w, s := range []*Store{a, b, a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for g := range games {
					ch := fmt.Sprint("c", g)
					id := fmt.Sprint("i", i, "-", w/2)
					_, err := s.AppendActionWithPosts(ch, LogEntry{Seat: w, Action: fmt.Sprint("a", w, "-", i), Interaction: id},
						[]OutboxEntry{{Payload: json.RawMessage(`{}`)}})
					switch {
					case err == nil:
						mu.Lock()
						applied[ch+"/"+id]++
						mu.Unlock()
					case !errors.Is(err, ErrDuplicate):
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
	}
	for g := range games {
		ch := fmt.Sprint("c", g)
		log := mustGet(t, b, ch).Log
		if len(log) != 2*each { // two interactions a round, each once
			t.Errorf("%s: %d moves, want %d", ch, len(log), 2*each)
		}
		posts, _ := a.Outbox(ch)
		if len(posts) != len(log) {
			t.Errorf("%s: %d posts for %d moves", ch, len(posts), len(log))
		}
	}
	for k, n := range applied {
		if n != 1 {
			t.Errorf("%s applied %d times", k, n)
		}
	}
}

// Two processes creating a game in one empty channel at once: one game
// ends there, whole (its log is its own), the other Put replaced it or
// came first.
func TestPostgresConcurrentPutsOfOneChannel(t *testing.T) {
	a, dsn := openPG(t)
	b := openAt(t, dsn)
	for round := range 10 {
		ch := fmt.Sprint("new", round)
		var wg sync.WaitGroup
		for i, s := range []*Store{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := sampleGame(ch, "g1", 3+40*i)
				rec.ID = fmt.Sprint("game", i)
				if err := s.Put(rec); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		got := mustGet(t, a, ch)
		if want := map[string]int{"game0": 3, "game1": 43}[got.ID]; len(got.Log) != want {
			t.Fatalf("round %d: %s holds %s with %d moves, want %d", round, ch, got.ID, len(got.Log), want)
		}
	}
}

// Within a queue, entries become visible in their sequence's order even
// when many transactions of two processes add to it at once: a sender
// never delivers an entry before an earlier one it has not seen. The
// transactions are slowed between taking their sequences and storing
// their entries, where one without the queue's lock would let a later
// sequence commit first.
func TestPostgresOutboxOrderPerQueue(t *testing.T) {
	a, dsn := openPG(t)
	b := openAt(t, dsn)
	afterSeqs = func() { time.Sleep(time.Duration(rand.IntN(5)) * time.Millisecond) }
	defer func() { afterSeqs = nil }()
	const writers, each = 4, 15
	var wg sync.WaitGroup
	for w, s := range []*Store{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				p := OutboxEntry{Queue: "dm:u1", Payload: json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))}
				if err := s.Enqueue(fmt.Sprint("c", w), p); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var last uint64
	next := map[int]int{}
	delivered := 0
	var bad string // the first disorder seen; the writers finish first
	for finished := false; !finished && bad == ""; {
		select {
		case <-done:
			finished = true
		default:
		}
		posts, err := b.Outbox("dm:u1")
		if err != nil {
			bad = err.Error()
			break
		}
		for _, p := range posts {
			var v struct{ W, I int }
			json.Unmarshal(p.Payload, &v)
			if p.Seq <= last {
				bad = fmt.Sprintf("entry %d became visible after %d was delivered", p.Seq, last)
				break
			}
			if v.I != next[v.W] {
				bad = fmt.Sprintf("writer %d's entry %d before its entry %d", v.W, v.I, next[v.W])
				break
			}
			last = p.Seq
			next[v.W]++
			if err := a.Delivered("dm:u1", p.Seq); err != nil {
				bad = err.Error()
				break
			}
			delivered++
		}
	}
	<-done
	if bad != "" {
		t.Fatal(bad)
	}
	if delivered != writers*each {
		t.Fatalf("delivered %d of %d", delivered, writers*each)
	}
}

// A database opened Exclusive (the bot's) is one process's, as a file is:
// a second such opener waits, then is refused saying what to do; once the
// first closes, it opens.
func TestPostgresExclusiveOpen(t *testing.T) {
	dsn := pgtest.Database(t)
	first, err := Open(dsn, &Options{Exclusive: true, Timeout: testTimeout})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := Open(dsn, &Options{Exclusive: true, Timeout: 300 * time.Millisecond}); !errors.Is(err, ErrLocked) ||
		!strings.Contains(err.Error(), "another conductor is serving") || time.Since(start) < 300*time.Millisecond {
		t.Fatalf("a second exclusive opener: %v after %v", err, time.Since(start))
	}
	// Tools (not Exclusive) still open it beside the bot.
	tool := openAt(t, dsn)
	mustPut(t, tool, sampleGame("c1", "g1", 1))
	first.Close()
	second, err := Open(dsn, &Options{Exclusive: true, Timeout: testTimeout})
	if err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
	second.Close()
}

// A move costs three round trips to PostgreSQL whatever it writes, and
// loading a game one: what a database on another machine makes them cost.
func TestPostgresRoundTrips(t *testing.T) {
	s, _ := openPG(t)
	mustPut(t, s, sampleGame("c1", "g1", 40))
	count := func(what string, want int64, op func() error) {
		t.Helper()
		before := pgRoundTrips.Load()
		if err := op(); err != nil {
			t.Fatal(err)
		}
		if got := pgRoundTrips.Load() - before; got != want {
			t.Errorf("%s: %d round trips, want %d", what, got, want)
		}
	}
	count("a move with two posts, a deadline and a snapshot", 3, func() error {
		_, err := s.Commit("c1", MoveCommit{Entry: LogEntry{Action: "pass", Interaction: "x"},
			Posts:  []OutboxEntry{{Payload: json.RawMessage(`{}`)}, {Queue: "dm:u1", Payload: json.RawMessage(`{}`)}},
			SetDue: true, Due: &Deadline{At: base, Kind: "turn"}, Snapshot: &Snapshot{Moves: 41, Data: []byte("s")}})
		return err
	})
	count("loading a game", 1, func() error { _, err := s.Load("c1"); return err })
	count("reading a game", 1, func() error { _, err := s.Get("c1"); return err })
	count("a queue's posts", 1, func() error { _, err := s.Outbox("c1"); return err })
	count("a deadline and a reminder", 3, func() error {
		return s.SetDue("c1", &Deadline{At: base.Add(time.Hour), Kind: "turn"}, OutboxEntry{Payload: json.RawMessage(`{}`)})
	})
}
