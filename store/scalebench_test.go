package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"conductor/internal/pgtest"
)

// The store at fleet scale: a database of many live games (100,000 by
// default; CONDUCTOR_BENCH_GAMES changes it), each of 150 moves, on a
// bbolt file and on PostgreSQL (a durable cluster of its own: fsync and
// synchronous commits on). The databases are filled once per test binary
// and reused by every run (-count). Run with, e.g.:
//
//	go test -run '^$' -bench 'Scale' -benchtime 3000x -count 5 ./store/
//
// BenchmarkScaleMoves commits moves in random games from a few writers at
// once, each move with two posts and a new deadline (as the service
// commits a turn), and reports moves/s and the p50 and p99 of a commit;
// BenchmarkScaleLoad loads random games (record, log, snapshot, parked);
// both report the process's resident memory afterwards (rss-MB) and, on
// PostgreSQL, the server's (server-pss-MB: every postgres process's
// proportional share).

// benchGames is the size of the databases.
func benchGames() int {
	if n, err := strconv.Atoi(os.Getenv("CONDUCTOR_BENCH_GAMES")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// benchMoves is the length of each game's log.
const benchMoves = 150

var scaleDBs struct {
	sync.Mutex
	dir     string
	cluster *pgtest.Cluster
	bolt    string // the file
	pg      string // the address
}

// scaleTemplate is the game every channel of the databases holds, but its
// channel and id: three or four players' moves, timed a minute apart.
func scaleTemplate(channel string) *GameRecord {
	rec := sampleGame(channel, "g", 0)
	rec.Seats = append(rec.Seats, Seat{UserID: "u3", Name: "Cyd"}, Seat{UserID: "u4", Name: "Dee"})
	for i := range benchMoves {
		rec.Log = append(rec.Log, LogEntry{Seat: i % 4, Action: []string{"draw deck 3", "claim Denver-Omaha red", "draw 2 deck", "tickets keep 0 2"}[i%4],
			At: base.Add(time.Duration(i) * time.Minute).Truncate(time.Millisecond), Interaction: strconv.Itoa(1_000_000_000 + i)})
	}
	return rec
}

// benchChannel is game n's channel.
func benchChannel(n int) string { return fmt.Sprintf("%d", 900_000_000+n) }

// scaleDatabase returns the filled database of kind ("bbolt" or
// "postgres"), filling it on first use.
func scaleDatabase(b *testing.B, kind string) string {
	b.Helper()
	scaleDBs.Lock()
	defer scaleDBs.Unlock()
	if scaleDBs.dir == "" {
		dir, err := os.MkdirTemp("", "conductor-scalebench-")
		if err != nil {
			b.Fatal(err)
		}
		scaleDBs.dir = dir
	}
	n := benchGames()
	start := time.Now()
	switch kind {
	case "bbolt":
		if scaleDBs.bolt == "" {
			path := filepath.Join(scaleDBs.dir, "bench.db")
			fillBolt(b, path, n)
			scaleDBs.bolt = path
			fi, _ := os.Stat(path)
			b.Logf("filled %s with %d games in %v: %d bytes a game", path, n, time.Since(start).Round(time.Second), fi.Size()/int64(n))
		}
		return scaleDBs.bolt
	default:
		if scaleDBs.pg == "" {
			c, err := pgtest.Start(pgtest.Options{Durable: true, Settings: map[string]string{"shared_buffers": "128MB"}})
			if err != nil {
				pgtest.Unavailable(b, err)
			}
			scaleDBs.cluster = c
			dsn, err := c.CreateDatabase(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			size := fillPostgres(b, dsn, n)
			scaleDBs.pg = dsn
			b.Logf("filled PostgreSQL with %d games in %v: %d bytes a game", n, time.Since(start).Round(time.Second), size/int64(n))
		}
		return scaleDBs.pg
	}
}

// fillBolt writes n games straight into the file's buckets, 5,000 a
// transaction, without syncing each.
func fillBolt(b *testing.B, path string, n int) {
	s, err := Open(path, &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tpl := scaleTemplate("x")
	var chunks [][]byte
	for i := 0; i*chunkLen < len(tpl.Log); i++ {
		end := min(len(tpl.Log), (i+1)*chunkLen)
		chunks = append(chunks, encodeChunk(tpl.Log[i*chunkLen:end], end-i*chunkLen == chunkLen))
	}
	for from := 0; from < n; from += 5000 {
		err := s.update(func(t txn) error {
			for k := from; k < min(n, from+5000); k++ {
				h := benchHeader(tpl, k)
				if err := t.putHeader(nil, h); err != nil {
					return err
				}
				for i, c := range chunks {
					if err := t.putChunk(h.Channel, i, c); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchHeader is game k's header: its own channel, id, server (one of a
// thousand), parent channel and deadline.
func benchHeader(tpl *GameRecord, k int) *GameRecord {
	h := *tpl
	h.Log = nil
	h.Channel, h.ID, h.Guild = benchChannel(k), fmt.Sprintf("%016x", k), strconv.Itoa(800_000_000+k%1000)
	h.Options = map[string]string{"parent": strconv.Itoa(700_000_000 + k/10), "turn_timer": "1440"}
	h.Due = &Deadline{At: base.Add(time.Duration(k) * time.Second), Kind: "turn"}
	h.Created, h.Updated = base, base
	return &h
}

// fillPostgres stores one game through the store, then copies its rows
// for every other game in SQL, and returns the database's size.
func fillPostgres(b *testing.B, dsn string, n int) int64 {
	s, err := Open(dsn, &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tpl := scaleTemplate("x")
	tpl.Channel = benchChannel(0)
	if err := s.Put(tpl); err != nil {
		b.Fatal(err)
	}
	pool := s.be.(*pgBackend).pool
	ctx := context.Background()
	// Headers as the store writes them, in batches.
	for from := 0; from < n; from += 5000 {
		var channels, guilds, parents, seated []string
		var dues []int64
		var headers [][]byte
		for k := from; k < min(n, from+5000); k++ {
			h := benchHeader(tpl, k)
			data, err := json.Marshal(h)
			if err != nil {
				b.Fatal(err)
			}
			channels, guilds, parents = append(channels, h.Channel), append(guilds, h.Guild), append(parents, h.Options["parent"])
			seated = append(seated, strings.Join(members(h), ","))
			dues, headers = append(dues, dueNanos(h.Due.At)), append(headers, data)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO games (channel, guild, status, parent, members, due_ns, due_kind, header)
			SELECT c, g, 'playing', p, m, d, 'turn', h FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bytea[]) AS x(c, g, p, m, d, h)
			ON CONFLICT (channel) DO UPDATE SET header = EXCLUDED.header`,
			channels, guilds, parents, seated, dues, headers); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `INSERT INTO game_logs (channel, chunk, data)
		SELECT g.channel, l.chunk, l.data FROM games g CROSS JOIN game_logs l
		WHERE l.channel = $1 AND g.channel <> $1`, benchChannel(0)); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "VACUUM ANALYZE"); err != nil {
		b.Fatal(err)
	}
	var size int64
	if err := pool.QueryRow(ctx, "SELECT pg_database_size(current_database())").Scan(&size); err != nil {
		b.Fatal(err)
	}
	return size
}

// BenchmarkScaleMoves: b.N moves from 4 writers, each in a random game.
func BenchmarkScaleMoves(b *testing.B) {
	for _, kind := range []string{"bbolt", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			s, err := Open(scaleDatabase(b, kind), &Options{Timeout: 5 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			const writers = 4
			n := benchGames()
			var next, seq atomic.Int64
			seq.Store(time.Now().UnixNano())
			lat := make([][]time.Duration, writers)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rng := rand.New(rand.NewPCG(uint64(w), uint64(start.UnixNano())))
					for next.Add(1) <= int64(b.N) {
						ch := benchChannel(rng.IntN(n))
						id := strconv.FormatInt(seq.Add(1), 10)
						c := MoveCommit{
							Entry: LogEntry{Seat: w, Action: "claim Denver-Omaha red", Interaction: id},
							Posts: []OutboxEntry{{Kind: "board", Payload: json.RawMessage(`{"content":"the board"}`)},
								{Payload: json.RawMessage(`{"content":"your turn"}`)}},
							SetDue: true, Due: &Deadline{At: time.Now().Add(24 * time.Hour), Kind: "turn"},
						}
						t0 := time.Now()
						if _, err := s.Commit(ch, c); err != nil {
							b.Error(err)
							return
						}
						lat[w] = append(lat[w], time.Since(t0))
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			all := slices.Concat(lat...)
			slices.Sort(all)
			b.ReportMetric(float64(len(all))/elapsed.Seconds(), "moves/s")
			b.ReportMetric(ms(quantileOf(all, 0.5)), "p50-ms")
			b.ReportMetric(ms(quantileOf(all, 0.99)), "p99-ms")
			reportMemory(b, kind)
		})
	}
}

// BenchmarkScaleLoad: loading random games, as the service does on the
// first touch of a game at rest.
func BenchmarkScaleLoad(b *testing.B) {
	for _, kind := range []string{"bbolt", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			s, err := Open(scaleDatabase(b, kind), &Options{Timeout: 5 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			n := benchGames()
			rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				l, err := s.Load(benchChannel(rng.IntN(n)))
				if err != nil || len(l.Record.Log) < benchMoves {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportMemory(b, kind)
		})
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func quantileOf(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// reportMemory reports this process's resident memory and, on
// PostgreSQL, the server's (the sum of its processes' shares).
func reportMemory(b *testing.B, kind string) {
	runtime.GC()
	b.ReportMetric(float64(rssKB(os.Getpid()))/1024, "rss-MB")
	if kind != "postgres" || scaleDBs.cluster == nil {
		return
	}
	total := 0
	for _, pid := range scaleDBs.cluster.PIDs() {
		total += pssKB(pid)
	}
	b.ReportMetric(float64(total)/1024, "server-pss-MB")
}

// pssKB reads a process's proportional set size: its resident memory with
// the pages it shares (PostgreSQL's shared buffers) divided among the
// processes sharing them, so that a sum over processes counts each once.
func pssKB(pid int) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "Pss:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}

// rssKB reads a process's resident set size (Linux; 0 elsewhere).
func rssKB(pid int) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	return 0
}

// removeScaleDatabases removes the file once the tests are done (the
// cluster is pgtest's).
func removeScaleDatabases() {
	if scaleDBs.dir != "" {
		os.RemoveAll(scaleDBs.dir)
	}
}
