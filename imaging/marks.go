package imaging

import (
	"image/color"
	"math"
)

// markShape is the shape marked on a seat's trains, stations and panel
// swatch, so that seats differ by more than hue.
type markShape int

const (
	circleMark markShape = iota
	squareMark
	triangleMark
	diamondMark
	crossMark
)

// seats are the seat colours in seat order with their marks: the one
// table the pictures draw from, and the docs' table for colour-blind
// players is generated from (internal/docgen, through SeatMark).
var seats = [...]struct {
	colour string // as the catalogues' color.* keys name it
	shape  markShape
}{{"red", circleMark}, {"blue", squareMark}, {"green", triangleMark}, {"yellow", diamondMark}, {"black", crossMark}}

var shapeNames = [...]string{circleMark: "circle", squareMark: "square", triangleMark: "triangle", diamondMark: "diamond", crossMark: "cross"}

// SeatMark names a seat's colour ("red", as the color.* catalogue keys
// do) and the shape marked on its trains ("circle"), for documentation.
func SeatMark(seat int) (colour, shape string) {
	s := seats[seatIndex(seat)]
	return s.colour, shapeNames[s.shape]
}

// drawMarker draws seat's shape centred on (x, y) with radius r.
func drawMarker(c *canvas, seat int, x, y, r float64, col color.RGBA) {
	switch seats[seatIndex(seat)].shape {
	case circleMark:
		c.circle(x, y, r, col)
	case squareMark:
		s := r * 0.88
		c.fillPoly([]pt{{x - s, y - s}, {x + s, y - s}, {x + s, y + s}, {x - s, y + s}}, col)
	case triangleMark:
		h := r * 1.1
		c.fillPoly([]pt{{x, y - h}, {x + h*0.95, y + h*0.7}, {x - h*0.95, y + h*0.7}}, col)
	case diamondMark:
		h := r * 1.15
		c.fillPoly([]pt{{x, y - h}, {x + h, y}, {x, y + h}, {x - h, y}}, col)
	default:
		c.fillPoly(crossPoly(x, y, r*1.05, r*0.36), col)
	}
}

// crossPoly is an X of arm length r and half-thickness w: per arm its two
// tip corners, then the notch between it and the next arm.
func crossPoly(x, y, r, w float64) []pt {
	out := make([]pt, 0, 12)
	for k := range 4 {
		a := math.Pi/4 + float64(k)*math.Pi/2
		ca, sa := math.Cos(a), math.Sin(a)
		tip := pt{x + ca*r, y + sa*r}
		out = append(out, pt{tip.X + sa*w, tip.Y - ca*w}, pt{tip.X - sa*w, tip.Y + ca*w})
		b := a + math.Pi/4
		out = append(out, pt{x + math.Cos(b)*w*math.Sqrt2, y + math.Sin(b)*w*math.Sqrt2})
	}
	return out
}

// drawStation draws a little station house in the seat's colour.
func drawStation(c *canvas, seat int, x, y float64) {
	col := playerColor(seat)
	edge := carEdge
	if seatIndex(seat) == 4 {
		edge = carEdgeLow
	}
	house := []pt{{x - 7, y + 6}, {x - 7, y - 2}, {x, y - 8}, {x + 7, y - 2}, {x + 7, y + 6}}
	c.fillPoly(house, col)
	c.strokePoly(house, true, 1.4, edge, nil)
	drawMarker(c, seat, x, y+1.5, 2.6, markerInk(seat))
}

// drawPassenger draws a small figure in the seat's colour.
func drawPassenger(c *canvas, seat int, x, y float64) {
	col := playerColor(seat)
	edge := carEdge
	if seatIndex(seat) == 4 {
		edge = carEdgeLow
	}
	body := []pt{{x - 5, y + 7}, {x - 4, y}, {x + 4, y}, {x + 5, y + 7}}
	c.fillPoly(body, col)
	c.strokePoly(body, true, 1.2, edge, nil)
	c.circle(x, y-4, 3.6, col)
	c.ring(x, y-4, 3.6, 1.2, edge)
}
