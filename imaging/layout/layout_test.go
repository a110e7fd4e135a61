package layout

import (
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"conductor/data"
	"conductor/internal/testkit"
)

// TestBoardsLayoutClean is the layout's contract with the renderer: no name,
// dot or track space of any board collides with another, and every space is
// long enough to read as a car.
func TestBoardsLayoutClean(t *testing.T) {
	for _, b := range data.Embedded().Boards() {
		for _, p := range problems(b) {
			t.Errorf("%s: %s", b.ID, p)
		}
		shortest, where := math.Inf(1), data.TrackID(0)
		for i := range b.Tracks {
			if s := TrackSpaces(b, data.TrackID(i), 1)[0].W; s < shortest {
				shortest, where = s, data.TrackID(i)
			}
		}
		t.Logf("%s: %dx%d, shortest space %.1f on %s", b.ID, b.Width, b.Height, shortest, b.TrackName(where))
	}
}

// freshBoard is a copy of an embedded board whose cities and size a test
// may change without touching the shared one.
func freshBoard(t *testing.T, id string) *data.Board {
	t.Helper()
	b, err := data.Embedded().Board(id)
	if err != nil {
		t.Fatal(err)
	}
	c := *b
	c.Cities = slices.Clone(b.Cities)
	return &c
}

func mustCity(t *testing.T, b *data.Board, name string) *data.City {
	t.Helper()
	id, ok := b.City(name)
	if !ok {
		t.Fatalf("no city %s on %s", name, b.ID)
	}
	return &b.Cities[id]
}

func TestLayoutProblemsCatchCollisions(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(t *testing.T, b *data.Board)
		want  string
	}{
		{"dot on dot", func(t *testing.T, b *data.Board) {
			kc, omaha := mustCity(t, b, "Kansas City"), mustCity(t, b, "Omaha")
			omaha.X, omaha.Y = kc.X+5, kc.Y
		}, "dots Kansas City and Omaha touch"},
		{"dot on a track", func(t *testing.T, b *data.Board) {
			// Boston onto the middle of the El Paso – Los Angeles track (a
			// neighbour of either end would bend the track away)
			sp := TrackSpaces(b, testkit.AnyTrack(t, b, "El Paso", "Los Angeles"), 1)
			mid := sp[len(sp)/2]
			bos := mustCity(t, b, "Boston")
			bos.X, bos.Y = mid.X, mid.Y
		}, "track El Paso – Los Angeles crosses dot Boston"},
		{"name on a name", func(t *testing.T, b *data.Board) {
			a, c := mustCity(t, b, "Atlanta"), mustCity(t, b, "Charleston")
			a.Label, a.LabelDX, a.LabelDY = "e", 0, 0
			c.Label, c.LabelDX, c.LabelDY = "w", 0, 0
			c.X, c.Y = a.X+150, a.Y
		}, "names Atlanta and Charleston overlap"},
		{"short spaces", func(t *testing.T, b *data.Board) {
			d, kc := mustCity(t, b, "Denver"), mustCity(t, b, "Kansas City")
			kc.X, kc.Y = d.X+100, d.Y
		}, "track Denver – Kansas City: spaces"},
		{"bad anchor", func(t *testing.T, b *data.Board) { mustCity(t, b, "Miami").Label = "up" }, `label anchor "up"`},
		{"far shift", func(t *testing.T, b *data.Board) { mustCity(t, b, "Miami").LabelDX = MaxLabelShift + 1 }, "Miami: label shifted"},
		{"off the map", func(t *testing.T, b *data.Board) { b.Width = 900 }, "outside the 900x"},
		{"crowded dot", func(t *testing.T, b *data.Board) {
			// every neighbour of Denver onto one bearing
			den := mustCity(t, b, "Denver")
			id, _ := b.City("Denver")
			for i, tr := range b.Adj[id] {
				o := &b.Cities[b.Tracks[tr].Other(id)]
				o.X, o.Y = den.X+200+float64(i)*40, den.Y+float64(i)*3
			}
		}, "tracks crowd dot Denver"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := freshBoard(t, "usa")
			if p := problems(b); len(p) != 0 {
				t.Fatalf("clean board reports %v", p)
			}
			c.spoil(t, b)
			probs := problems(b)
			for _, p := range probs {
				if strings.Contains(p, c.want) {
					return
				}
			}
			t.Errorf("no problem mentions %q; got %q", c.want, probs)
		})
	}
}

func TestRectOverlaps(t *testing.T) {
	diag := Rect{W: 60, H: 10, Angle: math.Pi / 4}
	cases := []struct {
		name string
		r    Rect
		want bool
	}{
		{"on the diagonal", Rect{X: 12, Y: 12, W: 4, H: 4}, true},
		{"inside the bounding box, off the diagonal", Rect{X: 15, Y: -15, W: 4, H: 4}, false},
		{"crossing it", Rect{W: 60, H: 10, Angle: -math.Pi / 4}, true},
		{"beyond its end", Rect{X: 30, Y: 30, W: 10, H: 10, Angle: math.Pi / 4}, false},
	}
	for _, c := range cases {
		if got := diag.Overlaps(c.r); got != c.want {
			t.Errorf("%s: Overlaps = %v, want %v", c.name, got, c.want)
		}
		if got := c.r.Overlaps(diag); got != c.want {
			t.Errorf("%s (swapped): Overlaps = %v, want %v", c.name, got, c.want)
		}
	}
	// edges that only touch do not overlap
	if (Rect{X: 0, W: 20, H: 10}).Overlaps(Rect{X: 20, W: 20, H: 10}) {
		t.Error("rectangles sharing an edge overlap")
	}
}

func TestRectOverlapsCircle(t *testing.T) {
	r := Rect{W: 40, H: 10, Angle: math.Pi / 2} // upright: x in ±5, y in ±20
	if !r.OverlapsCircle(Circle{X: 8, Y: 0, R: 4}) {
		t.Error("disc touching the long side missed")
	}
	if r.OverlapsCircle(Circle{X: 10, Y: 0, R: 4}) {
		t.Error("disc 1 px off the long side reported")
	}
	if r.OverlapsCircle(Circle{X: 8, Y: 23, R: 4}) {
		t.Error("disc off the corner reported (4.2 from it)")
	}
}

func TestTrackSpacesEvenAndClearOfDots(t *testing.T) {
	for _, b := range data.Embedded().Boards() {
		for i := range b.Tracks {
			id := data.TrackID(i)
			sp := TrackSpaces(b, id, 1)
			if len(sp) != b.Tracks[i].Length {
				t.Fatalf("%s %s: %d spaces, want %d", b.ID, b.TrackName(id), len(sp), b.Tracks[i].Length)
			}
			for k := 1; k < len(sp); k++ {
				if sp[k].W != sp[0].W {
					t.Errorf("%s %s: spaces of unequal length", b.ID, b.TrackName(id))
				}
				// centres one space and one gap apart along the centre
				// line; a little more or less beside it on a bend
				step := math.Hypot(sp[k].X-sp[k-1].X, sp[k].Y-sp[k-1].Y)
				if want := sp[0].W + SpaceGap; step > want+2 || step < want-2 {
					t.Errorf("%s %s: spaces %d and %d are %.1f apart, want about %.1f", b.ID, b.TrackName(id), k, k+1, step, want)
				}
			}
			da, db := TrackDots(b, id, 1)
			for _, end := range []struct {
				d Dot
				r Rect
			}{{da, sp[0]}, {db, sp[len(sp)-1]}} {
				if end.r.OverlapsCircle(Circle{end.d.X, end.d.Y, end.d.R + EndGap - 0.5}) {
					t.Errorf("%s %s: a space touches the dot it leaves", b.ID, b.TrackName(id))
				}
			}
		}
	}
}

func TestTrackSpacesScale(t *testing.T) {
	b := freshBoard(t, "europe")
	id := testkit.AnyTrack(t, b, "Petrograd", "Stockholm")
	one, two := TrackSpaces(b, id, 1), TrackSpaces(b, id, 2)
	for i := range one {
		w := one[i].Scale(2)
		if math.Abs(w.X-two[i].X) > 1e-9 || math.Abs(w.Y-two[i].Y) > 1e-9 || math.Abs(w.W-two[i].W) > 1e-9 || w.Angle != two[i].Angle {
			t.Fatalf("space %d at scale 2 is %+v, want %+v", i, two[i], w)
		}
	}
	// spaces run from A to B
	a, _ := TrackDots(b, id, 1)
	first, last := one[0], one[len(one)-1]
	if math.Hypot(first.X-a.X, first.Y-a.Y) > math.Hypot(last.X-a.X, last.Y-a.Y) {
		t.Error("spaces do not start at the track's A end")
	}
}

func TestParallelTracksSideBySide(t *testing.T) {
	b := freshBoard(t, "marklin")
	a, _ := b.City("Dortmund")
	c, _ := b.City("Düsseldorf")
	var triple []data.TrackID
	for _, id := range b.Adj[a] {
		if b.Tracks[id].Other(a) == c {
			triple = append(triple, id)
		}
	}
	if len(triple) != 3 {
		t.Fatalf("Dortmund – Düsseldorf has %d tracks, want 3", len(triple))
	}
	s0, s1, s2 := TrackSpaces(b, triple[0], 1)[0], TrackSpaces(b, triple[1], 1)[0], TrackSpaces(b, triple[2], 1)[0]
	for _, pair := range [][2]Rect{{s0, s1}, {s1, s2}} {
		if d := math.Hypot(pair[0].X-pair[1].X, pair[0].Y-pair[1].Y); math.Abs(d-TrackPitch) > 1e-6 {
			t.Errorf("neighbouring parallel spaces %.2f apart, want %g", d, TrackPitch)
		}
		if pair[0].Overlaps(pair[1]) {
			t.Error("parallel spaces overlap")
		}
	}
	if math.Abs(math.Hypot(s0.X-s2.X, s0.Y-s2.Y)-2*TrackPitch) > 1e-6 {
		t.Error("outer tracks of a triple are not two pitches apart")
	}
}

func TestSpreadTurnsNarrowNeighboursApart(t *testing.T) {
	single := groupHalfWidth(1)
	ends := []fanEnd{{group: 0, straight: 0, half: single}, {group: 1, straight: 0.1, half: single}, {group: 2, straight: 2, half: single}}
	start := 20.0
	dirs, ok := spread(ends, start)
	if !ok {
		t.Fatal("two singles 6° apart cannot be spread")
	}
	need := 2 * math.Atan(single/start)
	if got := dirs[1] - dirs[0]; got < need-1e-9 {
		t.Errorf("turned %.3f apart, need %.3f", got, need)
	}
	// least squares: the pair turns symmetrically about its middle, the lone end stays
	if mid := (dirs[0] + dirs[1]) / 2; math.Abs(mid-0.05) > 1e-6 {
		t.Errorf("pair centred on %.4f, want 0.05", mid)
	}
	if dirs[2] != 2 {
		t.Errorf("a lone end turned to %.3f", dirs[2])
	}

	var crowd []fanEnd
	for i := range 12 {
		crowd = append(crowd, fanEnd{group: i, straight: float64(i) * 0.01, half: groupHalfWidth(2)})
	}
	if _, ok := spread(crowd, start); ok {
		t.Error("twelve doubles leaving in one direction reported as fitting")
	}
}

func TestLabelSides(t *testing.T) {
	b := freshBoard(t, "usa")
	id, _ := b.City("Sault St. Marie")
	c := &b.Cities[id]
	c.LabelDX, c.LabelDY = 0, 0
	d := dot(b, id, 0)
	for side, v := range anchors {
		c.Label = side
		box := LabelOf(b, d, 1).Box
		if box.OverlapsCircle(Circle{d.X, d.Y, d.R + LabelGap - 0.01}) {
			t.Errorf("%s: box %+v within %g of the dot", side, box, LabelGap)
		}
		// the box lies on the named side: beyond the dot's centre that way,
		// centred on it the other way
		for axis, centre := range [2][2]float64{{box.X, d.X}, {box.Y, d.Y}} {
			off := centre[0] - centre[1]
			switch {
			case v[axis] == 0 && math.Abs(off) > 1e-9,
				v[axis] != 0 && off*v[axis] <= 0:
				t.Errorf("%s: box centre off by %.1f on axis %d", side, off, axis)
			}
		}
	}
	c.Label = "e"
	plain := LabelOf(b, d, 1).Box
	c.LabelDX, c.LabelDY = 5, -3
	shifted := LabelOf(b, d, 1).Box
	if shifted.X-plain.X != 5 || shifted.Y-plain.Y != -3 {
		t.Errorf("shift moved the box by %.1f,%.1f, want 5,-3", shifted.X-plain.X, shifted.Y-plain.Y)
	}
	if long, short := measureName("Sault St. Marie"), measureName("Ulm"); long.right-long.left <= 3*(short.right-short.left) {
		t.Errorf("Sault St. Marie measures %.1f, Ulm %.1f", long.right-long.left, short.right-short.left)
	}
}

// TestLabelInkInsideBox draws names with LabelFace at each Label's baseline
// and checks every inked pixel falls inside its box: what a renderer draws is
// what the collision check (problems) measured.
func TestLabelInkInsideBox(t *testing.T) {
	b := freshBoard(t, "marklin")
	for _, scale := range []float64{1, 0.5} {
		face := LabelFace(scale)
		for _, d := range Dots(b, scale) {
			l := LabelOf(b, d, scale)
			img := image.NewAlpha(image.Rect(0, 0, int(float64(b.Width)*scale)+1, int(float64(b.Height)*scale)+1))
			dr := font.Drawer{Dst: img, Src: image.Opaque, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(l.X * 64), Y: fixed.Int26_6(l.Y * 64)}}
			dr.DrawString(l.Text)
			inked := 0
			x0, y0 := l.Box.X-l.Box.W/2-1, l.Box.Y-l.Box.H/2-1 // a pixel of antialiasing
			x1, y1 := l.Box.X+l.Box.W/2+1, l.Box.Y+l.Box.H/2+1
			for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
				for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
					if img.AlphaAt(x, y).A == 0 {
						continue
					}
					inked++
					if fx, fy := float64(x), float64(y); fx < x0 || fx+1 > x1 || fy < y0 || fy+1 > y1 {
						t.Fatalf("scale %g: %s inks pixel %d,%d outside its box %+v", scale, l.Text, x, y, l.Box)
					}
				}
			}
			if inked == 0 {
				t.Fatalf("scale %g: %s drew nothing", scale, l.Text)
			}
		}
	}
}

// BenchmarkTrackSpacesBoard measures what a renderer pays to place every
// space of the busiest board.
func BenchmarkTrackSpacesBoard(b *testing.B) {
	board := testkit.Board(b, "marklin")
	for b.Loop() {
		for i := range board.Tracks {
			TrackSpaces(board, data.TrackID(i), 1)
		}
	}
}

func BenchmarkLayoutProblems(b *testing.B) {
	board := testkit.Board(b, "marklin")
	for b.Loop() {
		problems(board)
	}
}
