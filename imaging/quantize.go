package imaging

import (
	"encoding/binary"
	"image"
	"image/color"
	"sort"
)

// quantizer maps RGBA pixels to a palette of at most 255 colours (the 256th
// index stays free for the replay GIF's transparent pixels). The flat
// colours every element is filled with are in the palette exactly and found
// by an exact hash lookup; antialiased in-between colours fall back to the
// nearest entry through a 15-bit lookup table. It is immutable once built, so
// any number of goroutines may share it.
type quantizer struct {
	pal  color.Palette
	keys [hashSize]uint32 // packed RGBA, 0 = empty (opaque colours are never 0)
	vals [hashSize]uint8
	lut  [1 << 15]uint8
}

const (
	hashSize    = 1024
	maxPalette  = 255
	transparent = maxPalette // palette index left free, used by the replay
)

func pack(c color.RGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

func hashOf(p uint32) uint32 { return (p * 2654435761) >> 22 }

// newQuantizer builds a palette holding every flat colour, then the most
// common other colours of the samples (their antialiasing blends), keeping
// them apart so the entries spread over what is actually drawn.
//
// Reserved colours (the players') are only ever matched exactly: no
// in-between colour is rounded to one, so a pixel in a player's colour is
// always something drawn in it.
func newQuantizer(flat, reserved []color.RGBA, samples ...*image.RGBA) *quantizer {
	q := &quantizer{}
	var entries []color.RGBA
	seen := map[uint32]bool{}
	for _, c := range flat {
		c.A = 255
		if !seen[pack(c)] && len(entries) < maxPalette {
			seen[pack(c)] = true
			entries = append(entries, c)
		}
	}
	type bucket struct {
		n       int
		r, g, b int
		key     int
	}
	buckets := make([]bucket, 1<<15)
	for _, im := range samples {
		for i := 0; i+3 < len(im.Pix); i += 4 {
			p := binary.LittleEndian.Uint32(im.Pix[i:])
			if seen[p] {
				continue
			}
			r, g, b := int(im.Pix[i]), int(im.Pix[i+1]), int(im.Pix[i+2])
			k := (r>>3)<<10 | (g>>3)<<5 | b>>3
			bk := &buckets[k]
			bk.n++
			bk.r += r
			bk.g += g
			bk.b += b
			bk.key = k
		}
	}
	sort.SliceStable(buckets, func(i, j int) bool { return buckets[i].n > buckets[j].n })
	for minDist := 48; len(entries) < maxPalette && minDist >= 0; minDist /= 2 {
		for _, bk := range buckets {
			if bk.n == 0 || len(entries) == maxPalette {
				break
			}
			c := color.RGBA{uint8(bk.r / bk.n), uint8(bk.g / bk.n), uint8(bk.b / bk.n), 255}
			if seen[pack(c)] {
				continue
			}
			if _, d := nearest(entries, c); d <= minDist {
				continue
			}
			seen[pack(c)] = true
			entries = append(entries, c)
		}
		if minDist == 0 {
			break
		}
	}
	q.pal = make(color.Palette, len(entries))
	for i, c := range entries {
		q.pal[i] = c
		p := pack(c)
		h := hashOf(p)
		for q.keys[h] != 0 {
			h = (h + 1) % hashSize
		}
		q.keys[h], q.vals[h] = p, uint8(i)
	}
	// The fallback table chooses among the entries that are not reserved.
	isReserved := map[uint32]bool{}
	for _, c := range reserved {
		c.A = 255
		isReserved[pack(c)] = true
	}
	var openIdx []int
	var openCols []color.RGBA
	for i, c := range entries {
		if !isReserved[pack(c)] {
			openIdx = append(openIdx, i)
			openCols = append(openCols, c)
		}
	}
	for k := range q.lut {
		c := color.RGBA{uint8(k>>10)<<3 | 4, uint8(k>>5&31)<<3 | 4, uint8(k&31)<<3 | 4, 255}
		i, _ := nearest(openCols, c)
		q.lut[k] = uint8(openIdx[i])
	}
	return q
}

// nearest returns the entry closest to c and its weighted squared distance.
func nearest(entries []color.RGBA, c color.RGBA) (int, int) {
	best, bestD := 0, 1<<30
	for i, e := range entries {
		dr, dg, db := int(e.R)-int(c.R), int(e.G)-int(c.G), int(e.B)-int(c.B)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
		}
	}
	return best, bestD
}

// index returns the palette index for a packed opaque pixel.
func (q *quantizer) index(p uint32) uint8 {
	for h := hashOf(p); q.keys[h] != 0; h = (h + 1) % hashSize {
		if q.keys[h] == p {
			return q.vals[h]
		}
	}
	return q.lut[(p>>3&31)<<10|(p>>11&31)<<5|(p>>19&31)]
}

// convert writes the palette indexes of src's pixels in r into dst.
func (q *quantizer) convert(dst *image.Paletted, src *image.RGBA, r image.Rectangle) {
	r = r.Intersect(src.Rect).Intersect(dst.Rect)
	n := r.Dx()
	last, lastIdx := uint32(1), uint8(0) // 1 is no premultiplied colour
	for y := r.Min.Y; y < r.Max.Y; y++ {
		s := src.Pix[src.PixOffset(r.Min.X, y):]
		s = s[:4*n]
		d := dst.Pix[dst.PixOffset(r.Min.X, y):]
		d = d[:n]
		for x := range d {
			p := binary.LittleEndian.Uint32(s[4*x:])
			if p != last {
				last, lastIdx = p, q.index(p)
			}
			d[x] = lastIdx
		}
	}
}
