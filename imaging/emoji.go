package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"

	"conductor/data"
	"conductor/engine"
)

// Emoji pictures: the cards, a destination ticket and a station as Discord
// shows custom emojis, 128×128 on a transparent background and read at
// 22 px, where only bold shapes and colours survive. They carry no letters
// of a language: the text beside them names what they are.

// EmojiSize is the side of an emoji picture, the size Discord asks for.
const EmojiSize = 128

// emojiEdge is the outline of every emoji shape: about one pixel at 22 px.
const emojiEdge = 7

// CardEmojiArt draws a card as an emoji: a colour card with a wagon, the
// locomotive's rainbow with an engine, the Locomotive +4 with "+4", the
// Passenger card with a traveller.
func CardEmojiArt(c engine.Card) *image.RGBA {
	im, dc := newEmoji()
	x, y, w, h := 20.0, 6.0, 88.0, 116.0
	fill := cardColors[engine.Locomotive]
	if int(c) > 0 && int(c) < len(cardColors) {
		fill = cardColors[c]
	}
	dc.DrawRoundedRectangle(x, y, w, h, 14)
	dc.SetColor(fill)
	dc.Fill()
	mark := letterOn(fill)
	switch c {
	case engine.Locomotive, engine.Locomotive4:
		band := (h - 8) / float64(len(rainbow))
		dc.DrawRoundedRectangle(x, y, w, h, 14)
		dc.Clip()
		for k, rc := range rainbow {
			dc.DrawRectangle(x, y+4+float64(k)*band, w, band+0.5)
			dc.SetColor(rc)
			dc.Fill()
		}
		dc.ResetClip()
		// The locomotive's disk is white with an engine; the +4's is dark
		// and larger, so the two differ at 22 px.
		if c == engine.Locomotive {
			dc.DrawCircle(64, 64, 33)
			dc.SetColor(paper)
			dc.Fill()
			dc.DrawCircle(64, 64, 33)
			dc.SetColor(ink)
			dc.SetLineWidth(5)
			dc.Stroke()
			drawEngine(dc, 64, 66, 0.95, ink)
		} else {
			dc.DrawCircle(64, 64, 38)
			dc.SetColor(ink)
			dc.Fill()
			emojiText(dc, "+4", 64, 64, 44, paper)
		}
	case engine.Passenger:
		drawTraveller(dc, 64, 66, mark)
	default:
		drawWagon(dc, 64, 66, mark)
	}
	dc.DrawRoundedRectangle(x, y, w, h, 14)
	dc.SetColor(ink)
	dc.SetLineWidth(emojiEdge)
	dc.Stroke()
	return im
}

// TicketEmojiArt draws a destination ticket: a cream ticket, notched at the
// sides, with two cities joined by a route.
func TicketEmojiArt() *image.RGBA {
	im, dc := newEmoji()
	x0, y0, x1, y1, notch := 6.0, 26.0, 122.0, 102.0, 12.0
	ticket := func() {
		dc.NewSubPath()
		dc.MoveTo(x0, y0)
		dc.LineTo(x1, y0)
		dc.LineTo(x1, 64-notch)
		dc.DrawArc(x1, 64, notch, -math.Pi/2, -3*math.Pi/2)
		dc.LineTo(x1, y1)
		dc.LineTo(x0, y1)
		dc.LineTo(x0, 64+notch)
		dc.DrawArc(x0, 64, notch, math.Pi/2, -math.Pi/2)
		dc.ClosePath()
	}
	ticket()
	dc.SetColor(color.RGBA{246, 232, 196, 255})
	dc.Fill()
	// The route: a dashed line of train spaces between two cities.
	dc.SetColor(cardColors[data.Red])
	dc.SetLineWidth(9)
	dc.SetLineCapButt()
	dc.SetDash(13, 6)
	dc.DrawLine(36, 80, 92, 48)
	dc.Stroke()
	dc.SetDash()
	for _, p := range []pt{{32, 82}, {96, 46}} {
		dc.DrawCircle(p.X, p.Y, 11)
		dc.SetColor(paper)
		dc.Fill()
		dc.DrawCircle(p.X, p.Y, 11)
		dc.SetColor(ink)
		dc.SetLineWidth(5)
		dc.Stroke()
	}
	ticket()
	dc.SetColor(ink)
	dc.SetLineWidth(emojiEdge)
	dc.SetLineJoinRound()
	dc.Stroke()
	return im
}

// StationEmojiArt draws a station: a house with a red roof, a door and a
// clock, on a platform.
func StationEmojiArt() *image.RGBA {
	im, dc := newEmoji()
	wall := []pt{{22, 112}, {22, 58}, {106, 58}, {106, 112}}
	roof := []pt{{8, 62}, {64, 14}, {120, 62}}
	poly := func(ps []pt) {
		dc.NewSubPath()
		dc.MoveTo(ps[0].X, ps[0].Y)
		for _, p := range ps[1:] {
			dc.LineTo(p.X, p.Y)
		}
		dc.ClosePath()
	}
	poly(wall)
	dc.SetColor(color.RGBA{240, 226, 190, 255})
	dc.Fill()
	poly(roof)
	dc.SetColor(cardColors[data.Red])
	dc.Fill()
	// The door and the clock.
	dc.DrawRectangle(52, 78, 24, 34)
	dc.SetColor(ink)
	dc.Fill()
	dc.DrawCircle(64, 44, 9)
	dc.SetColor(paper)
	dc.Fill()
	dc.SetLineJoinRound()
	dc.SetLineWidth(emojiEdge)
	dc.SetColor(ink)
	poly(wall)
	dc.Stroke()
	poly(roof)
	dc.Stroke()
	dc.SetLineWidth(4)
	dc.DrawCircle(64, 44, 9)
	dc.Stroke()
	// The platform.
	dc.DrawRoundedRectangle(4, 110, 120, 12, 4)
	dc.SetColor(ink)
	dc.Fill()
	return im
}

// EncodeEmoji is an emoji picture as PNG bytes: the same picture always
// gives the same bytes.
func EncodeEmoji(im *image.RGBA) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, im); err != nil {
		panic(err) // encoding an in-memory RGBA image into a buffer cannot fail
	}
	return buf.Bytes()
}

func newEmoji() (*image.RGBA, *gg.Context) {
	im := image.NewRGBA(image.Rect(0, 0, EmojiSize, EmojiSize)) // transparent
	dc := gg.NewContextForRGBA(im)
	dc.SetLineJoinRound()
	dc.SetLineCapRound()
	return im, dc
}

// drawWagon is a goods wagon seen from the side, centred on x, y.
func drawWagon(dc *gg.Context, x, y float64, col color.Color) {
	dc.SetColor(col)
	dc.DrawRoundedRectangle(x-30, y-24, 60, 34, 4)
	dc.Fill()
	dc.DrawRectangle(x-36, y+12, 72, 5)
	dc.Fill()
	for _, wx := range []float64{x - 18, x + 18} {
		dc.DrawCircle(wx, y+24, 9)
		dc.Fill()
	}
}

// drawEngine is a steam engine seen from the side, centred on x, y, at scale s.
func drawEngine(dc *gg.Context, x, y, s float64, col color.Color) {
	dc.SetColor(col)
	r := func(x0, y0, w, h float64) { dc.DrawRectangle(x+x0*s, y+y0*s, w*s, h*s); dc.Fill() }
	r(-24, -6, 34, 18) // boiler
	r(6, -22, 18, 34)  // cab
	r(-20, -20, 8, 14) // chimney
	r(-28, 10, 56, 5)  // frame
	for _, wx := range []float64{-15, 0, 15} {
		dc.DrawCircle(x+wx*s, y+20*s, 7*s)
		dc.Fill()
	}
}

// drawTraveller is a person with a suitcase, centred on x, y.
func drawTraveller(dc *gg.Context, x, y float64, col color.Color) {
	dc.SetColor(col)
	dc.DrawCircle(x-6, y-30, 11)
	dc.Fill()
	dc.DrawRoundedRectangle(x-20, y-16, 28, 36, 8)
	dc.Fill()
	dc.DrawRectangle(x-18, y+16, 9, 22)
	dc.Fill()
	dc.DrawRectangle(x-1, y+16, 9, 22)
	dc.Fill()
	dc.DrawRoundedRectangle(x+12, y+2, 20, 26, 3) // the suitcase
	dc.Fill()
	dc.SetLineWidth(4)
	dc.DrawLine(x+17, y+2, x+17, y-4)
	dc.DrawLine(x+17, y-4, x+27, y-4)
	dc.DrawLine(x+27, y-4, x+27, y+2)
	dc.Stroke()
}

// emojiText centres bold text of size px on x, y.
func emojiText(dc *gg.Context, s string, x, y, px float64, col color.Color) {
	_, bold := goFonts()
	face, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err) // the font is compiled in
	}
	defer face.Close()
	dc.SetFontFace(face)
	dc.SetColor(col)
	dc.DrawStringAnchored(s, x, y, 0.5, 0.35)
}
