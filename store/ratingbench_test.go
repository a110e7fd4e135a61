package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"conductor/internal/pgtest"
)

// A server's ratings at scale: 100,000 archived games in one server
// (CONDUCTOR_BENCH_GAMES changes it), on a bbolt file and on PostgreSQL
// (a durable cluster). Run with:
//
//	go test -run '^$' -bench 'Leaderboard|RatedGame' -benchtime 2000x -count 5 ./store/
//
// BenchmarkLeaderboard reads the table's first 10 and the asker's place
// (a random member), as /ttr leaderboard does, and reports the p50 and
// p99 of a read; BenchmarkRatedGame archives a game and folds it in, as
// the end of a game does. The first run logs how long the whole archive
// took to fold from nothing (a new formula's recomputation).

// ratedBenchMembers is how many members the server has: in circles of
// ratedBenchCircle who mostly play together (a server's regulars), so that
// each meets dozens of others, not all of them.
const (
	ratedBenchMembers = 1000
	ratedBenchCircle  = 25
)

var ratedDBs = map[string]string{}

// ratedBenchGame is game k of the benchmark's server: 2 to 5 seats, one
// of them a bot now and then, on one of the three editions, with the
// routes a sheet lists.
func ratedBenchGame(rng *rand.Rand, k int) (*ArchiveEntry, *GameRecord) {
	seats := 2 + rng.IntN(4)
	circle := rng.IntN(ratedBenchMembers / ratedBenchCircle)
	e := &ArchiveEntry{GameID: fmt.Sprintf("%016x", k), Guild: "g", Channel: strconv.Itoa(700_000_000 + k), Parent: strconv.Itoa(600_000_000 + circle%7),
		Map: []string{"usa", "europe", "marklin"}[rng.IntN(3)], Status: StatusFinished,
		Started: base.Add(time.Duration(k) * time.Minute), Finished: base.Add(time.Duration(k)*time.Minute + 50*time.Minute), Moves: 180}
	order := rng.Perm(seats)
	used := map[int]bool{}
	for i := range seats {
		p := PlayerResult{Rank: order[i] + 1, Score: 150 - 10*order[i], TicketsCompleted: 3, TicketsFailed: 1}
		p.Won = p.Rank == 1
		for r := range 12 {
			p.Routes = append(p.Routes, fmt.Sprintf("City %d - City %d", rng.IntN(40), r))
		}
		if i > 0 && rng.IntN(6) == 0 {
			p.Name, p.Bot = "Vera", []string{"easy", "hard"}[rng.IntN(2)]
		} else {
			m := circle*ratedBenchCircle + rng.IntN(ratedBenchCircle)
			if rng.IntN(10) == 0 {
				m = rng.IntN(ratedBenchMembers) // now and then, someone from elsewhere
			}
			for used[m] {
				m = (m + 1) % ratedBenchMembers
			}
			used[m] = true
			p.UserID, p.Name = strconv.Itoa(500_000_000+m), fmt.Sprint("Member ", m)
			p.Hints = rng.IntN(2)
		}
		e.Players = append(e.Players, p)
	}
	// Played in a thread of one of the server's channels: its parent, as
	// the archive keeps it (the season's channel of most games is counted
	// by parent, a handful a server).
	rec := &GameRecord{Channel: e.Channel, Guild: "g", ID: e.GameID, Map: e.Map, Seed: uint64(k), Status: StatusFinished, Created: e.Started, Updated: e.Finished,
		Options: map[string]string{optionParent: e.Parent}}
	for _, p := range e.Players {
		rec.Seats = append(rec.Seats, Seat{UserID: p.UserID, Name: p.Name, Bot: p.Bot})
	}
	return e, rec
}

// ratedDatabase returns the filled database of kind, filling it (and
// folding its ratings) on first use.
func ratedDatabase(b *testing.B, kind string) string {
	b.Helper()
	scaleDBs.Lock()
	defer scaleDBs.Unlock()
	if db := ratedDBs[kind]; db != "" {
		return db
	}
	var db string
	switch kind {
	case "bbolt":
		if scaleDBs.dir == "" {
			dir, err := os.MkdirTemp("", "conductor-scalebench-")
			if err != nil {
				b.Fatal(err)
			}
			scaleDBs.dir = dir
		}
		db = filepath.Join(scaleDBs.dir, "rated.db")
	default:
		if scaleDBs.cluster == nil {
			c, err := pgtest.Start(pgtest.Options{Durable: true, Settings: map[string]string{"shared_buffers": "128MB"}})
			if err != nil {
				pgtest.Unavailable(b, err)
			}
			scaleDBs.cluster = c
		}
		var err error
		if db, err = scaleDBs.cluster.CreateDatabase(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	s, err := Open(db, &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	n := benchGames()
	rng := rand.New(rand.NewPCG(46, 46))
	start := time.Now()
	for from := 0; from < n; from += 2000 {
		var games []*ArchiveEntry
		var recs []*GameRecord
		for k := from; k < min(n, from+2000); k++ {
			e, rec := ratedBenchGame(rng, k)
			games, recs = append(games, e), append(recs, rec)
		}
		if err := fillArchive(s, games, recs); err != nil {
			b.Fatal(err)
		}
	}
	filled := time.Since(start)
	start = time.Now()
	if err := s.FoldRatings("g", formula); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d games archived in %v, their ratings folded from none in %v", kind, n, filled.Round(time.Second), time.Since(start).Round(time.Millisecond))
	ratedDBs[kind] = db
	return db
}

// fillArchive writes archived games in one transaction, as Archive
// would (a pending rating each); on PostgreSQL in one statement.
func fillArchive(s *Store, games []*ArchiveEntry, recs []*GameRecord) error {
	if pb, ok := s.be.(*pgBackend); ok {
		var guilds, finished, ids []string
		var sums, fulls [][]byte
		for i, e := range games {
			sum, _ := json.Marshal(e)
			full, _ := json.Marshal(recs[i])
			guilds, finished, ids = append(guilds, e.Guild), append(finished, e.Finished.UTC().Format(archiveTimeLayout)), append(ids, e.GameID)
			sums, fulls = append(sums, sum), append(fulls, full)
		}
		_, err := pb.pool.Exec(context.Background(), `INSERT INTO archive (guild, finished, game_id, summary, game)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[], $5::bytea[])`, guilds, finished, ids, sums, fulls)
		if err != nil {
			return err
		}
		pending := make([]string, len(games))
		for i := range games {
			pending[i] = finished[i] + "/" + ids[i]
		}
		_, err = pb.pool.Exec(context.Background(), `INSERT INTO ratings (guild, kind, key, value)
			SELECT 'g', $1, k, '' FROM unnest($2::text[]) AS k`, ratingKindPending, pending)
		return err
	}
	return s.update(func(t txn) error {
		for i, e := range games {
			key := archiveKey{Guild: e.Guild, Finished: e.Finished.UTC().Format(archiveTimeLayout), ID: e.GameID}
			sum, _ := json.Marshal(e)
			full, _ := json.Marshal(recs[i])
			if err := t.putArchived(key, sum, full); err != nil {
				return err
			}
			if err := t.putRatingRow(e.Guild, ratingKindPending, pendingKey(key), nil, []byte{}); err != nil {
				return err
			}
		}
		return nil
	})
}

// BenchmarkLeaderboard: /ttr leaderboard's read, b.N times, the asker a
// random member.
func BenchmarkLeaderboard(b *testing.B) {
	for _, kind := range []string{"bbolt", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			s, err := Open(ratedDatabase(b, kind), &Options{Timeout: 5 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			rng := rand.New(rand.NewPCG(2, uint64(time.Now().UnixNano())))
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				asker := strconv.Itoa(500_000_000 + rng.IntN(ratedBenchMembers))
				ed := []string{"usa", "europe", "marklin"}[rng.IntN(3)]
				t0 := time.Now()
				lb, err := s.Leaderboard("g", ed, 10, asker, formula)
				lat = append(lat, time.Since(t0))
				if err != nil || len(lb.Top) != 10 || lb.Ranked < 500 {
					b.Fatalf("%+v %v", lb, err)
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(ms(quantileOf(lat, 0.5)), "p50-ms")
			b.ReportMetric(ms(quantileOf(lat, 0.99)), "p99-ms")
		})
	}
}

// BenchmarkRatedGame: a finished game archived and folded in, b.N times:
// what the end of a game adds to the archive's transaction.
func BenchmarkRatedGame(b *testing.B) {
	for _, kind := range []string{"bbolt", "postgres"} {
		b.Run(kind, func(b *testing.B) {
			s, err := Open(ratedDatabase(b, kind), &Options{Timeout: 5 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			rng := rand.New(rand.NewPCG(3, uint64(time.Now().UnixNano())))
			recomputes := ratingRecomputes.Load()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				e, rec := ratedBenchGame(rng, benchGames()+i)
				rec.Channel = fmt.Sprintf("new-%d-%d", time.Now().UnixNano(), i)
				rec.ID = rec.Channel
				rec.Status = StatusPlaying
				if err := s.Put(rec); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if _, err := s.Archive(rec.Channel, ArchiveResult{Finished: time.Now(), Players: e.Players}); err != nil {
					b.Fatal(err)
				}
				if err := s.FoldRatings("g", formula); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			if ratingRecomputes.Load() != recomputes {
				b.Fatal("a new game recomputed the ratings")
			}
			slices.Sort(lat)
			b.ReportMetric(ms(quantileOf(lat, 0.5)), "p50-ms")
			b.ReportMetric(ms(quantileOf(lat, 0.99)), "p99-ms")
		})
	}
}
