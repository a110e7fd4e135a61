package imaging

import (
	"image"
	"image/color"
	"image/draw"
	"sync"
)

// layer is a pre-drawn picture (its static part) that frames are drawn on.
// Drawing a frame starts from a pooled copy of the static RGBA and palette
// images; only the tiles the dynamic drawing touched are converted to
// palette indexes, and afterwards only those are restored. A layer is safe
// for concurrent use: each goroutine gets its own frame from the pool.
type layer struct {
	w, h      int
	static    *image.RGBA
	staticPal *image.Paletted
	q         *quantizer
	frames    sync.Pool
}

// frame is one reusable drawing surface of a layer.
type frame struct {
	rgba  *image.RGBA
	pal   *image.Paletted
	c     *canvas
	tiles *tileSet
}

// newLayer draws the static part, then builds the palette from it and from a
// probe drawing of typical dynamic content (so the antialiasing blends of
// player colours have entries too).
func newLayer(w, h int, drawStatic, probe func(*canvas)) *layer {
	rect := image.Rect(0, 0, w, h)
	static := image.NewRGBA(rect)
	f := newFaces()
	drawStatic(newCanvas(static, f))
	sample := image.NewRGBA(rect)
	copy(sample.Pix, static.Pix)
	pc := newCanvas(sample, f)
	pc.ref = static
	probe(pc)
	l := &layer{w: w, h: h, static: static, q: newQuantizer(flatColors(), playerColors[:], static, sample)}
	l.staticPal = image.NewPaletted(rect, l.q.pal)
	l.q.convert(l.staticPal, static, rect)
	return l
}

func (l *layer) get() *frame {
	if f, ok := l.frames.Get().(*frame); ok {
		return f
	}
	rect := image.Rect(0, 0, l.w, l.h)
	f := &frame{rgba: image.NewRGBA(rect), pal: image.NewPaletted(rect, l.q.pal), tiles: newTileSet(rect)}
	copy(f.rgba.Pix, l.static.Pix)
	copy(f.pal.Pix, l.staticPal.Pix)
	f.c = newCanvas(f.rgba, newFaces())
	f.c.tiles = f.tiles
	f.c.ref = l.static
	return f
}

// finish converts the touched tiles and returns the frame's palette image,
// valid until put.
func (l *layer) finish(f *frame) *image.Paletted {
	for _, i := range f.tiles.list {
		l.q.convert(f.pal, f.rgba, f.tiles.rect(i))
	}
	return f.pal
}

// put restores the touched tiles from the static layer and pools the frame.
func (l *layer) put(f *frame) {
	for _, i := range f.tiles.list {
		r := f.tiles.rect(i)
		draw.Draw(f.rgba, r, l.static, r.Min, draw.Src)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			o := f.pal.PixOffset(r.Min.X, y)
			copy(f.pal.Pix[o:o+r.Dx()], l.staticPal.Pix[o:o+r.Dx()])
		}
	}
	f.tiles.reset()
	l.frames.Put(f)
}

// full draws the whole picture from scratch, static and dynamic, without
// any reuse: the reference the fast path must match pixel for pixel.
func (l *layer) full(drawStatic, drawDynamic func(*canvas)) (*image.RGBA, *image.Paletted) {
	rect := image.Rect(0, 0, l.w, l.h)
	im := image.NewRGBA(rect)
	c := newCanvas(im, newFaces())
	drawStatic(c)
	c.ref = image.NewRGBA(rect)
	copy(c.ref.Pix, im.Pix)
	drawDynamic(c)
	pal := image.NewPaletted(rect, l.q.pal)
	l.q.convert(pal, im, rect)
	return im, pal
}

// flatColors lists every colour drawn as a flat fill, so each is in the palette exactly.
func flatColors() []color.RGBA {
	out := []color.RGBA{ink, paper, sea, seaDeep, land, coast, foreign, foreignDisc, countryInk, halo,
		spaceEdge, freeEdge, carEdge, carEdgeLow, tunnelEdge, glow, panelBG, panelHead, panelSub, panelRule, turnBG,
		muted, good, bad, cityFill, cityRing, miniBG}
	out = append(out, cardColors[:]...)
	out = append(out, playerColors[:]...)
	for _, name := range goodsNames {
		out = append(out, goodsColors[name])
	}
	return out
}
