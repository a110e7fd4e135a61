package present

import "testing"

// BenchmarkT is the cost of one message: a plain one with two
// placeholders, and one with a count.
func BenchmarkT(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			T("fr", "ev.claim", "player", "**Alice**", "route", "Paris – Wien (gris 3)", "cards", "3× ⬜ blanc", "points", 4)
		}
	})
	b.Run("count", func(b *testing.B) {
		for b.Loop() {
			T("fr", "ev.tickets_kept", "player", "**Alice**", "n", 2)
		}
	})
}
