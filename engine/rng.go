package engine

import "math/bits"

// rng is a PCG-DXSM generator whose whole state lives in the game, so a game
// copied by value (Clone) continues with the same random stream.
type rng struct{ hi, lo uint64 }

func newRNG(seed uint64) rng {
	r := rng{hi: seed ^ 0x9e3779b97f4a7c15, lo: seed*0xbf58476d1ce4e5b9 + 1}
	r.next()
	return r
}

const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
)

func (r *rng) next() uint64 {
	hi, lo := bits.Mul64(r.lo, pcgMulLo)
	hi += r.hi*pcgMulLo + r.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	r.lo, r.hi = lo, hi
	// DXSM output function.
	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> (64 - 16)
	hi *= lo | 1
	return hi
}

// intn returns a number in [0, n) (n > 0).
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
