package imaging

import (
	"image"
	"image/color"
	"math"
	"sort"

	"golang.org/x/image/font"

	"conductor/data"
	"conductor/imaging/layout"
)

// label is a name on the map, pre-drawn with its halo as a sprite that is
// laid over the map: once into the static layer and again, in each frame,
// over whatever the frame drew under it (see overlayLabels).
type label struct {
	text   string
	x, y   float64 // baseline origin, pixels
	ink    color.RGBA
	box    image.Rectangle // the sprite's pixels
	sprite *image.RGBA     // premultiplied, transparent around the halo
}

// newLabel places text anchored as canvas.text does.
func newLabel(face font.Face, text string, x, y, ax, ay float64) *label {
	bx, by, w := anchorText(face, text, x, y, ax, ay)
	m := face.Metrics()
	box := image.Rect(int(bx)-4, int(by-float64(m.Ascent)/64)-3, int(math.Ceil(bx+w))+4, int(math.Ceil(by+float64(m.Descent)/64))+3)
	return &label{text: text, x: bx, y: by, ink: ink, box: box}
}

func (l *label) render(face font.Face) {
	l.sprite = image.NewRGBA(l.box)
	c := &canvas{im: l.sprite, src: image.NewUniform(color.RGBA{})}
	c.haloTextAt(face, l.text, l.x, l.y, l.ink, halo)
}

// labelSide is one of eight places for a name around a dot (used on the
// hand's mini map, where the board's own label places do not fit the scale):
// the direction from the dot and the text anchor.
type labelSide struct{ dx, dy, ax, ay float64 }

var labelSides = [...]labelSide{
	{1, 0, 0, 0.5}, {-1, 0, 1, 0.5}, {0, -1, 0.5, 1}, {0, 1, 0.5, 0},
	{0.75, -0.75, 0, 1}, {-0.75, -0.75, 1, 1}, {0.75, 0.75, 0, 0}, {-0.75, 0.75, 1, 0},
}

// quad is a convex quadrilateral in pixels.
type quad [4]pt

func rectQuad(r image.Rectangle) quad {
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	return quad{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

// overlaps tests two convex quads by separating axes.
func (q quad) overlaps(o quad) bool {
	for _, s := range [2]*quad{&q, &o} {
		for i := range 4 {
			a, b := s[i], s[(i+1)%4]
			nx, ny := b.Y-a.Y, a.X-b.X
			min1, max1 := q.project(nx, ny)
			min2, max2 := o.project(nx, ny)
			if max1 < min2 || max2 < min1 {
				return false
			}
		}
	}
	return true
}

// bounds is the smallest pixel rectangle holding q.
func (q quad) bounds() image.Rectangle {
	x0, y0, x1, y1 := q[0].X, q[0].Y, q[0].X, q[0].Y
	for _, p := range q[1:] {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1))+1, int(math.Ceil(y1))+1)
}

func (q quad) project(nx, ny float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range q {
		d := p.X*nx + p.Y*ny
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// placeLabels takes every name's place from the layout package (the
// boxes the layout tests check), pre-draws it, then finds each city's badge
// spots clear of names and tracks.
func (a *boardArt) placeLabels() {
	b := a.b
	face := wrapFace(layout.LabelFace(a.v.scale))
	for _, d := range layout.Dots(b, 1) {
		l := layout.LabelOf(b, d, 1)
		p := a.v.p(l.X, l.Y)
		tl := a.v.p(l.Box.X-l.Box.W/2, l.Box.Y-l.Box.H/2)
		br := a.v.p(l.Box.X+l.Box.W/2, l.Box.Y+l.Box.H/2)
		lab := &label{text: l.Text, x: p.X, y: p.Y, ink: ink,
			// The box has room for the halo; one more pixel for antialiasing.
			box: image.Rect(int(math.Floor(tl.X))-1, int(math.Floor(tl.Y))-1, int(math.Ceil(br.X))+1, int(math.Ceil(br.Y))+1)}
		if b.Cities[d.Node].Country {
			lab.ink = countryInk
		}
		lab.render(face)
		a.labels = append(a.labels, lab)
	}
	var spaceQuads, labelQuads []quad
	for _, row := range a.spaces {
		for _, sp := range row {
			c := a.v.corners(sp, 1)
			spaceQuads = append(spaceQuads, quad{c[0], c[1], c[2], c[3]})
		}
	}
	for _, l := range a.labels {
		labelQuads = append(labelQuads, rectQuad(l.box))
	}
	a.badges = make([][]pt, len(b.Cities))
	for ci := range b.Cities {
		if !b.Cities[ci].Country {
			a.badges[ci] = a.badgeSpots(data.CityID(ci), spaceQuads, labelQuads)
		}
	}
}

// badgeSpots returns three spots around a city, freest first.
func (a *boardArt) badgeSpots(c data.CityID, spaces, labels []quad) []pt {
	p := a.cityPt(c)
	const r, half = 17.0, 7.0
	type cand struct {
		p     pt
		score float64
	}
	var cs []cand
	for k := range 8 {
		ang := -math.Pi/2 - math.Pi/4 + float64(k)*math.Pi/4
		q := pt{p.X + r*math.Cos(ang), p.Y + r*math.Sin(ang)}
		bq := rectQuad(image.Rect(int(q.X-half), int(q.Y-half), int(q.X+half), int(q.Y+half)))
		score := float64(k) * 0.1
		for _, s := range spaces {
			if s.overlaps(bq) {
				score += 3
			}
		}
		for _, l := range labels {
			if l.overlaps(bq) {
				score += 20
			}
		}
		if q.X < half || q.Y < half || q.X > mapWidth-half || q.Y > float64(a.h)-half {
			score += 100
		}
		cs = append(cs, cand{q, score})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score < cs[j].score })
	return []pt{cs[0].p, cs[1].p, cs[2].p}
}
