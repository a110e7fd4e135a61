package imaging

import (
	"math"

	"conductor/data"
	"conductor/imaging/layout"
)

// Track geometry comes from the layout package (layout.TrackSpaces), the
// same geometry the layout tests prove free of collisions; it is copied here
// once per board into the form the drawing code uses.

// space is one rectangle of a track: centre, direction and size, in board units.
type space struct {
	X, Y  float64
	Angle float64 // along the track, radians
	L, W  float64 // along, across
}

// corners returns the rectangle's four corners, grown by d on every side.
func (s space) corners(d float64) [4]data.Point {
	cx, cy := math.Cos(s.Angle), math.Sin(s.Angle)
	hl, hw := s.L/2+d, s.W/2+d
	return [4]data.Point{
		{X: s.X - cx*hl + cy*hw, Y: s.Y - cy*hl - cx*hw},
		{X: s.X + cx*hl + cy*hw, Y: s.Y + cy*hl - cx*hw},
		{X: s.X + cx*hl - cy*hw, Y: s.Y + cy*hl + cx*hw},
		{X: s.X - cx*hl - cy*hw, Y: s.Y - cy*hl + cx*hw},
	}
}

// layoutTracks returns the spaces of every track, indexed by TrackID, from A to B.
func layoutTracks(b *data.Board) [][]space {
	out := make([][]space, len(b.Tracks))
	for id := range b.Tracks {
		for _, r := range layout.TrackSpaces(b, data.TrackID(id), 1) {
			out[id] = append(out[id], space{X: r.X, Y: r.Y, Angle: r.Angle, L: r.W, W: r.H})
		}
	}
	return out
}

// trackEnd is where track t meets node c: the city, or for a country the
// area the track runs to.
func trackEnd(b *data.Board, t *data.Track, c data.CityID) data.Point {
	city := &b.Cities[c]
	if city.Country {
		if co := b.CountryOf(c); co != nil && t.Area >= 0 && t.Area < len(co.Areas) {
			return co.Areas[t.Area]
		}
	}
	return data.Point{X: city.X, Y: city.Y}
}
