package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"conductor/data"
	"conductor/imaging/layout"
	"conductor/internal/testkit"
)

func renderHand(t testing.TB, r *Renderer, h *HandScene) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := r.Hand(&buf, h); err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func TestHandShowsOwnedTracksAndTicketCities(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		s := playedScene(b, 4, 36, 11)
		h := handOf(s, 2)
		if len(h.Owned) == 0 || len(h.Tickets) == 0 {
			t.Fatalf("%s: fixture has no owned tracks or tickets", id)
		}
		a := r.art(b)
		im := renderHand(t, r, h)
		if im.Bounds().Dx() != handW || im.Bounds().Dy() != a.handHeight() {
			t.Errorf("%s: hand picture is %v", id, im.Bounds())
		}
		v := a.miniView()
		want := playerColor(h.Color)
		// Ticket city names may hide a few spaces.
		shown, spaces := 0, 0
		for _, tid := range h.Owned {
			for _, sp := range a.spaces[tid] {
				spaces++
				if near(im, v.centre(sp), 2, want) {
					shown++
				}
			}
		}
		if shown < spaces*85/100 {
			t.Errorf("%s: %d of %d spaces of owned tracks show the player's colour", id, shown, spaces)
		}
		for _, tl := range h.Tickets {
			for _, ci := range tl.Cities {
				p := v.city(b, ci)
				r := layout.CityRadius*v.scale + 4
				if !near(im, pt{p.X + r, p.Y}, 1, glow) && !near(im, pt{p.X - r, p.Y}, 1, glow) {
					t.Errorf("%s: ticket city %s is not ringed", id, b.Cities[ci].Name)
				}
			}
		}
	}
}

// near reports whether a pixel of colour want lies within d pixels of p.
func near(im image.Image, p pt, d int, want color.RGBA) bool {
	for y := int(p.Y) - d; y <= int(p.Y)+d; y++ {
		for x := int(p.X) - d; x <= int(p.X)+d; x++ {
			if rgbaAt(im, x, y) == want {
				return true
			}
		}
	}
	return false
}

// TestHandCardCounts: each kind of card held shows its card face; kinds not
// held show an empty outline only.
func TestHandCardCounts(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "europe")
	h := &HandScene{Board: b, Player: "Alice", Color: 1, Trains: 45, Stations: 3}
	h.Cards[data.Red] = 3
	h.Cards[data.Green] = 1
	im := renderHand(t, r, h)
	for i, k := range handKinds(b) {
		x := 16 + float64(i%handCardRow)*handCardStep
		y := float64(handCardsTop + 6 + (i/handCardRow)*(handCardH+34))
		// A point inside the card, away from its letter.
		got := rgbaAt(im, int(x)+8, int(y)+handCardH-10)
		held := h.Cards[k] > 0
		if held && got != cardColors[k] {
			t.Errorf("held %v card shows %v, want %v", k, got, cardColors[k])
		}
		if !held && got != panelBG {
			t.Errorf("card %v not held but its slot shows %v", k, got)
		}
	}
}

// BenchmarkHandPNG is one hand picture: render and encode.
func BenchmarkHandPNG(b *testing.B) {
	s := midGame(b)
	h := handOf(s, 0)
	r := NewRenderer()
	var buf bytes.Buffer
	if err := r.Hand(&buf, h); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		buf.Reset()
		if err := r.Hand(&buf, h); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}
