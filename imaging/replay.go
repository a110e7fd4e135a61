package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"sync"
)

// Replay frames: the board picture at half size, move by move, as an
// animated GIF sharing the board's palette.

const (
	replayDelay     = 70  // hundredths of a second per move
	replayLastDelay = 400 // on the last frame
)

var errReplayBoards = errors.New("imaging: replay frames are on different boards")

var defaultRenderer = sync.OnceValue(NewRenderer)

// Replay renders frames (one scene per move, in order) as an animated GIF
// with a shared renderer.
func Replay(frames []Scene) ([]byte, error) { return defaultRenderer().Replay(frames) }

// Replay renders frames (one scene per move, in order) as an animated GIF,
// 800 pixels wide. Each frame after the first stores only the rectangle
// that changed.
func (r *Renderer) Replay(frames []Scene) ([]byte, error) {
	if len(frames) == 0 {
		return nil, errors.New("imaging: no replay frames")
	}
	b := frames[0].Board
	if b == nil {
		return nil, errNoBoard
	}
	a := r.art(b)
	l := a.boardLayer(frames[0].Letters)
	w, h := l.w/2, l.h/2
	rect := image.Rect(0, 0, w, h)
	// The board's palette plus a transparent entry: a frame after the first
	// covers the rectangle that changed, and within it the pixels that did
	// not change are transparent, which compresses to almost nothing.
	pal := append(color.Palette{}, l.q.pal...)
	for len(pal) < transparent {
		pal = append(pal, color.RGBA{A: 255})
	}
	pal = append(pal, color.RGBA{})
	out := &gif.GIF{Config: image.Config{ColorModel: pal, Width: w, Height: h}}
	var prev *image.Paletted
	for i := range frames {
		s := &frames[i]
		if s.Board == nil || (s.Board != b && r.art(s.Board) != a) {
			return nil, errReplayBoards
		}
		f := l.get()
		a.drawScene(f.c, s)
		cur := image.NewPaletted(rect, pal)
		halve(cur, f.rgba, l.q)
		l.put(f)
		frame := cur
		if prev != nil {
			frame = delta(prev, cur)
		}
		out.Image = append(out.Image, frame)
		out.Delay = append(out.Delay, replayDelay)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
		prev = cur
	}
	out.Delay[len(out.Delay)-1] = replayLastDelay
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// halve box-filters src to half its size and quantises it into dst.
func halve(dst *image.Paletted, src *image.RGBA, q *quantizer) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	for y := range h {
		r0 := src.Pix[src.PixOffset(0, 2*y):]
		r1 := src.Pix[src.PixOffset(0, 2*y+1):]
		d := dst.Pix[dst.PixOffset(0, y):]
		for x := range w {
			i := 8 * x
			var c color.RGBA
			c.R = uint8((uint32(r0[i]) + uint32(r0[i+4]) + uint32(r1[i]) + uint32(r1[i+4]) + 2) / 4)
			c.G = uint8((uint32(r0[i+1]) + uint32(r0[i+5]) + uint32(r1[i+1]) + uint32(r1[i+5]) + 2) / 4)
			c.B = uint8((uint32(r0[i+2]) + uint32(r0[i+6]) + uint32(r1[i+2]) + uint32(r1[i+6]) + 2) / 4)
			c.A = 255
			d[x] = q.index(pack(c))
		}
	}
}

// delta is the part of cur that differs from prev: the smallest rectangle
// holding every changed pixel, unchanged pixels in it transparent.
func delta(prev, cur *image.Paletted) *image.Paletted {
	r := changed(prev, cur)
	if r.Empty() {
		r = image.Rect(0, 0, 1, 1)
	}
	d := image.NewPaletted(r, cur.Palette)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		p := prev.Pix[prev.PixOffset(r.Min.X, y):][:r.Dx()]
		c := cur.Pix[cur.PixOffset(r.Min.X, y):][:r.Dx()]
		o := d.Pix[d.PixOffset(r.Min.X, y):][:r.Dx()]
		for x := range o {
			if c[x] == p[x] {
				o[x] = transparent
			} else {
				o[x] = c[x]
			}
		}
	}
	return d
}

// changed returns the smallest rectangle holding every pixel that differs.
func changed(a, b *image.Paletted) image.Rectangle {
	r := image.Rectangle{}
	w := a.Rect.Dx()
	for y := 0; y < a.Rect.Dy(); y++ {
		ra, rb := a.Pix[y*a.Stride:y*a.Stride+w], b.Pix[y*b.Stride:y*b.Stride+w]
		if bytes.Equal(ra, rb) {
			continue
		}
		x0, x1 := 0, w
		for x0 < w && ra[x0] == rb[x0] {
			x0++
		}
		for x1 > x0 && ra[x1-1] == rb[x1-1] {
			x1--
		}
		r = r.Union(image.Rect(x0, y, x1, y+1))
	}
	return r
}
