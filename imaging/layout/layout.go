// Package layout is the map's drawing geometry: where each dot, name and
// track space goes, and the font names are measured with. The renderer
// draws it and the layout tests prove it free of collisions, so what the
// tests check is what gets drawn. The board data (positions, label anchors)
// comes from package data; nothing here is needed to play.
package layout

import (
	"math"

	"conductor/data"
)

// All sizes
// are in board units: at scale 1 one unit is one pixel, and a renderer that
// draws the board's Width×Height space into W pixels passes scale W/Width.
// Everything scales together, so a layout without collisions at scale 1 has
// none at any scale.
//
// Every board is 1280 units wide: the map part of a 1600 px image beside a
// 320 px panel, so at full size scale is 1 and names are LabelSize pixels.
// Heights follow each map's shape (Märklin is taller: Germany is).
const (
	CityRadius    = 8.0  // a city's dot
	CountryRadius = 14.0 // a country area's dot (Märklin)

	SpaceWidth     = 10.0 // a track space across the track
	TrackPitch     = 12.0 // between the centre lines of parallel tracks
	SpaceGap       = 3.0  // between consecutive spaces of a track
	EndGap         = 3.0  // at least, between a dot's edge and a track's first space
	MaxEndGap      = 14.0 // at most, when many tracks crowd a dot
	MinSpaceLength = 24.0 // shortest space along its track the layout allows

	// MaxBend is how far (radians) a track may turn away from the straight
	// line where it leaves a dot, to keep clear of its neighbours.
	MaxBend = math.Pi * 35 / 180

	LabelGap = 3.0 // between a dot's edge and its name's box
	LabelPad = 2.0 // around a name's ink, room for a halo
	// MaxLabelShift bounds City.LabelDX and LabelDY, so a name stays by its dot.
	MaxLabelShift = 24.0

	// clearance kept between track spaces of different tracks.
	spaceClearance = 1.0
)

// Dot is one place drawn on the map: a city, or one area of a country.
type Dot struct {
	Node data.CityID
	Area int // which of a country's areas; 0 for a city
	Circle
}

// Dots lists every city and every country area, cities first.
func Dots(b *data.Board, scale float64) []Dot {
	var out []Dot
	for i, c := range b.Cities {
		if !c.Country {
			out = append(out, scaledDot(b, data.CityID(i), 0, scale))
		}
	}
	for _, c := range b.Countries {
		for a := range c.Areas {
			out = append(out, scaledDot(b, c.Node, a, scale))
		}
	}
	return out
}

// dot returns a node's dot at scale 1; area matters for countries only.
func dot(b *data.Board, node data.CityID, area int) Dot {
	c := &b.Cities[node]
	if !c.Country {
		return Dot{Node: node, Circle: Circle{c.X, c.Y, CityRadius}}
	}
	p := b.CountryOf(node).Areas[area]
	return Dot{Node: node, Area: area, Circle: Circle{p.X, p.Y, CountryRadius}}
}

func scaledDot(b *data.Board, node data.CityID, area int, scale float64) Dot {
	d := dot(b, node, area)
	d.X, d.Y, d.R = d.X*scale, d.Y*scale, d.R*scale
	return d
}

func endArea(b *data.Board, tr *data.Track, end data.CityID) int {
	if b.Cities[end].Country {
		return tr.Area
	}
	return 0
}

// anchors maps a label anchor to the side of the dot the name sits on.
var anchors = map[string][2]float64{
	"n": {0, -1}, "ne": {1, -1}, "e": {1, 0}, "se": {1, 1},
	"s": {0, 1}, "sw": {-1, 1}, "w": {-1, 0}, "nw": {-1, -1},
}

// anchorOrder lists the anchors in a fixed order, for deterministic choices.
var anchorOrder = [...]string{"n", "ne", "e", "se", "s", "sw", "w", "nw"}

// DefaultLabel is the anchor of a city whose Label is empty.
const DefaultLabel = "s"

// LabelAnchor returns the side of a dot its name sits on. A city says so in
// its Label; a country area's name sits away from its tracks, towards the
// edge of the map.
func LabelAnchor(b *data.Board, d Dot) string {
	c := &b.Cities[d.Node]
	if !c.Country {
		if c.Label == "" {
			return DefaultLabel
		}
		return c.Label
	}
	var sx, sy float64
	for _, t := range b.Adj[d.Node] {
		tr := &b.Tracks[t]
		if tr.Area != d.Area {
			continue
		}
		o := dot(b, tr.Other(d.Node), 0)
		p := dot(b, d.Node, d.Area)
		l := math.Hypot(o.X-p.X, o.Y-p.Y)
		sx, sy = sx+(o.X-p.X)/l, sy+(o.Y-p.Y)/l
	}
	if sx == 0 && sy == 0 {
		return DefaultLabel
	}
	// the side opposite the tracks, or the nearest to it that keeps the
	// name on the map
	away := math.Atan2(-sy, -sx)
	best, bestTurn := DefaultLabel, math.Inf(1)
	for _, side := range anchorOrder {
		v := anchors[side]
		turn := math.Abs(math.Remainder(math.Atan2(v[1], v[0])-away, 2*math.Pi))
		if turn < bestTurn && labelAt(b, d, side, 1).Box.Within(float64(b.Width), float64(b.Height)) {
			best, bestTurn = side, turn
		}
	}
	return best
}

// Label is a name as drawn: its text, the box it covers and where its
// baseline starts, at some scale.
type Label struct {
	Text string
	Box  Rect    // axis-aligned (Angle 0), LabelPad around the ink
	X, Y float64 // baseline origin of the text
	Size float64 // font size in pixels (LabelFace at the same scale)
}

// Label places a dot's name beside it, on the side its anchor says.
func LabelOf(b *data.Board, d Dot, scale float64) Label {
	d = dot(b, d.Node, d.Area) // work at scale 1, scale at the end
	return labelAt(b, d, LabelAnchor(b, d), scale)
}

func labelAt(b *data.Board, d Dot, anchor string, scale float64) Label {
	name := b.Cities[d.Node].Name
	ink := measureName(name)
	w, h := ink.right-ink.left+2*LabelPad, ink.bottom-ink.top+2*LabelPad
	side := anchors[anchor]
	reach := d.R + LabelGap
	if side[0] != 0 && side[1] != 0 {
		reach *= math.Sqrt2 / 2
	}
	var left, top float64
	switch side[0] {
	case 0:
		left = d.X - w/2
	case 1:
		left = d.X + reach
	default:
		left = d.X - reach - w
	}
	switch side[1] {
	case 0:
		top = d.Y - h/2
	case 1:
		top = d.Y + reach
	default:
		top = d.Y - reach - h
	}
	if c := &b.Cities[d.Node]; !c.Country {
		left, top = left+c.LabelDX, top+c.LabelDY
	}
	return Label{
		Text: name,
		Box:  Rect{X: (left + w/2) * scale, Y: (top + h/2) * scale, W: w * scale, H: h * scale},
		X:    (left + LabelPad - ink.left) * scale,
		Y:    (top + LabelPad - ink.top) * scale,
		Size: LabelSize * scale,
	}
}
