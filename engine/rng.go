package engine

import (
	"math/bits"
	"math/rand/v2"
)

// rng is the game's random stream: the standard library's PCG-DXSM
// generator, held by value in the game so that a game copied by value
// (Clone) continues with the same stream, and serialisable as rand.PCG is
// (MarshalBinary). The seeding and the reduction to a range below are the
// engine's own: every stored game depends on them, so they never change.
type rng struct{ pcg rand.PCG }

func newRNG(seed uint64) rng {
	var r rng
	r.pcg.Seed(seed^0x9e3779b97f4a7c15, seed*0xbf58476d1ce4e5b9+1)
	r.next()
	return r
}

func (r *rng) next() uint64 { return r.pcg.Uint64() }

// intn returns a number in [0, n) (n > 0): the high word of a 128-bit
// product, not rand.IntN's rejection method, which draws differently.
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// shuffle permutes s in place (Fisher–Yates).
func shuffle[T any](r *rng, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}
