package ai

import (
	"conductor/data"
	"conductor/engine"
)

// needs is what a set of tracks still asks of a hand: for each colour the
// cards missing, and the locomotives the ferries want. Gray tracks take the
// colour the hand is richest in once the coloured tracks are served.
type needs struct {
	missing  [engine.NumCards]int // colour cards still to draw, by card
	want     [engine.NumCards]int // colour cards the tracks use, by card
	locoNeed int                  // locomotives the ferries demand
	// short is the number of cards still to draw once wild cards have
	// filled what they can.
	short int
	// longShort is the part of short on tracks a Locomotive +4 may pay.
	longShort int
	// grays is the colour chosen for each gray track, longest first; more
	// holds those beyond the array (a needs is copied by value, and most
	// track lists have few gray tracks).
	grays  [maxGrays]grayPick
	nGrays int
	more   []grayPick
}

// grayPick is the colour analyse chose for a gray track.
type grayPick struct {
	t   data.TrackID
	col data.Color
}

const maxGrays = 16

// gray returns the colour chosen for gray track t.
func (n *needs) gray(t data.TrackID) data.Color {
	for _, g := range n.grays[:min(n.nGrays, maxGrays)] {
		if g.t == t {
			return g.col
		}
	}
	for _, g := range n.more {
		if g.t == t {
			return g.col
		}
	}
	return 0
}

func (n *needs) addGray(g grayPick) {
	if n.nGrays < maxGrays {
		n.grays[n.nGrays] = g
	} else {
		n.more = append(n.more, g)
	}
	n.nGrays++
}

// grayAt returns the i-th gray pick.
func (n *needs) grayAt(i int) *grayPick {
	if i < maxGrays {
		return &n.grays[i]
	}
	return &n.more[i-maxGrays]
}

// analyse works out what tracks ask of hand.
func analyse(b *data.Board, hand *engine.Hand, tracks []data.TrackID) needs {
	var n needs
	longWant := [engine.NumCards]int{}
	for _, t := range tracks {
		tr := &b.Tracks[t]
		n.locoNeed += tr.Locomotives
		if tr.Color == data.Gray {
			n.addGray(grayPick{t: t})
			continue
		}
		c := engine.ColorCard(tr.Color)
		n.want[c] += tr.Length - tr.Locomotives
		if tr.Length >= b.Rules.Locomotive4MinLength && b.Rules.Cards.Locomotives4 > 0 {
			longWant[c] += tr.Length - tr.Locomotives
		}
	}
	if n.nGrays > 0 {
		// Longest first: they need the biggest sets (a stable insertion
		// sort: the lists are short).
		for i := 1; i < n.nGrays; i++ {
			for j := i; j > 0 && b.Tracks[n.grayAt(j).t].Length > b.Tracks[n.grayAt(j-1).t].Length; j-- {
				x, y := n.grayAt(j), n.grayAt(j-1)
				*x, *y = *y, *x
			}
		}
		for i := range n.nGrays {
			t := n.grayAt(i).t
			tr := &b.Tracks[t]
			best, bestSpare := data.Pink, -1<<30
			for _, col := range data.CardColors {
				c := engine.ColorCard(col)
				if spare := hand[c] - n.want[c]; spare > bestSpare {
					best, bestSpare = col, spare
				}
			}
			n.grayAt(i).col = best
			n.want[best] += tr.Length - tr.Locomotives
			if tr.Length >= b.Rules.Locomotive4MinLength && b.Rules.Cards.Locomotives4 > 0 {
				longWant[best] += tr.Length - tr.Locomotives
			}
		}
	}
	sum, longSum := 0, 0
	for _, col := range data.CardColors {
		c := engine.ColorCard(col)
		n.missing[c] = max(0, n.want[c]-hand[c])
		sum += n.missing[c]
		longSum += min(n.missing[c], max(0, longWant[c]-hand[c]))
	}
	locos := hand[engine.Locomotive]
	locoShort := max(0, n.locoNeed-locos)
	spare := max(0, locos-n.locoNeed)
	l4 := min(hand[engine.Locomotive4], longSum)
	n.short = max(0, sum-spare-l4) + locoShort
	n.longShort = max(0, longSum-l4)
	return n
}

// cardOdds estimates the chance that a blind draw gives each kind of card:
// the deck's make-up less the cards this seat can see (its hand and the
// face-up display).
func cardOdds(s *situation) [engine.NumCards]float64 {
	var left [engine.NumCards]float64
	r := &s.rules.Cards
	for _, col := range data.CardColors {
		left[engine.ColorCard(col)] = float64(r.Colors)
	}
	left[engine.Locomotive] = float64(r.Locomotives)
	left[engine.Locomotive4] = float64(r.Locomotives4)
	left[engine.Passenger] = float64(r.Passengers)
	for c := range left {
		left[c] -= float64(s.hand[c])
	}
	for _, c := range s.v.FaceUp {
		if c != engine.NoCard {
			left[c]--
		}
	}
	total := 0.0
	for c := range left {
		left[c] = max(left[c], 0)
		total += left[c]
	}
	if total > 0 {
		for c := range left {
			left[c] /= total
		}
	}
	return left
}

// cardValue is what one more card of a kind is worth to a plan's needs, in
// cards: 1 for a card the plan lacks, spare for a colour it does not need.
// passengerValue prices the Märklin Passenger card, which plans do not use.
func cardValue(b *data.Board, n *needs, c engine.Card, passengerValue, spare float64) float64 {
	switch {
	case c == engine.Locomotive:
		v := 0.15
		if n.short > 0 {
			v = locoWorth
		}
		if n.locoNeed > 0 && n.short > 0 {
			v += 0.5
		}
		return v
	case c == engine.Locomotive4:
		if n.longShort > 0 {
			return 1
		}
		return 0.1
	case c == engine.Passenger:
		return passengerValue
	case c.IsColor():
		if n.missing[c] > 0 {
			return 1
		}
		return spare
	}
	return 0
}

// locoWorth and spareWorth price a locomotive and a colour card the plan
// does not need, against a needed card worth 1.
const (
	locoWorth  = 0.5
	spareWorth = 0.3
)

// take returns the needs after one more card of kind c.
func (n needs) take(c engine.Card) needs {
	switch {
	case c.IsColor() && n.missing[c] > 0:
		n.missing[c]--
		n.short = max(0, n.short-1)
	case c == engine.Locomotive && n.short > 0:
		n.short--
		if n.locoNeed > 0 {
			n.locoNeed--
		}
	case c == engine.Locomotive4 && n.longShort > 0:
		n.longShort--
		n.short = max(0, n.short-1)
	}
	return n
}
