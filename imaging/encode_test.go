package imaging

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 65521, 70000, 300000} {
		a := make([]byte, 1000)
		b := make([]byte, n)
		for i := range a {
			a[i] = byte(rng.IntN(256))
		}
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		want := adler32.Checksum(append(append([]byte{}, a...), b...))
		if got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), n); got != want {
			t.Errorf("len %d: combined %08x, want %08x", n, got, want)
		}
	}
}

// TestEncodePNGRoundTrip: the banded writer's output decodes to the same
// pixels for any height (one band or several, uneven ones).
func TestEncodePNGRoundTrip(t *testing.T) {
	pal := color.Palette{}
	for i := range 255 {
		pal = append(pal, color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 255})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, h := range []int{1, 63, 64, 129, 257, 860} {
		im := image.NewPaletted(image.Rect(0, 0, 301, h), pal)
		for i := range im.Pix {
			if rng.IntN(4) == 0 {
				im.Pix[i] = uint8(rng.IntN(len(pal)))
			}
		}
		var buf bytes.Buffer
		if err := encodePNG(&buf, im); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("height %d: %v", h, err)
		}
		p, ok := got.(*image.Paletted)
		if !ok || !bytes.Equal(p.Pix, im.Pix) || p.Rect != im.Rect || len(p.Palette) != len(pal) {
			t.Errorf("height %d: decoded picture differs", h)
		}
	}
}
