package engine

import (
	"testing"

	"conductor/data"
)

// BenchmarkRandomGame plays whole random games (4 players) per edition; the
// goal is at least 1,000 games a second on one core.
func BenchmarkRandomGame(b *testing.B) {
	for _, board := range data.Embedded().Boards() {
		b.Run(board.ID, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := randomGame(board, "", 4, uint64(i), false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
