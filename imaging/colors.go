package imaging

import (
	"image/color"

	"conductor/data"
	"conductor/engine"
)

// Card colours as printed on tracks and cards, indexed by engine.Card (and so
// by data.Color for the eight colours; index 0 is the gray of gray tracks).
var cardColors = [engine.NumCards]color.RGBA{
	0:                  {176, 176, 172, 255},
	data.Pink:          {236, 122, 196, 255},
	data.Blue:          {52, 128, 232, 255},
	data.Orange:        {244, 142, 38, 255},
	data.White:         {250, 250, 246, 255},
	data.Green:         {64, 168, 76, 255},
	data.Yellow:        {246, 214, 52, 255},
	data.Black:         {58, 58, 64, 255},
	data.Red:           {224, 56, 48, 255},
	engine.Locomotive:  {120, 120, 128, 255},
	engine.Locomotive4: {96, 96, 104, 255},
	engine.Passenger:   {150, 110, 70, 255},
}

// cardLetters tell the colours apart without relying on hue (colour-blind players).
var cardLetters = [engine.NumCards]string{
	0: "", data.Pink: "P", data.Blue: "B", data.Orange: "O", data.White: "W",
	data.Green: "G", data.Yellow: "Y", data.Black: "K", data.Red: "R",
	engine.Locomotive: "L", engine.Locomotive4: "L+4", engine.Passenger: "Ps",
}

// rainbow stripes a locomotive card.
var rainbow = [...]color.RGBA{cardColors[data.Red], cardColors[data.Orange], cardColors[data.Yellow],
	cardColors[data.Green], cardColors[data.Blue], cardColors[data.Pink]}

// letterOn is the ink of a letter printed on a fill: dark on light fills, white on dark ones.
func letterOn(c color.RGBA) color.RGBA {
	if luma(c) > 150 {
		return ink
	}
	return paper
}

func luma(c color.RGBA) int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }

// Player colours, as the boxes have them, each with its own marker shape so
// that seats differ by more than hue.
var playerColors = [...]color.RGBA{
	{196, 22, 40, 255}, // red, circle
	{22, 78, 196, 255}, // blue, square
	{18, 150, 70, 255}, // green, triangle
	{250, 196, 0, 255}, // yellow, diamond
	{26, 26, 30, 255},  // black, cross
}

// playerColor returns a seat colour index's colour, wrapping out-of-range indexes.
func playerColor(i int) color.RGBA {
	return playerColors[seatIndex(i)]
}

func seatIndex(i int) int {
	n := len(playerColors)
	return ((i % n) + n) % n
}

// fadedPlayerColor is a seat's colour on another player's hand picture:
// half way to the panel's paper, so that the player's own tracks stand out.
func fadedPlayerColor(i int) color.RGBA { return mix(playerColor(i), paper, 0.55) }

// markerInk is the colour of the marker shape drawn on a player colour.
func markerInk(i int) color.RGBA { return letterOn(playerColor(i)) }

// Goods token colours (Märklin), by the names used in the board file.
var goodsColors = map[string]color.RGBA{
	"white":  {250, 250, 246, 255},
	"black":  {40, 40, 44, 255},
	"yellow": {246, 214, 52, 255},
	"red":    {210, 50, 44, 255},
	"blue":   {52, 110, 210, 255},
	"green":  {60, 150, 70, 255},
	"orange": {240, 140, 40, 255},
	"pink":   {230, 120, 190, 255},
}

// goodsNames orders goodsColors, keeping the palette the same on every run.
var goodsNames = []string{"white", "black", "yellow", "red", "blue", "green", "orange", "pink"}

func goodsColor(name string) color.RGBA {
	if c, ok := goodsColors[name]; ok {
		return c
	}
	return cardColors[0]
}

// The flat colours of the map and panels.
var (
	ink         = color.RGBA{28, 30, 36, 255}
	paper       = color.RGBA{255, 255, 255, 255}
	sea         = color.RGBA{170, 204, 226, 255}
	seaDeep     = color.RGBA{152, 190, 216, 255}
	land        = color.RGBA{238, 230, 206, 255}
	coast       = color.RGBA{160, 150, 120, 255}
	foreign     = color.RGBA{222, 216, 200, 255} // Märklin neighbour countries
	foreignDisc = color.RGBA{232, 222, 236, 255}
	countryInk  = color.RGBA{120, 96, 70, 255}
	halo        = color.RGBA{255, 252, 242, 255}
	spaceEdge   = color.RGBA{70, 70, 76, 255}
	freeEdge    = color.RGBA{128, 124, 112, 255} // a free track's border, lighter than a train's
	carEdge     = color.RGBA{16, 16, 20, 255}
	carEdgeLow  = color.RGBA{225, 225, 225, 255} // car border on the black player
	tunnelEdge  = color.RGBA{30, 30, 34, 255}
	glow        = color.RGBA{255, 40, 200, 255}
	panelBG     = color.RGBA{246, 243, 236, 255}
	panelHead   = color.RGBA{40, 48, 62, 255}
	panelRule   = color.RGBA{210, 204, 190, 255}
	turnBG      = color.RGBA{255, 236, 170, 255}
	muted       = color.RGBA{110, 110, 118, 255}
	panelSub    = color.RGBA{180, 190, 206, 255}
	good        = color.RGBA{30, 140, 70, 255}
	bad         = color.RGBA{190, 40, 40, 255}
	cityFill    = color.RGBA{255, 255, 255, 255}
	cityRing    = color.RGBA{40, 40, 46, 255}
	miniBG      = color.RGBA{250, 248, 242, 255}
)

// CardLetter is the letter the pictures print by default on a card of
// kind c and on tracks of its colour ("R", "L"); the legend says what each
// means.
func CardLetter(c engine.Card) string {
	if int(c) < 0 || int(c) >= len(cardLetters) {
		return ""
	}
	return cardLetters[c]
}

// Letters are the letters a picture prints on cards and tracks, per kind
// of card, in the table's language ("J" for jaune, "Ge" for gelb); an
// empty entry takes the default (English) letter. The legend, from the
// same words, says what each means.
type Letters [engine.NumCards]string

// of is the letter printed for kind c.
func (l *Letters) of(c engine.Card) string {
	if int(c) < 0 || int(c) >= len(l) {
		return ""
	}
	if l[c] != "" {
		return l[c]
	}
	return cardLetters[c]
}
