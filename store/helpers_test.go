package store

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"conductor/internal/pgtest"
)

// The PostgreSQL tests share one throwaway cluster (internal/pgtest), a
// database per test.
func TestMain(m *testing.M) { pgtest.Main(m, removeScaleDatabases) }

// pgTests names the tests running on PostgreSQL: eachBackend's "postgres"
// subtests (and theirs).
var pgTests sync.Map

// eachBackend runs test on a bbolt file and on a PostgreSQL database:
// openTemp and newDB in it open the one or the other. Without PostgreSQL
// on the machine the second skips, saying how to install it.
func eachBackend(t *testing.T, test func(t *testing.T)) {
	t.Helper()
	t.Run("bbolt", test)
	t.Run("postgres", func(t *testing.T) {
		pgTests.Store(t.Name(), true)
		test(t)
	})
}

// onPostgres reports whether t runs on PostgreSQL.
func onPostgres(t testing.TB) bool {
	found := false
	pgTests.Range(func(k, _ any) bool {
		name := k.(string)
		found = t.Name() == name || strings.HasPrefix(t.Name(), name+"/")
		return !found
	})
	return found
}

// newDB names a new empty database for t: a file, or a PostgreSQL
// database's address.
func newDB(t testing.TB) string {
	t.Helper()
	if onPostgres(t) {
		return pgtest.Database(t)
	}
	return filepath.Join(t.TempDir(), "conductor.db")
}

// pgPool is the pool of a store on PostgreSQL, for looking at its rows.
func pgPool(t testing.TB, s *Store) *pgxpool.Pool {
	t.Helper()
	pb, ok := s.be.(*pgBackend)
	if !ok {
		t.Fatalf("%s is not on PostgreSQL", s.Path())
	}
	return pb.pool
}

// pgExec runs SQL on a store's database, for tests that damage or look.
func pgExec(t testing.TB, s *Store, sql string, args ...any) {
	t.Helper()
	if _, err := pgPool(t, s).Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// testTimeout keeps lock failures in tests short.
const testTimeout = 200 * time.Millisecond

// base is a fixed instant so records compare exactly.
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)

// openTemp opens a new store (a file in a temporary directory, or a new
// PostgreSQL database in eachBackend's "postgres" half) with a fake clock
// that advances one second per reading.
func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := newDB(t)
	return openAt(t, path), path
}

func openAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path, &Options{Timeout: testTimeout})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	var tick atomic.Int64
	s.now = func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Second) }
	t.Cleanup(func() { s.Close() })
	return s
}

// sampleGame is a game in channel with every field set and moves log entries.
func sampleGame(channel, guild string, moves int) *GameRecord {
	rec := &GameRecord{
		Channel: channel,
		Guild:   guild,
		ID:      "game-" + channel,
		Map:     "europe",
		Variant: "standard",
		Options: map[string]string{"bonus_tickets": "on", "turn_timer": "5m"},
		Seats: []Seat{
			{UserID: "u1", Name: "Ada", Color: "red"},
			{Name: "Bot 1", Bot: "hard", Color: "blue"},
		},
		Host:     "u1",
		Seed:     0xdeadbeefcafe,
		Created:  base,
		Status:   StatusPlaying,
		Messages: map[string]string{"board": "m-42"},
	}
	for i := 0; i < moves; i++ {
		rec.Log = append(rec.Log, LogEntry{
			Seat:        i % 2,
			Action:      fmt.Sprintf("claim Paris-Brest red %d", i),
			At:          base.Add(time.Duration(i) * time.Minute),
			Interaction: fmt.Sprintf("%s-i%d", channel, i),
		})
	}
	return rec
}

func mustPut(t testing.TB, s *Store, rec *GameRecord) {
	t.Helper()
	if err := s.Put(rec); err != nil {
		t.Fatalf("Put(%s): %v", rec.Channel, err)
	}
}

func mustGet(t testing.TB, s *Store, channel string) *GameRecord {
	t.Helper()
	rec, err := s.Get(channel)
	if err != nil {
		t.Fatalf("Get(%s): %v", channel, err)
	}
	return rec
}

func assertSame(t testing.TB, got, want *GameRecord) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("record differs:\n got  %+v\n want %+v", got, want)
	}
}
