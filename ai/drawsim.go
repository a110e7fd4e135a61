package ai

import (
	"math/rand/v2"
	"slices"

	"conductor/data"
	"conductor/engine"
)

// drawSim estimates how many turns of drawing train cards a set of tracks
// still needs, by playing out the draws: each pick takes the face-up card
// that helps most, or a blind card, from the deck's estimated make-up.
// Needs concentrated on one colour take far longer than the same number
// of cards spread over several, which a count of cards cannot see.
type drawSim struct {
	want     [engine.NumCards]int // colour cards the coloured tracks need
	grays    []int                // lengths (less ferry locomotives) of gray tracks, longest first
	locoNeed int
	odds     [engine.NumCards]float64
}

// simSamples is the number of playouts averaged.
const simSamples = 24

// maxPicks bounds a playout: beyond it the plan is hopeless anyway.
const maxPicks = 80

func newDrawSim(s *situation, tracks []data.TrackID) *drawSim {
	d := &drawSim{odds: cardOdds(s)}
	for _, t := range tracks {
		tr := &s.b.Tracks[t]
		d.locoNeed += tr.Locomotives
		if tr.Color == data.Gray {
			d.grays = append(d.grays, tr.Length-tr.Locomotives)
			continue
		}
		d.want[engine.ColorCard(tr.Color)] += tr.Length - tr.Locomotives
	}
	slices.Sort(d.grays)
	slices.Reverse(d.grays)
	return d
}

// deficit counts the cards the hand still lacks.
func (d *drawSim) deficit(h *engine.Hand) int {
	short := 0
	var spare [engine.NumCards]int
	for _, col := range data.CardColors {
		c := engine.ColorCard(col)
		if h[c] >= d.want[c] {
			spare[c] = h[c] - d.want[c]
		} else {
			short += d.want[c] - h[c]
		}
	}
	for _, l := range d.grays {
		best := engine.ColorCard(data.Pink)
		for _, col := range data.CardColors {
			if c := engine.ColorCard(col); spare[c] > spare[best] {
				best = c
			}
		}
		if spare[best] >= l {
			spare[best] -= l
		} else {
			short += l - spare[best]
			spare[best] = 0
		}
	}
	locos := h[engine.Locomotive] + h[engine.Locomotive4]
	if locos < d.locoNeed {
		return short + d.locoNeed - locos
	}
	return max(0, short-(locos-d.locoNeed))
}

// after returns the deficit once card c joins hand h, whose deficit is def
// (> 0), without changing h. A card fills at most one missing card, and a
// locomotive or a colour still wanted always fills one: only the other
// cards need the full count.
func (d *drawSim) after(h *engine.Hand, c engine.Card, def int) int {
	switch {
	case c == engine.Locomotive || c == engine.Locomotive4:
		return def - 1
	case c.IsColor() && h[c] < d.want[c]:
		return def - 1
	}
	h[c]++
	nd := d.deficit(h)
	h[c]--
	return nd
}

// turns returns the mean number of drawing turns until hand covers the needs.
func (d *drawSim) turns(hand engine.Hand, faceUp []engine.Card, rng *rand.Rand) float64 {
	if d.deficit(&hand) == 0 {
		return 0
	}
	var cum [engine.NumCards]float64
	acc := 0.0
	for c, p := range d.odds {
		acc += p
		cum[c] = acc
	}
	random := func() engine.Card {
		x := rng.Float64() * acc
		for c, v := range cum {
			if x < v && d.odds[c] > 0 {
				return engine.Card(c)
			}
		}
		return engine.Locomotive
	}
	total := 0
	display := make([]engine.Card, len(faceUp))
	for range simSamples {
		h := hand
		copy(display, faceUp)
		picks := 0
		for def := d.deficit(&h); def > 0 && picks < maxPicks; picks++ {
			bestSlot, bestDef := -1, def
			for i, c := range display {
				if c == engine.NoCard {
					continue
				}
				if nd := d.after(&h, c, def); nd < bestDef {
					bestSlot, bestDef = i, nd
					if nd == def-1 {
						break // no card does better than one fewer
					}
				}
			}
			if bestSlot >= 0 {
				h[display[bestSlot]]++
				display[bestSlot] = random()
				def = bestDef
			} else {
				c := random()
				def = d.after(&h, c, def)
				h[c]++
			}
		}
		total += picks
	}
	return float64(total) / simSamples / cardsPerTurn
}
