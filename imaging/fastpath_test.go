package imaging

import (
	"bytes"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestFastPathMatchesFullRedraw: a frame drawn the fast way (pooled copy of
// the static layer, dynamic parts only, only touched tiles converted, tiles
// restored afterwards) equals, pixel for pixel, the same picture drawn from
// scratch. The budget is zero differences: both ways run the same drawing
// operations in the same order on the same starting pixels, and the palette
// lookup is a pure function of the colour, so any difference is a bug (a
// primitive that draws outside the tiles it reports, or a tile not restored).
// The scenes are drawn in a sequence on one renderer so frames reused from
// the pool carry the previous scene's tiles.
func TestFastPathMatchesFullRedraw(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		a := r.art(b)
		late := playedScene(b, 5, 70, 9)
		late.LastMove.Cities = append(late.LastMove.Cities, 0, 3)
		scenes := []*Scene{playedScene(b, 4, 40, 1), emptyScene(b, 2), late, emptyScene(b, 5)}
		if id == "europe" {
			// A table in another language prints other letters: its own
			// layer (built once: one board is enough).
			french := playedScene(b, 3, 30, 4)
			french.Letters[engine.ColorCard(data.Green)], french.Letters[engine.ColorCard(data.Yellow)] = "Ve", "J"
			scenes = append(scenes, french)
		}
		for i, s := range scenes {
			l := a.boardLayer(s.Letters)
			f := l.get()
			a.drawScene(f.c, s)
			fast := l.finish(f)
			wantRGBA, want := l.full(func(c *canvas) { a.drawStatic(c, &s.Letters) }, func(c *canvas) { a.drawScene(c, s) })
			if !bytes.Equal(f.rgba.Pix, wantRGBA.Pix) {
				t.Errorf("%s scene %d: RGBA differs from the full redraw in %d pixels", id, i, diff4(f.rgba.Pix, wantRGBA.Pix))
			}
			if !bytes.Equal(fast.Pix, want.Pix) {
				t.Errorf("%s scene %d: palette image differs from the full redraw in %d pixels", id, i, diff1(fast.Pix, want.Pix))
			}
			if f.tiles.pixels() >= l.w*l.h {
				t.Errorf("%s scene %d: every tile touched; the fast path saves nothing", id, i)
			}
			l.put(f)
		}
	}
}

func diff4(a, b []byte) int {
	n := 0
	for i := 0; i+3 < len(a); i += 4 {
		if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] || a[i+3] != b[i+3] {
			n++
		}
	}
	return n
}

func diff1(a, b []byte) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// TestConcurrentRendering draws boards, hands and score sheets from several
// goroutines at once on one renderer (run with -race); every picture must be
// byte-identical to the same picture drawn alone. The renderer starts
// cold, so that its layers are built while the goroutines ask for them
// (the pictures drawn alone come from the tests' shared renderer, whose
// layers the other tests build or use too), and each picture is drawn
// once, by one of the goroutines, which take the jobs in turn: two of
// them start on the same board.
func TestConcurrentRendering(t *testing.T) {
	type job struct {
		name string
		draw func(*Renderer, *bytes.Buffer) error
	}
	var jobs []job
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		for seed := uint64(1); seed <= 2; seed++ {
			s := playedScene(b, 4, int(10*seed), seed)
			jobs = append(jobs,
				job{id + " board", func(r *Renderer, w *bytes.Buffer) error { return r.Board(w, s) }},
				job{id + " hand", func(r *Renderer, w *bytes.Buffer) error { return r.Hand(w, handOf(s, int(seed)%4)) }})
		}
		s := playedScene(b, 3, 30, 8)
		jobs = append(jobs, job{id + " final", func(r *Renderer, w *bytes.Buffer) error { return r.Final(w, finalOf(s)) }})
	}
	alone := shared()
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		var buf bytes.Buffer
		if err := j.draw(alone, &buf); err != nil {
			t.Fatal(err)
		}
		want[i] = buf.Bytes()
	}
	r := NewRenderer()
	const workers = 3
	errs := make(chan string, len(jobs))
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := w; i < len(jobs); i += workers {
				var buf bytes.Buffer
				if err := jobs[i].draw(r, &buf); err != nil {
					errs <- err.Error()
					continue
				}
				if !bytes.Equal(buf.Bytes(), want[i]) {
					errs <- jobs[i].name + " differs when drawn concurrently"
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
