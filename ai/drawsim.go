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
	samples  int           // playouts averaged (0: simSamples)
	display  []engine.Card // scratch: the face-up cards of a playout
}

// simSamples is the number of playouts averaged (options.drawSamples
// may set another).
const simSamples = 24

// maxPicks bounds a playout: beyond it the plan is hopeless anyway.
const maxPicks = 80

func newDrawSim(s *situation, tracks []data.TrackID) *drawSim {
	d := &drawSim{}
	d.load(s, tracks)
	return d
}

// load sets the simulation up for tracks, reusing d's buffers.
func (d *drawSim) load(s *situation, tracks []data.TrackID) {
	d.want, d.grays, d.locoNeed, d.odds = [engine.NumCards]int{}, d.grays[:0], 0, cardOdds(s)
	d.samples = s.w.drawSamples
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
}

// deficit counts the cards the hand still lacks.
func (d *drawSim) deficit(h *engine.Hand) int {
	short, spare := d.colourShort(h)
	return d.combine(h, short+d.grayShort(&spare))
}

// colourShort counts the colour cards h lacks for the coloured tracks, and
// the cards of each colour it holds beyond them (for the gray tracks).
func (d *drawSim) colourShort(h *engine.Hand) (short int, spare [data.NumColors]int) {
	for _, col := range data.CardColors {
		c := engine.ColorCard(col)
		if h[c] >= d.want[c] {
			spare[col] = h[c] - d.want[c]
		} else {
			short += d.want[c] - h[c]
		}
	}
	return short, spare
}

// combine adds the locomotives to short, the cards the coloured and gray
// tracks lack.
func (d *drawSim) combine(h *engine.Hand, short int) int {
	locos := h[engine.Locomotive] + h[engine.Locomotive4]
	if locos < d.locoNeed {
		return short + d.locoNeed - locos
	}
	return max(0, short-(locos-d.locoNeed))
}

// grayShort serves the gray tracks, longest first, each from the colour
// with most cards to spare, and counts the cards they still lack. It
// depends only on the spare counts, not on which colour has which (a tie
// gives the same counts whichever colour serves): the draw simulation
// caches it by the count of the colour a card joins.
func (d *drawSim) grayShort(spare *[data.NumColors]int) int {
	short := 0
	for _, l := range d.grays {
		best := data.Pink
		for _, col := range data.CardColors {
			if spare[col] > spare[best] {
				best = col
			}
		}
		if spare[best] >= l {
			spare[best] -= l
		} else {
			short += l - spare[best]
			spare[best] = 0
		}
	}
	return short
}

// after returns the deficit once card c joins hand h, whose deficit is def
// (> 0), without changing h. A card fills at most one missing card, and a
// locomotive or a colour still wanted always fills one; no other card
// counts but a colour beyond its own tracks' wants, for the gray tracks:
// only those need the full count.
func (d *drawSim) after(h *engine.Hand, c engine.Card, def int) int {
	switch {
	case c == engine.Locomotive || c == engine.Locomotive4:
		return def - 1
	case c.IsColor() && h[c] < d.want[c]:
		return def - 1
	case !c.IsColor() || len(d.grays) == 0:
		return def
	}
	h[c]++
	nd := d.deficit(h)
	h[c]--
	return nd
}

// spareCache remembers, for one make-up of the spare counts, grayShort
// with one more card on a colour that has v to spare, by v: the same for
// every colour with v to spare, and unchanged while the cards drawn are
// wanted colours, locomotives or Passengers.
type spareCache [32]int16

func (sc *spareCache) clear() {
	for i := range sc {
		sc[i] = -1
	}
}

// afterCached is after, with the gray tracks' part of a spare colour taken
// from sc when known; *short is the colour cards h lacks (-1: not counted
// yet, counted here).
func (d *drawSim) afterCached(h *engine.Hand, c engine.Card, def int, sc *spareCache, short *int) int {
	switch {
	case c == engine.Locomotive || c == engine.Locomotive4:
		return def - 1
	case c.IsColor() && h[c] < d.want[c]:
		return def - 1
	case !c.IsColor() || len(d.grays) == 0:
		return def
	}
	v := h[c] - d.want[c]
	if v >= len(sc) {
		return d.after(h, c, def)
	}
	if *short < 0 || sc[v] < 0 {
		n, spare := d.colourShort(h)
		*short = n
		if sc[v] < 0 {
			spare[data.Color(c)]++
			sc[v] = int16(d.grayShort(&spare))
		}
	}
	return d.combine(h, *short+int(sc[v]))
}

// changesSpares reports whether adding c to h changes a colour's spare
// count (which a gray track may use).
func (d *drawSim) changesSpares(h *engine.Hand, c engine.Card) bool {
	return len(d.grays) > 0 && c.IsColor() && h[c] >= d.want[c]
}

// turns returns the mean number of drawing turns until hand covers the needs.
func (d *drawSim) turns(hand engine.Hand, faceUp []engine.Card, rng *rand.Rand) float64 {
	start := d.deficit(&hand)
	if start == 0 {
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
	d.display = grow(d.display, len(faceUp))
	display := d.display
	// The spare counts every sample starts from, and the current ones.
	var first, now spareCache
	first.clear()
	samples := d.samples
	if samples == 0 {
		samples = simSamples
	}
	for range samples {
		h := hand
		copy(display, faceUp)
		sc := &first
		picks := 0
		for def := start; def > 0 && picks < maxPicks; picks++ {
			bestSlot, bestDef := -1, def
			short := -1
			for i, c := range display {
				if c == engine.NoCard {
					continue
				}
				if nd := d.afterCached(&h, c, def, sc, &short); nd < bestDef {
					bestSlot, bestDef = i, nd
					if nd == def-1 {
						break // no card does better than one fewer
					}
				}
			}
			var c engine.Card
			if bestSlot >= 0 {
				c = display[bestSlot]
				display[bestSlot] = random()
				def = bestDef
			} else {
				c = random()
				def = d.afterCached(&h, c, def, sc, &short)
			}
			if d.changesSpares(&h, c) {
				sc = &now
				sc.clear()
			}
			h[c]++
		}
		total += picks
	}
	return float64(total) / float64(samples) / cardsPerTurn
}
