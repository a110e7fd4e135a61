package data

import "math"

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
func (r Rect) Corners() [4]Point {
	ux, uy, vx, vy := r.axes()
	hw, hh := r.W/2, r.H/2
	return [4]Point{
		{r.X - ux*hw - vx*hh, r.Y - uy*hw - vy*hh},
		{r.X + ux*hw - vx*hh, r.Y + uy*hw - vy*hh},
		{r.X + ux*hw + vx*hh, r.Y + uy*hw + vy*hh},
		{r.X - ux*hw + vx*hh, r.Y - uy*hw + vy*hh},
	}
}

// Grow returns r with every side pushed out by d.
func (r Rect) Grow(d float64) Rect {
	r.W += 2 * d
	r.H += 2 * d
	return r
}

// Scale returns r with its position and size multiplied by k.
func (r Rect) Scale(k float64) Rect {
	return Rect{r.X * k, r.Y * k, r.W * k, r.H * k, r.Angle}
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

func project(c [4]Point, ax [2]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range c {
		d := p.X*ax[0] + p.Y*ax[1]
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
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

// Overlaps reports whether two discs share any area.
func (c Circle) Overlaps(o Circle) bool {
	return math.Hypot(c.X-o.X, c.Y-o.Y) < c.R+o.R
}
