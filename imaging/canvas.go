package imaging

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// canvas draws on an RGBA image and, when tiles is set, records which tiles
// every operation may have touched, so that only those are turned back into
// palette indexes and restored for the next frame.
type canvas struct {
	im    *image.RGBA
	dc    *gg.Context
	f     *faces
	src   *image.Uniform
	tiles *tileSet    // nil: no bookkeeping (static layers, full redraws)
	ref   *image.RGBA // the static layer this frame started from
}

func newCanvas(im *image.RGBA, f *faces) *canvas {
	return &canvas{im: im, dc: gg.NewContextForRGBA(im), f: f, src: image.NewUniform(color.RGBA{})}
}

// pt is a point in image pixels.
type pt struct{ X, Y float64 }

// touch marks the pixels of a float box, grown by a margin for antialiasing.
func (c *canvas) touch(x0, y0, x1, y1 float64) {
	if c.tiles == nil {
		return
	}
	c.tiles.mark(image.Rect(int(math.Floor(x0))-2, int(math.Floor(y0))-2, int(math.Ceil(x1))+2, int(math.Ceil(y1))+2))
}

func (c *canvas) touchPts(pts []pt, grow float64) {
	if c.tiles == nil || len(pts) == 0 {
		return
	}
	x0, y0, x1, y1 := pts[0].X, pts[0].Y, pts[0].X, pts[0].Y
	for _, p := range pts[1:] {
		x0, y0 = math.Min(x0, p.X), math.Min(y0, p.Y)
		x1, y1 = math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	c.touch(x0-grow, y0-grow, x1+grow, y1+grow)
}

func (c *canvas) path(pts []pt, closed bool) {
	c.dc.ClearPath()
	c.dc.MoveTo(pts[0].X, pts[0].Y)
	for _, p := range pts[1:] {
		c.dc.LineTo(p.X, p.Y)
	}
	if closed {
		c.dc.ClosePath()
	}
}

// fillPoly fills a closed polygon.
func (c *canvas) fillPoly(pts []pt, col color.RGBA) {
	c.touchPts(pts, 1)
	c.path(pts, true)
	c.dc.SetColor(col)
	c.dc.Fill()
}

// strokePoly strokes a polyline; dash is nil for a solid line.
func (c *canvas) strokePoly(pts []pt, closed bool, width float64, col color.RGBA, dash []float64) {
	c.touchPts(pts, width)
	c.path(pts, closed)
	c.dc.SetColor(col)
	c.dc.SetLineWidth(width)
	c.dc.SetLineJoinRound()
	c.dc.SetLineCapRound()
	c.dc.SetDash(dash...)
	c.dc.Stroke()
	c.dc.SetDash()
}

func (c *canvas) circle(x, y, r float64, col color.RGBA) {
	c.touch(x-r, y-r, x+r, y+r)
	c.dc.ClearPath()
	c.dc.DrawCircle(x, y, r)
	c.dc.SetColor(col)
	c.dc.Fill()
}

func (c *canvas) ring(x, y, r, width float64, col color.RGBA) {
	c.touch(x-r-width, y-r-width, x+r+width, y+r+width)
	c.dc.ClearPath()
	c.dc.DrawCircle(x, y, r)
	c.dc.SetColor(col)
	c.dc.SetLineWidth(width)
	c.dc.Stroke()
}

func (c *canvas) roundRect(x, y, w, h, r float64, col color.RGBA) {
	c.touch(x, y, x+w, y+h)
	c.dc.ClearPath()
	c.dc.DrawRoundedRectangle(x, y, w, h, r)
	c.dc.SetColor(col)
	c.dc.Fill()
}

func (c *canvas) roundRectStroke(x, y, w, h, r, width float64, col color.RGBA) {
	c.touch(x-width, y-width, x+w+width, y+h+width)
	c.dc.ClearPath()
	c.dc.DrawRoundedRectangle(x, y, w, h, r)
	c.dc.SetColor(col)
	c.dc.SetLineWidth(width)
	c.dc.Stroke()
}

// rect fills whole pixels, without antialiasing: cheap and exact.
func (c *canvas) rect(r image.Rectangle, col color.RGBA) {
	if c.tiles != nil {
		c.tiles.mark(r)
	}
	c.src.C = col
	draw.Draw(c.im, r, c.src, image.Point{}, draw.Src)
}

// measure returns the advance width of s.
func (c *canvas) measure(face font.Face, s string) float64 {
	return float64(font.MeasureString(face, s)) / 64
}

// text draws s with its anchor (ax, ay) at (x, y): ax 0 left, 0.5 centre, 1
// right; ay on the cap height, 0 top, 0.5 middle, 1 baseline. It returns
// the width drawn.
func (c *canvas) text(face font.Face, s string, x, y, ax, ay float64, col color.RGBA) float64 {
	bx, by, w := anchorText(face, s, x, y, ax, ay)
	c.textAt(face, s, bx, by, col)
	return w
}

// anchorText returns the baseline origin (whole pixels) and width of s anchored as canvas.text does.
func anchorText(face font.Face, s string, x, y, ax, ay float64) (bx, by, w float64) {
	w = float64(font.MeasureString(face, s)) / 64
	m := face.Metrics()
	capH := float64(m.CapHeight) / 64
	if capH == 0 {
		capH = float64(m.Ascent) / 64 * 0.7
	}
	return math.Round(x - ax*w), math.Round(y + capH - ay*capH), w
}

// textAt draws s with its baseline starting at (x, y).
func (c *canvas) textAt(face font.Face, s string, x, y float64, col color.RGBA) {
	m := face.Metrics()
	w := c.measure(face, s)
	c.touch(x-2, y-float64(m.Ascent)/64-1, x+w+2, y+float64(m.Descent)/64+1)
	c.src.C = col
	d := font.Drawer{Dst: c.im, Src: c.src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}}
	d.DrawString(s)
}

// haloOffsets trace a ring of radius about 2 px around text.
var haloOffsets = [...]pt{{-2, 0}, {2, 0}, {0, -2}, {0, 2}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1},
	{-2, -1}, {2, -1}, {-2, 1}, {2, 1}, {-1, -2}, {1, -2}, {-1, 2}, {1, 2}}

// haloTextAt draws text from a baseline origin over a soft outline of the
// halo colour, legible on any background.
func (c *canvas) haloTextAt(face font.Face, s string, x, y float64, col, hc color.RGBA) {
	for _, o := range haloOffsets {
		c.textAt(face, s, x+o.X, y+o.Y, hc)
	}
	c.textAt(face, s, x, y, col)
}
