package imaging

import (
	"image"
	"image/color"
	"math"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestColourLetters: every card colour carries its own letter, so colours
// can be told apart without seeing hue.
func TestColourLetters(t *testing.T) {
	seen := map[string]engine.Card{}
	for _, c := range data.CardColors {
		k := engine.ColorCard(c)
		l := cardLetters[k]
		if l == "" {
			t.Errorf("%v has no letter", c)
		}
		if o, dup := seen[l]; dup {
			t.Errorf("%v and %v share the letter %q", o, k, l)
		}
		seen[l] = k
	}
	if cardLetters[engine.Locomotive] != "L" {
		t.Errorf("locomotive letter %q, want L", cardLetters[engine.Locomotive])
	}
}

// TestPlayerColoursDistinct: the five seat colours are far apart, none is a
// card colour, and each seat's marker shape differs from every other's.
func TestPlayerColoursDistinct(t *testing.T) {
	dist := func(a, b color.RGBA) float64 {
		return math.Sqrt(math.Pow(float64(a.R)-float64(b.R), 2) + math.Pow(float64(a.G)-float64(b.G), 2) + math.Pow(float64(a.B)-float64(b.B), 2))
	}
	for i, a := range playerColors {
		for j, b := range playerColors[i+1:] {
			if d := dist(a, b); d < 120 {
				t.Errorf("seats %d and %d colours only %.0f apart", i, i+1+j, d)
			}
		}
		for k, c := range cardColors {
			if c == a {
				t.Errorf("seat %d's colour is card %d's", i, k)
			}
		}
	}
	masks := make([][]bool, len(playerColors))
	for seat := range playerColors {
		im := image.NewRGBA(image.Rect(0, 0, 24, 24))
		c := newCanvas(im, nil)
		drawMarker(c, seat, 12, 12, 8, paper)
		masks[seat] = make([]bool, 24*24)
		for i := range masks[seat] {
			masks[seat][i] = im.Pix[4*i+3] > 127
		}
	}
	for i := range masks {
		for j := i + 1; j < len(masks); j++ {
			d := 0
			for k := range masks[i] {
				if masks[i][k] != masks[j][k] {
					d++
				}
			}
			if d < 30 {
				t.Errorf("markers of seats %d and %d differ in only %d pixels", i, j, d)
			}
		}
	}
}

func TestQuantizer(t *testing.T) {
	r := shared()
	l := r.art(testkit.Board(t, "europe")).boardLayer(Letters{})
	q := l.q
	if len(q.pal) > 256 {
		t.Fatalf("palette of %d colours", len(q.pal))
	}
	for _, c := range flatColors() {
		c.A = 255
		if got := q.pal[q.index(pack(c))]; got != c {
			t.Errorf("flat colour %v maps to %v", c, got)
		}
	}
	reserved := map[color.Color]bool{}
	for _, c := range playerColors {
		reserved[c] = true
	}
	for k, i := range q.lut {
		if reserved[q.pal[i]] {
			t.Fatalf("in-between colour cell %d rounds to player colour %v", k, q.pal[i])
		}
	}
	// Nearby colours round to something close.
	c := color.RGBA{200, 120, 60, 255}
	got := q.pal[q.index(pack(c))].(color.RGBA)
	if d := math.Abs(float64(got.R)-200) + math.Abs(float64(got.G)-120) + math.Abs(float64(got.B)-60); d > 90 {
		t.Errorf("%v rounds to the far %v", c, got)
	}
}

// TestSeatMarksNameWhatIsDrawn: the colour a seat's mark names is the card
// colour nearest the seat's colour, and the seats and their shapes are as
// many as the colours, each shape once (the docs' table comes from them).
func TestSeatMarksNameWhatIsDrawn(t *testing.T) {
	if len(seats) != len(playerColors) {
		t.Fatalf("%d seat marks for %d colours", len(seats), len(playerColors))
	}
	shapes := map[string]bool{}
	for seat, pc := range playerColors {
		name, shape := SeatMark(seat)
		shapes[shape] = true
		nearest, best := "", math.Inf(1)
		for _, c := range data.CardColors {
			cc := cardColors[c]
			d := math.Abs(float64(cc.R)-float64(pc.R)) + math.Abs(float64(cc.G)-float64(pc.G)) + math.Abs(float64(cc.B)-float64(pc.B))
			if d < best {
				nearest, best = c.String(), d
			}
		}
		if name != nearest {
			t.Errorf("seat %d is named %s but looks %s", seat, name, nearest)
		}
	}
	if len(shapes) != len(seats) {
		t.Errorf("seats share shapes: %v", shapes)
	}
}
