package layout

import (
	"fmt"
	"math"

	"conductor/data"
)

// dotClearance is the room kept around a dot that no other dot, name or
// foreign track may enter.
const dotClearance = 2.0

// problems lists every collision in the board's drawing at scale 1:
// names overlapping names, dots or track spaces; dots too close to each other
// or crossed by a track that does not end there; spaces of different tracks
// overlapping; spaces shorter than MinSpaceLength; and anything outside the
// Width×Height space. A board fit to draw has none.
func problems(b *data.Board) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	w, h := float64(b.Width), float64(b.Height)

	for _, c := range b.Cities {
		if _, ok := anchors[c.Label]; c.Label != "" && !ok {
			bad("%s: label anchor %q (want n, ne, e, se, s, sw, w or nw)", c.Name, c.Label)
		}
		if math.Abs(c.LabelDX) > MaxLabelShift || math.Abs(c.LabelDY) > MaxLabelShift {
			bad("%s: label shifted by %g,%g, more than %g", c.Name, c.LabelDX, c.LabelDY, MaxLabelShift)
		}
	}

	dots := Dots(b, 1)
	dotName := func(d Dot) string {
		n := b.Cities[d.Node].Name
		if len(countryOfOrEmpty(b, d.Node).Areas) > 1 {
			n = fmt.Sprintf("%s (area %d)", n, d.Area)
		}
		return n
	}
	labels := make([]Label, len(dots))
	for i, d := range dots {
		labels[i] = LabelOf(b, d, 1)
		if d.X-d.R < 0 || d.Y-d.R < 0 || d.X+d.R > w || d.Y+d.R > h {
			bad("dot %s lies outside the %gx%g space", dotName(d), w, h)
		}
		if !labels[i].Box.Within(w, h) {
			bad("name %s lies outside the %gx%g space", dotName(d), w, h)
		}
	}
	for i, d := range dots {
		for j := i + 1; j < len(dots); j++ {
			e := dots[j]
			if math.Hypot(d.X-e.X, d.Y-e.Y) < d.R+e.R+2*dotClearance {
				bad("dots %s and %s touch", dotName(d), dotName(e))
			}
			if labels[i].Box.Overlaps(labels[j].Box) {
				bad("names %s and %s overlap", dotName(d), dotName(e))
			}
		}
		for j, e := range dots {
			if labels[j].Box.OverlapsCircle(grownCircle(d.Circle)) {
				bad("name %s covers dot %s", dotName(e), dotName(d))
			}
		}
		own := boxDistance(labels[i].Box, d.X, d.Y) - d.R
		for j, e := range dots {
			if j != i && boxDistance(labels[i].Box, e.X, e.Y)-e.R < own {
				bad("name %s sits nearer to dot %s than to its own", dotName(d), dotName(e))
			}
		}
	}

	fans := map[Dot]fan{}
	for _, d := range dots {
		f := fanAt(b, d)
		fans[d] = f
		if !f.ok {
			bad("tracks crowd dot %s: they cannot leave it apart without bending more than %.0f°", dotName(d), MaxBend*180/math.Pi)
		}
	}
	fanOf := func(d Dot) fan { return fans[d] }
	spaces := make([][]Rect, len(b.Tracks))
	boxes := make([]bounds, len(b.Tracks))
	for g, members := range b.Groups {
		for k, rects := range groupSpaces(b, g, fanOf) {
			spaces[members[k]] = rects
		}
	}
	for t := range b.Tracks {
		boxes[t] = boundsOf(spaces[t])
	}
	for t := range b.Tracks {
		tr := &b.Tracks[t]
		name := b.TrackName(data.TrackID(t))
		if len(spaces[t]) > 0 && spaces[t][0].W < MinSpaceLength {
			bad("track %s: spaces %.1f long, want %g", name, spaces[t][0].W, MinSpaceLength)
		}
		for i := 1; i < len(spaces[t]); i++ {
			if spaces[t][i-1].Overlaps(spaces[t][i]) {
				bad("track %s: spaces %d and %d overlap on its bend", name, i, i+1)
			}
		}
		for _, s := range spaces[t] {
			if !s.Within(w, h) {
				bad("track %s leaves the %gx%g space", name, w, h)
				break
			}
		}
		da, db := TrackDots(b, data.TrackID(t), 1)
		for i, d := range dots {
			end := sameDot(d, da) || sameDot(d, db)
			if !end && anyOverlapsCircle(spaces[t], grownCircle(d.Circle)) {
				bad("track %s crosses dot %s", name, dotName(d))
			}
			if anyOverlaps(spaces[t], labels[i].Box) {
				bad("track %s crosses name %s", name, dotName(d))
			}
		}
		for u := t + 1; u < len(b.Tracks); u++ {
			if boxes[t].overlaps(boxes[u]) && crosses(spaces[t], spaces[u]) {
				kind := "crosses"
				if b.Tracks[u].Group == tr.Group {
					kind = "overlaps its parallel track"
				}
				bad("track %s %s %s", name, kind, b.TrackName(data.TrackID(u)))
			}
		}
	}
	return out
}

func countryOfOrEmpty(b *data.Board, node data.CityID) *data.Country {
	if c := b.CountryOf(node); c != nil {
		return c
	}
	return &data.Country{}
}

func grownCircle(c Circle) Circle {
	c.R += dotClearance
	return c
}

func sameDot(a, b Dot) bool { return a.Node == b.Node && a.Area == b.Area }

func anyOverlapsCircle(rs []Rect, c Circle) bool {
	for _, r := range rs {
		if r.OverlapsCircle(c) {
			return true
		}
	}
	return false
}

func anyOverlaps(rs []Rect, o Rect) bool {
	for _, r := range rs {
		if r.Overlaps(o) {
			return true
		}
	}
	return false
}

// crosses reports whether any space of one track comes closer than
// spaceClearance to any space of the other.
func crosses(a, b []Rect) bool {
	for _, r := range a {
		r = r.Grow(spaceClearance / 2)
		for _, s := range b {
			if r.Overlaps(s.Grow(spaceClearance / 2)) {
				return true
			}
		}
	}
	return false
}

// bounds is an axis-aligned box, to skip pairs of tracks far apart.
type bounds struct{ x0, y0, x1, y1 float64 }

func boundsOf(rs []Rect) bounds {
	b := bounds{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, r := range rs {
		for _, p := range r.Corners() {
			b.x0, b.y0 = min(b.x0, p.X), min(b.y0, p.Y)
			b.x1, b.y1 = max(b.x1, p.X), max(b.y1, p.Y)
		}
	}
	return b
}

func (b bounds) overlaps(o bounds) bool {
	const m = spaceClearance
	return b.x0-m < o.x1 && o.x0-m < b.x1 && b.y0-m < o.y1 && o.y0-m < b.y1
}

// boxDistance is how far the point x, y is from an axis-aligned box.
func boxDistance(r Rect, x, y float64) float64 {
	dx := max(math.Abs(x-r.X)-r.W/2, 0)
	dy := max(math.Abs(y-r.Y)-r.H/2, 0)
	return math.Hypot(dx, dy)
}

// The geometry below serves only the collision check.

// Grow returns r with every side pushed out by d.
func (r Rect) Grow(d float64) Rect {
	r.W += 2 * d
	r.H += 2 * d
	return r
}

// Overlaps reports whether r and o share any area (separating axis test).
func (r Rect) Overlaps(o Rect) bool {
	rc, oc := r.Corners(), o.Corners()
	for _, q := range [2]Rect{r, o} {
		ux, uy, vx, vy := q.axes()
		for _, ax := range [2][2]float64{{ux, uy}, {vx, vy}} {
			rmin, rmax := project(rc, ax)
			omin, omax := project(oc, ax)
			if rmax <= omin || omax <= rmin {
				return false
			}
		}
	}
	return true
}

func project(c [4]data.Point, ax [2]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range c {
		d := p.X*ax[0] + p.Y*ax[1]
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

// Overlaps reports whether two discs share any area.
func (c Circle) Overlaps(o Circle) bool {
	return math.Hypot(c.X-o.X, c.Y-o.Y) < c.R+o.R
}

// TrackDots returns the dots a track joins: its A end, then its B end.
func TrackDots(b *data.Board, t data.TrackID, scale float64) (Dot, Dot) {
	tr := &b.Tracks[t]
	return scaledDot(b, tr.A, endArea(b, tr, tr.A), scale), scaledDot(b, tr.B, endArea(b, tr, tr.B), scale)
}
