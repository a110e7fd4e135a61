package imaging

import (
	"image"
	"math"
	"sync"

	"conductor/data"
)

// Image sizes of the board picture: the map on the left, the panel on the right.
const (
	imageWidth = 1600
	panelWidth = 320
	mapWidth   = imageWidth - panelWidth
	minHeight  = 760
)

// view maps board units to image pixels.
type view struct {
	scale, ox, oy float64
}

func (v view) p(x, y float64) pt { return pt{v.ox + x*v.scale, v.oy + y*v.scale} }

func (v view) pp(p data.Point) pt { return v.p(p.X, p.Y) }

// boardArt is everything about a board's picture that does not change during
// a game: geometry, label places and the pre-drawn layers. It is built once
// per board and shared read-only by every renderer goroutine.
type boardArt struct {
	b      *data.Board
	v      view
	w, h   int
	spaces [][]space  // board units, per TrackID
	labels []*label   // city names, then country names
	badges [][]pt     // per CityID: free spots around the dot for stations, goods, passengers (pixels)
	land   *landField // inside: land
	water  *landField // inside: a sea within the map

	boardMu  sync.Mutex
	boardLs  map[Letters]*lazyLayer // the board picture's layer, per set of letters
	handOnce sync.Once
	handL    *layer
	landOnce sync.Once
	landIm   *image.RGBA // the map's land and water (see landImage)
	miniOnce sync.Once
	miniQ    []trackQuad // the hand's mini map spaces
}

func newBoardArt(b *data.Board) *boardArt {
	s := float64(mapWidth) / float64(b.Width)
	a := &boardArt{b: b, v: view{scale: s}, w: imageWidth}
	a.h = max(minHeight, int(math.Round(float64(b.Height)*s)))
	a.v.oy = math.Round((float64(a.h) - float64(b.Height)*s) / 2)
	a.spaces = layoutTracks(b)
	a.land, a.water = buildLand(b)
	a.placeLabels()
	return a
}

// corners returns a space's corners in pixels, grown by d pixels.
func (v view) corners(sp space, d float64) []pt {
	cs := sp.corners(d / v.scale)
	return []pt{v.pp(cs[0]), v.pp(cs[1]), v.pp(cs[2]), v.pp(cs[3])}
}

// centre returns a space's centre in pixels.
func (v view) centre(sp space) pt { return v.p(sp.X, sp.Y) }

// city is a node's position in pixels.
func (v view) city(b *data.Board, c data.CityID) pt {
	city := &b.Cities[c]
	return v.p(city.X, city.Y)
}

// cityPt is a node's position on the board picture.
func (a *boardArt) cityPt(c data.CityID) pt { return a.v.city(a.b, c) }
