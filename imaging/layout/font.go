package layout

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// LabelSize is the size in pixels of city names at scale 1.
const LabelSize = 15.0

var labelFont = sync.OnceValue(func() *opentype.Font {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		panic(err) // the font is compiled in: a failure is a broken build
	}
	return f
})

// LabelFace returns the face city names are drawn and measured with, sized
// for the given scale. Unhinted, so that widths scale linearly and the boxes
// measured at scale 1 hold at every scale. A face is not safe for concurrent
// use: each caller gets its own.
func LabelFace(scale float64) font.Face {
	f, err := opentype.NewFace(labelFont(), &opentype.FaceOptions{Size: LabelSize * scale, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err)
	}
	return f
}

// inkBox is a name's extent at scale 1 relative to its baseline origin:
// left/right from the origin, top (negative, up) and bottom below the baseline.
type inkBox struct {
	left, right, top, bottom float64
}

var (
	inkMu    sync.Mutex
	inkCache = map[string]inkBox{}
	inkFace  font.Face
	capTop   float64
)

// measureName returns the box a name covers at scale 1: its ink, widened
// vertically to at least cap height above the baseline so that names with and
// without accents or descenders line up.
func measureName(s string) inkBox {
	inkMu.Lock()
	defer inkMu.Unlock()
	if b, ok := inkCache[s]; ok {
		return b
	}
	if inkFace == nil {
		inkFace = LabelFace(1)
		h, _ := font.BoundString(inkFace, "H")
		capTop = f26(h.Min.Y)
	}
	bounds, _ := font.BoundString(inkFace, s)
	b := inkBox{left: f26(bounds.Min.X), right: f26(bounds.Max.X), top: min(f26(bounds.Min.Y), capTop), bottom: max(f26(bounds.Max.Y), 0)}
	inkCache[s] = b
	return b
}

func f26(v fixed.Int26_6) float64 { return float64(v) / 64 }
