package imaging

import (
	"bytes"
	"image"
	"image/gif"
	"testing"

	"conductor/internal/testkit"
)

func TestReplay(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "europe")
	var frames []Scene
	for k := 0; k <= 6; k++ {
		frames = append(frames, *playedScene(b, 3, k*3, 21))
	}
	raw, err := r.Replay(frames)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(frames) {
		t.Fatalf("%d GIF frames for %d scenes", len(g.Image), len(frames))
	}
	if g.Config.Width != 800 {
		t.Errorf("replay is %d wide, want 800", g.Config.Width)
	}
	// Later frames hold only what changed, so they are smaller than the picture.
	full := image.Rect(0, 0, g.Config.Width, g.Config.Height)
	for i, f := range g.Image[1:] {
		if f.Bounds() == full || !f.Bounds().In(full) {
			t.Errorf("frame %d covers %v of %v", i+1, f.Bounds(), full)
		}
	}
	// Played in order, the frames add up to the last scene at half size.
	a := r.art(b)
	l := a.boardLayer(Letters{})
	composite := image.NewPaletted(full, l.q.pal)
	for _, f := range g.Image {
		// Transparent pixels keep what the earlier frames left (disposal none).
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			for x := f.Rect.Min.X; x < f.Rect.Max.X; x++ {
				if i := f.ColorIndexAt(x, y); i != transparent {
					composite.SetColorIndex(x, y, i)
				}
			}
		}
	}
	last := &frames[len(frames)-1]
	rgba, _ := l.full(func(c *canvas) { a.drawStatic(c, &Letters{}) }, func(c *canvas) { a.drawScene(c, last) })
	want := image.NewPaletted(full, l.q.pal)
	halve(want, rgba, l.q)
	if n := diff1(composite.Pix, want.Pix); n != 0 {
		t.Errorf("the replay's last frame differs from the last scene in %d pixels", n)
	}
	if _, err := r.Replay(nil); err == nil {
		t.Error("a replay of no frames succeeded")
	}
	other := frames[1]
	other.Board = testkit.Board(t, "usa")
	if _, err := r.Replay([]Scene{frames[0], other}); err == nil {
		t.Error("a replay mixing boards succeeded")
	}
}
