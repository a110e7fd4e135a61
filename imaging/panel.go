package imaging

import (
	"image"
	"math"
	"strings"

	"conductor/engine"
)

// The side panel of the board picture: players in turn order, the face-up
// cards, deck sizes and the last move.

const (
	panelX       = mapWidth
	headerH      = 64
	playerTop    = headerH + 8
	playerRowH   = 74
	maxPanelRows = 5
	cardsTop     = playerTop + maxPanelRows*playerRowH + 10
	cardW, cardH = 54, 74
	cardGap      = 7
	deckTop      = cardsTop + 28 + cardH + 24
	lastTop      = deckTop + 40
	lastLineH    = 19 // a line of the last move
	legendLineH  = 20 // a line of the key to the letters
)

func (a *boardArt) drawPanelStatic(c *canvas) {
	c.rect(image.Rect(panelX, 0, imageWidth, a.h), panelBG)
	c.rect(image.Rect(panelX, 0, panelX+2, a.h), panelRule)
	c.rect(image.Rect(panelX, 0, imageWidth, headerH), panelHead)
}

func (a *boardArt) drawPanel(c *canvas, s *Scene) {
	a.drawHeader(c, s.Title, s.Status)

	for i, p := range s.Players {
		if i >= maxPanelRows {
			break
		}
		a.drawPlayerRow(c, i, &p, i == s.Current, &s.Text)
	}

	c.text(c.f.bodyBold, fit(c, c.f.bodyBold, s.Text.FaceUp, panelWidth-32), panelX+16, cardsTop+8, 0, 0.5, muted)
	x := float64(panelX + 16)
	for i, card := range s.FaceUp {
		if i >= 5 {
			break
		}
		drawCard(c, card, x+float64(i*(cardW+cardGap)), cardsTop+24, cardW, cardH, &s.Letters)
	}

	piles := flow(c, c.f.body, s.Text.Piles, " · ", panelWidth-32)
	for i, l := range piles[:min(2, len(piles))] {
		c.text(c.f.body, l, panelX+16, float64(deckTop+10+i*lastLineH), 0, 0.5, ink)
	}

	// The key to the letters at the bottom, the last move above it in the
	// room left (three lines at most).
	legend := flow(c, c.f.body, s.Text.Legend, "  ", panelWidth-32)
	legendTop := a.h - 38 - (len(legend)-1)*legendLineH
	if len(legend) > 0 {
		c.rect(image.Rect(panelX+12, legendTop-14, imageWidth-12, legendTop-13), panelRule)
	}
	for i, l := range legend {
		c.text(c.f.body, l, panelX+16, float64(legendTop+i*legendLineH), 0, 0.5, muted)
	}
	c.text(c.f.bodyBold, fit(c, c.f.bodyBold, s.Text.LastMove, panelWidth-32), panelX+16, lastTop+8, 0, 0.5, muted)
	if s.LastMove.Text != "" {
		room := max(1, (legendTop-14-(lastTop+24))/lastLineH)
		lines := wrap(c, c.f.body, s.LastMove.Text, panelWidth-48)
		lines = lines[:min(len(lines), 3, room)]
		c.rect(image.Rect(panelX+16, lastTop+24, panelX+21, lastTop+21+len(lines)*lastLineH), glow)
		for i, l := range lines {
			c.text(c.f.body, l, panelX+30, float64(lastTop+34+i*lastLineH), 0, 0.5, ink)
		}
	}
}

// flow lays items out in lines at most w pixels wide, sep between two on
// a line; an item wider than a line is shortened.
func flow(c *canvas, face fontFace, items []string, sep string, w float64) []string {
	var lines []string
	line := ""
	for _, it := range items {
		if it == "" {
			continue
		}
		if line != "" && c.measure(face, line+sep+it) <= w {
			line += sep + it
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = fit(c, face, it, w)
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// drawHeader writes the panel's head: the game's name (with its variant)
// and the status under it. A name too wide for a line takes a smaller
// type, then two lines, its variant on the second; a status too wide for
// the heading type takes the body's.
func (a *boardArt) drawHeader(c *canvas, title, status string) {
	const w = panelWidth - 32
	title = a.title(title)
	switch edition, variant, split := strings.Cut(title, " · "); {
	case c.measure(c.f.body, title) <= w:
		c.text(c.f.body, title, panelX+16, 20, 0, 0.5, panelSub)
	case c.measure(c.f.note, title) <= w || !split:
		c.text(c.f.note, fit(c, c.f.note, title, w), panelX+16, 20, 0, 0.5, panelSub)
	default:
		c.text(c.f.note, fit(c, c.f.note, edition, w), panelX+16, 11, 0, 0.5, panelSub)
		c.text(c.f.note, fit(c, c.f.note, variant, w), panelX+16, 26, 0, 0.5, panelSub)
	}
	face := c.f.title
	if c.measure(face, status) > w {
		face = c.f.bodyBold
	}
	c.text(face, fit(c, face, status, w), panelX+16, 44, 0, 0.5, paper)
}

// title is the name at the top of the panel: the scene's, or the board's.
func (a *boardArt) title(t string) string {
	if t == "" {
		return a.b.Name
	}
	return t
}

func (a *boardArt) drawPlayerRow(c *canvas, i int, p *PlayerPanel, current bool, t *PanelText) {
	top := playerTop + i*playerRowH
	if current {
		c.rect(image.Rect(panelX+6, top, imageWidth-6, top+playerRowH-6), turnBG)
		c.fillPoly([]pt{{panelX + 8, float64(top + 10)}, {panelX + 18, float64(top + 19)}, {panelX + 8, float64(top + 28)}}, ink)
	}
	col := playerColor(p.Color)
	sx, sy := float64(panelX+22), float64(top+6)
	c.roundRect(sx, sy, 28, 28, 5, col)
	if seatIndex(p.Color) == 4 {
		c.roundRectStroke(sx, sy, 28, 28, 5, 1.2, carEdgeLow)
	}
	drawMarker(c, p.Color, sx+14, sy+14, 7, markerInk(p.Color))

	badge := p.Bot && t.Bot != ""
	badgeW := 0.0
	if badge {
		badgeW = math.Max(34, c.measure(c.f.small, t.Bot)+12)
	}
	nameMax := float64(panelWidth-140) - badgeW
	name := fit(c, c.f.bodyBold, p.Name, nameMax)
	w := c.text(c.f.bodyBold, name, sx+38, sy+9, 0, 0.5, ink)
	if badge {
		bx := sx + 38 + w + 8
		c.roundRect(bx, sy+1, badgeW, 17, 4, muted)
		c.text(c.f.small, t.Bot, bx+badgeW/2, sy+9.5, 0.5, 0.5, paper)
	}
	c.text(c.f.title, number(p.Score), imageWidth-16, sy+10, 1, 0.5, ink)
	c.text(c.f.small, fit(c, c.f.small, t.Points, 48), imageWidth-16, sy+28, 1, 0.5, muted)

	c.text(c.f.body, fit(c, c.f.body, p.Pieces, panelWidth-76), sx+38, sy+30, 0, 0.5, ink)
	c.text(c.f.body, fit(c, c.f.body, p.Holding, panelWidth-76), sx+38, sy+50, 0, 0.5, muted)
}

// drawCard draws a train card: its colour (stripes for a locomotive), a
// border and the letter that names the colour.
func drawCard(c *canvas, card engine.Card, x, y, w, h float64, letters *Letters) {
	if card == engine.NoCard {
		c.roundRectStroke(x, y, w, h, 6, 1.5, panelRule)
		return
	}
	if int(card) >= len(cardColors) {
		card = engine.Locomotive
	}
	col := cardColors[card]
	c.roundRect(x, y, w, h, 6, col)
	if card == engine.Locomotive || card == engine.Locomotive4 {
		band := (h - 16) / float64(len(rainbow))
		for k, rc := range rainbow {
			yy := y + 8 + float64(k)*band
			c.fillPoly([]pt{{x + 4, yy}, {x + w - 4, yy}, {x + w - 4, yy + band}, {x + 4, yy + band}}, rc)
		}
	}
	c.roundRectStroke(x, y, w, h, 6, 1.5, ink)
	letter := letters.of(card)
	face := c.f.cardLetter
	if len(letter) > 1 {
		face = c.f.bodyBold
	}
	lx, ly := x+w/2, y+h/2
	if card == engine.Locomotive || card == engine.Locomotive4 {
		c.circle(lx, ly, 14, paper)
		c.ring(lx, ly, 14, 1.5, ink)
		c.text(face, letter, lx, ly, 0.5, 0.5, ink)
		return
	}
	c.text(face, letter, lx, ly, 0.5, 0.5, letterOn(col))
}

// fit shortens s with an ellipsis until it is at most w pixels wide.
func fit(c *canvas, face fontFace, s string, w float64) string {
	if c.measure(face, s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && c.measure(face, string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// wrap breaks s into lines at most w pixels wide.
func wrap(c *canvas, face fontFace, s string, w float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && c.measure(face, try) > w {
			lines = append(lines, line)
			line = word
			continue
		}
		line = try
	}
	if line != "" {
		lines = append(lines, fit(c, face, line, w))
	}
	return lines
}
