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
	h := &HandScene{Board: b, Color: 1, Text: HandText{Title: "Alice — hand", Left: "45 trains · 3 stations"}}
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

// The hand's mini map shows the other seats' tracks too, each in its seat's
// colour faded, so that a ticket they cut off can be seen; the player's own
// keep their full colour.
func TestHandShowsOtherSeatsTracksDimmer(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		s := playedScene(b, 4, 36, 11)
		h := handOf(s, 2)
		for tr, o := range s.Owners {
			if o >= 0 && int(o) != h.Color {
				h.Others = append(h.Others, SeatTrack{Track: data.TrackID(tr), Seat: int(o)})
			}
		}
		if len(h.Others) == 0 {
			t.Fatalf("%s: the fixture has no other seat's track", id)
		}
		a := r.art(b)
		im := renderHand(t, r, h)
		v := a.miniView()
		shown, spaces := 0, 0
		for _, o := range h.Others {
			for _, sp := range a.spaces[o.Track] {
				spaces++
				if nearly(im, v.centre(sp), 1, fadedPlayerColor(o.Seat)) {
					shown++
				}
			}
		}
		if shown < spaces*80/100 {
			t.Errorf("%s: %d of %d spaces of the other seats' tracks show their faded colour", id, shown, spaces)
		}
		own, ownShown := 0, 0
		for _, tid := range h.Owned {
			for _, sp := range a.spaces[tid] {
				own++
				if near(im, v.centre(sp), 2, playerColor(h.Color)) {
					ownShown++
				}
			}
		}
		if ownShown < own*85/100 {
			t.Errorf("%s: %d of %d spaces of the player's own tracks keep their colour", id, ownShown, own)
		}
	}
}

// nearly reports whether a pixel within d pixels of p has colour want, give
// or take the rounding of a blended fill (3 a channel).
func nearly(im image.Image, p pt, d int, want color.RGBA) bool {
	close := func(a, b uint8) bool { return int(a)-int(b) <= 3 && int(b)-int(a) <= 3 }
	for y := int(p.Y) - d; y <= int(p.Y)+d; y++ {
		for x := int(p.X) - d; x <= int(p.X)+d; x++ {
			if c := rgbaAt(im, x, y); close(c.R, want.R) && close(c.G, want.G) && close(c.B, want.B) {
				return true
			}
		}
	}
	return false
}
