package layout

import (
	"math"

	"conductor/data"
)

// Rect is a rectangle turned by Angle (radians, clockwise on screen since y
// points down) about its centre X, Y. W runs along the angle, H across it.
// A track space is a Rect along its track; a label box is a Rect with Angle 0.
type Rect struct {
	X, Y  float64
	W, H  float64
	Angle float64
}

// Circle is a dot: a city or a country area.
type Circle struct {
	X, Y, R float64
}

// axes returns the unit vectors along W and along H.
func (r Rect) axes() (ux, uy, vx, vy float64) {
	s, c := math.Sincos(r.Angle)
	return c, s, -s, c
}

// Corners lists the four corners, going round.
func (r Rect) Corners() [4]data.Point {
	ux, uy, vx, vy := r.axes()
	hw, hh := r.W/2, r.H/2
	return [4]data.Point{
		{X: r.X - ux*hw - vx*hh, Y: r.Y - uy*hw - vy*hh},
		{X: r.X + ux*hw - vx*hh, Y: r.Y + uy*hw - vy*hh},
		{X: r.X + ux*hw + vx*hh, Y: r.Y + uy*hw + vy*hh},
		{X: r.X - ux*hw + vx*hh, Y: r.Y - uy*hw + vy*hh},
	}
}

// Scale returns r with its position and size multiplied by k.
func (r Rect) Scale(k float64) Rect {
	return Rect{r.X * k, r.Y * k, r.W * k, r.H * k, r.Angle}
}

// OverlapsCircle reports whether r and the disc c share any area.
func (r Rect) OverlapsCircle(c Circle) bool {
	ux, uy, vx, vy := r.axes()
	dx, dy := c.X-r.X, c.Y-r.Y
	// the disc's centre in r's own frame, then the nearest point of r to it
	a, b := dx*ux+dy*uy, dx*vx+dy*vy
	na := math.Max(-r.W/2, math.Min(r.W/2, a))
	nb := math.Max(-r.H/2, math.Min(r.H/2, b))
	return math.Hypot(a-na, b-nb) < c.R
}

// Within reports whether every corner of r lies inside [0,w]×[0,h].
func (r Rect) Within(w, h float64) bool {
	for _, p := range r.Corners() {
		if p.X < 0 || p.Y < 0 || p.X > w || p.Y > h {
			return false
		}
	}
	return true
}
