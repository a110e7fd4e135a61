package imaging

import (
	"image"
	"slices"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

var (
	parseFonts          sync.Once
	regularTTF, boldTTF *opentype.Font
)

func goFonts() (regular, bold *opentype.Font) {
	parseFonts.Do(func() {
		var err error
		if regularTTF, err = opentype.Parse(goregular.TTF); err != nil {
			panic(err) // the font is compiled in: failing here is a broken build
		}
		if boldTTF, err = opentype.Parse(gobold.TTF); err != nil {
			panic(err)
		}
	})
	return regularTTF, boldTTF
}

// faces are the type faces one canvas draws with. A face caches glyphs and is
// not safe for concurrent use, so every canvas owns its own set.
// fontFace is the face type the canvas draws with.
type fontFace = font.Face

type faces struct {
	label      font.Face // city names on the board
	small      font.Face // country names, goods values, space letters
	tiny       font.Face // letters inside track spaces
	body       font.Face // panel text
	note       font.Face // panel text where body is too wide
	bodyBold   font.Face
	title      font.Face // panel headings and scores
	big        font.Face // hand and final headings
	cardLetter font.Face // the letter on a card
}

func newFaces() *faces {
	regular, bold := goFonts()
	return &faces{
		label:      newCachedFace(bold, 15),
		small:      newCachedFace(bold, 12),
		tiny:       newCachedFace(bold, 9),
		body:       newCachedFace(regular, 14),
		note:       newCachedFace(regular, 12),
		bodyBold:   newCachedFace(bold, 15),
		title:      newCachedFace(bold, 19),
		big:        newCachedFace(bold, 26),
		cardLetter: newCachedFace(bold, 22),
	}
}

// cachedFace remembers rasterised glyphs. Positions are quantised to a
// quarter pixel horizontally and a whole pixel vertically, so a string drawn
// twice at the same place gives the same pixels whatever was drawn before:
// the fast and the full redraw paths stay identical.
type cachedFace struct {
	face     font.Face
	glyphs   map[glyphKey]*cachedGlyph
	advances map[rune]cachedAdvance
	kerns    map[[2]rune]fixed.Int26_6
	metrics  font.Metrics
}

type glyphKey struct {
	r    rune
	subX uint8 // quarter pixel
}

type cachedGlyph struct {
	dr      image.Rectangle // relative to the integer dot
	mask    *image.Alpha
	advance fixed.Int26_6
	ok      bool
}

type cachedAdvance struct {
	advance fixed.Int26_6
	ok      bool
}

func newCachedFace(f *opentype.Font, px float64) *cachedFace {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	return wrapFace(face)
}

// wrapFace adds the glyph cache to a face.
func wrapFace(face font.Face) *cachedFace {
	return &cachedFace{face: face, glyphs: map[glyphKey]*cachedGlyph{},
		advances: map[rune]cachedAdvance{}, kerns: map[[2]rune]fixed.Int26_6{}, metrics: face.Metrics()}
}

func (c *cachedFace) Close() error { return nil }

func (c *cachedFace) Metrics() font.Metrics { return c.metrics }

func (c *cachedFace) Kern(r0, r1 rune) fixed.Int26_6 {
	k, ok := c.kerns[[2]rune{r0, r1}]
	if !ok {
		k = c.face.Kern(r0, r1)
		c.kerns[[2]rune{r0, r1}] = k
	}
	return k
}

func (c *cachedFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	ix, sub := dot.X.Floor(), uint8((dot.X&63)>>4)
	iy := (dot.Y + 32).Floor()
	key := glyphKey{r, sub}
	g, ok := c.glyphs[key]
	if !ok {
		dr, mask, maskp, adv, gok := c.face.Glyph(fixed.Point26_6{X: fixed.Int26_6(sub) << 4}, r)
		g = &cachedGlyph{dr: dr, advance: adv, ok: gok}
		if mask != nil {
			a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
			for y := 0; y < dr.Dy(); y++ {
				for x := 0; x < dr.Dx(); x++ {
					a.Pix[y*a.Stride+x] = alphaAt(mask, maskp.X+x, maskp.Y+y)
				}
			}
			g.mask = a
		}
		c.glyphs[key] = g
	}
	if g.mask == nil {
		return image.Rectangle{}, nil, image.Point{}, g.advance, false
	}
	return g.dr.Add(image.Pt(ix, iy)), g.mask, image.Point{}, g.advance, g.ok
}

func alphaAt(m image.Image, x, y int) uint8 {
	if a, ok := m.(*image.Alpha); ok {
		return a.Pix[a.PixOffset(x, y)]
	}
	_, _, _, al := m.At(x, y).RGBA()
	return uint8(al >> 8)
}

func (c *cachedFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	return c.face.GlyphBounds(r)
}

func (c *cachedFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	a, ok := c.advances[r]
	if !ok {
		adv, aok := c.face.GlyphAdvance(r)
		a = cachedAdvance{adv, aok}
		c.advances[r] = a
	}
	return a.advance, a.ok
}

// MissingGlyphs lists the characters of s, once each, that the pictures'
// fonts cannot draw (they would show as nothing): spaces and controls
// need no glyph.
func MissingGlyphs(s string) []rune {
	regular, bold := goFonts()
	var buf sfnt.Buffer
	var out []rune
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || slices.Contains(out, r) {
			continue
		}
		for _, f := range []*opentype.Font{regular, bold} {
			if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
				out = append(out, r)
				break
			}
		}
	}
	return out
}
