package imaging

import "image"

// tileSize is the side of the squares the dirty bookkeeping works in: small
// enough that a track's box does not drag in much of the map, large enough
// that marking stays cheap.
const tileSize = 32

// tileSet records which tiles of an image have been drawn on.
type tileSet struct {
	bounds image.Rectangle
	cols   int
	dirty  []bool
	list   []int // dirty tiles in the order they were first marked
}

func newTileSet(bounds image.Rectangle) *tileSet {
	cols := (bounds.Dx() + tileSize - 1) / tileSize
	rows := (bounds.Dy() + tileSize - 1) / tileSize
	return &tileSet{bounds: bounds, cols: cols, dirty: make([]bool, cols*rows)}
}

func (t *tileSet) mark(r image.Rectangle) {
	r = r.Intersect(t.bounds)
	if r.Empty() {
		return
	}
	for ty := r.Min.Y / tileSize; ty <= (r.Max.Y-1)/tileSize; ty++ {
		for tx := r.Min.X / tileSize; tx <= (r.Max.X-1)/tileSize; tx++ {
			i := ty*t.cols + tx
			if !t.dirty[i] {
				t.dirty[i] = true
				t.list = append(t.list, i)
			}
		}
	}
}

// rect is the pixel rectangle of tile i.
func (t *tileSet) rect(i int) image.Rectangle {
	x, y := (i%t.cols)*tileSize, (i/t.cols)*tileSize
	return image.Rect(x, y, x+tileSize, y+tileSize).Intersect(t.bounds)
}

func (t *tileSet) reset() {
	for _, i := range t.list {
		t.dirty[i] = false
	}
	t.list = t.list[:0]
}

// pixels counts the pixels of the dirty tiles.
func (t *tileSet) pixels() int {
	n := 0
	for _, i := range t.list {
		r := t.rect(i)
		n += r.Dx() * r.Dy()
	}
	return n
}

// any reports whether a dirty tile meets r.
func (t *tileSet) any(r image.Rectangle) bool {
	r = r.Intersect(t.bounds)
	if r.Empty() {
		return false
	}
	for ty := r.Min.Y / tileSize; ty <= (r.Max.Y-1)/tileSize; ty++ {
		for tx := r.Min.X / tileSize; tx <= (r.Max.X-1)/tileSize; tx++ {
			if t.dirty[ty*t.cols+tx] {
				return true
			}
		}
	}
	return false
}
