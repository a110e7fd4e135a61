package store

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
)

func benchStore(b *testing.B, noSync bool) *Store {
	b.Helper()
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"), &Options{Timeout: testTimeout, NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkAppendAction commits one move per op. "durable" is the default
// (fsync per commit); "nosync" shows what the fsync costs; "parallel" has
// many games moving at once, each commit still synced on its own.
func BenchmarkAppendAction(b *testing.B) {
	for _, mode := range []struct {
		name     string
		noSync   bool
		parallel bool
	}{{"durable", false, false}, {"nosync", true, false}, {"durable-parallel", false, true}} {
		b.Run(mode.name, func(b *testing.B) {
			s := benchStore(b, mode.noSync)
			if !mode.parallel {
				mustPut(b, s, sampleGame("c1", "g1", 0))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					entry := LogEntry{Seat: i % 4, Action: "claim Denver-Omaha red", Interaction: strconv.Itoa(i)}
					if _, err := s.AppendAction("c1", entry); err != nil {
						b.Fatal(err)
					}
				}
				return
			}
			// Four goroutines per CPU, each moving in its own game.
			const perCPU = 4
			var games atomic.Int32
			b.SetParallelism(perCPU)
			for c := 0; c < perCPU*runtime.GOMAXPROCS(0); c++ {
				mustPut(b, s, sampleGame(fmt.Sprint("c", c), "g1", 0))
			}
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				channel := fmt.Sprint("c", games.Add(1)-1)
				for i := 0; pb.Next(); i++ {
					entry := LogEntry{Seat: i % 4, Action: "claim Denver-Omaha red", Interaction: strconv.Itoa(i)}
					if _, err := s.AppendAction(channel, entry); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkGet reads a game with a 300-entry log, as on every move when the
// engine state is rebuilt from the store.
func BenchmarkGet(b *testing.B) {
	s := benchStore(b, false)
	mustPut(b, s, sampleGame("c1", "g1", 300))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec, err := s.Get("c1")
		if err != nil || len(rec.Log) != 300 {
			b.Fatal(len(rec.Log), err)
		}
	}
}
