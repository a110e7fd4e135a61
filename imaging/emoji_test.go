package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"conductor/engine"
)

// emojiArts is every emoji picture, by a name for the failures.
func emojiArts() map[string]func() *image.RGBA {
	arts := map[string]func() *image.RGBA{"ticket": TicketEmojiArt, "station": StationEmojiArt}
	for c := engine.Card(1); c < engine.NumCards; c++ {
		arts[c.String()] = func() *image.RGBA { return CardEmojiArt(c) }
	}
	return arts
}

// Each emoji is a 128×128 PNG with a transparent background (its corners),
// the same bytes every time, under Discord's 256 KiB, and differs from the
// others once shrunk to the 22 px Discord shows.
func TestEmojiArt(t *testing.T) {
	small := map[string]*image.RGBA{}
	for name, art := range emojiArts() {
		a, b := EncodeEmoji(art()), EncodeEmoji(art())
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two drawings give different bytes", name)
		}
		if len(a) > 256<<10 {
			t.Errorf("%s: %d bytes", name, len(a))
		}
		im, err := png.Decode(bytes.NewReader(a))
		if err != nil {
			t.Fatal(err)
		}
		if im.Bounds() != image.Rect(0, 0, EmojiSize, EmojiSize) {
			t.Errorf("%s: %v", name, im.Bounds())
		}
		for _, p := range []image.Point{{0, 0}, {127, 0}, {0, 127}, {127, 127}} {
			if _, _, _, alpha := im.At(p.X, p.Y).RGBA(); alpha != 0 {
				t.Errorf("%s: corner %v is not transparent", name, p)
			}
		}
		small[name] = shrink(art(), 22)
	}
	for a, ia := range small {
		for b, ib := range small {
			if a < b && distance(ia, ib) < 20 {
				t.Errorf("%s and %s look alike at 22 px (mean difference %.1f in the channel that differs most)", a, b, distance(ia, ib))
			}
		}
	}
}

// shrink averages a picture down to n×n, as a client shows it small.
func shrink(im *image.RGBA, n int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, n, n))
	s := im.Bounds().Dx()
	for y := range n {
		for x := range n {
			var r, g, b, a, k int
			for yy := y * s / n; yy < (y+1)*s/n; yy++ {
				for xx := x * s / n; xx < (x+1)*s/n; xx++ {
					c := im.RGBAAt(xx, yy)
					r, g, b, a, k = r+int(c.R), g+int(c.G), b+int(c.B), a+int(c.A), k+1
				}
			}
			out.SetRGBA(x, y, color.RGBA{uint8(r / k), uint8(g / k), uint8(b / k), uint8(a / k)})
		}
	}
	return out
}

// distance is the mean difference of two pictures in the channel (red,
// green, blue or alpha) where they differ most, 0 to 255.
func distance(a, b *image.RGBA) float64 {
	var sum [4]int
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		sum[i%4] += max(d, -d)
	}
	return float64(max(sum[0], sum[1], sum[2], sum[3])) / float64(len(a.Pix)/4)
}

// BenchmarkEmojiSet draws and encodes the whole set, as a start does once.
func BenchmarkEmojiSet(b *testing.B) {
	arts := emojiArts()
	b.ReportAllocs()
	for b.Loop() {
		for _, art := range arts {
			EncodeEmoji(art())
		}
	}
}
