package imaging

import (
	"image"
	"strconv"
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
)

func (a *boardArt) drawPanelStatic(c *canvas) {
	c.rect(image.Rect(panelX, 0, imageWidth, a.h), panelBG)
	c.rect(image.Rect(panelX, 0, panelX+2, a.h), panelRule)
	c.rect(image.Rect(panelX, 0, imageWidth, headerH), panelHead)
	c.text(c.f.bodyBold, "Face-up cards", panelX+16, cardsTop+8, 0, 0.5, muted)
	c.text(c.f.bodyBold, "Last move", panelX+16, lastTop+8, 0, 0.5, muted)
	// The key to the letters printed on cards and tracks.
	y := float64(a.h) - 58
	c.rect(image.Rect(panelX+12, int(y)-14, imageWidth-12, int(y)-13), panelRule)
	lines := []string{"R red  B blue  G green  Y yellow  K black", "W white  O orange  P pink  L locomotive"}
	for i, l := range lines {
		c.text(c.f.body, l, panelX+16, y+float64(i)*20, 0, 0.5, muted)
	}
}

func (a *boardArt) drawPanel(c *canvas, s *Scene) {
	status := s.Status
	if status == "" && s.Current >= 0 && s.Current < len(s.Players) {
		status = s.Players[s.Current].Name + "'s turn"
	}
	c.text(c.f.body, fit(c, c.f.body, a.title(s.Title), panelWidth-32), panelX+16, 20, 0, 0.5, panelSub)
	c.text(c.f.title, fit(c, c.f.title, status, panelWidth-32), panelX+16, 44, 0, 0.5, paper)

	for i, p := range s.Players {
		if i >= maxPanelRows {
			break
		}
		a.drawPlayerRow(c, i, &p, i == s.Current)
	}

	x := float64(panelX + 16)
	for i, card := range s.FaceUp {
		if i >= 5 {
			break
		}
		drawCard(c, card, x+float64(i*(cardW+cardGap)), cardsTop+24, cardW, cardH)
	}

	deck := "Deck " + strconv.Itoa(s.DeckSize) + "   Discards " + strconv.Itoa(s.DiscardSize) +
		"   Tickets " + strconv.Itoa(s.TicketDeckSize)
	c.text(c.f.body, deck, panelX+16, deckTop+10, 0, 0.5, ink)

	if s.LastMove.Text != "" {
		lines := wrap(c, c.f.body, s.LastMove.Text, panelWidth-48)
		lines = lines[:min(len(lines), 3)]
		c.rect(image.Rect(panelX+16, lastTop+24, panelX+21, lastTop+21+len(lines)*19), glow)
		for i, l := range lines {
			c.text(c.f.body, l, panelX+30, float64(lastTop+34+i*19), 0, 0.5, ink)
		}
	}
}

// title is the name at the top of the panel: the scene's, or the board's.
func (a *boardArt) title(t string) string {
	if t == "" {
		return a.b.Name
	}
	return t
}

func (a *boardArt) drawPlayerRow(c *canvas, i int, p *PlayerPanel, current bool) {
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

	name := p.Name
	nameMax := float64(panelWidth - 140)
	if p.Bot {
		nameMax -= 40
	}
	name = fit(c, c.f.bodyBold, name, nameMax)
	w := c.text(c.f.bodyBold, name, sx+38, sy+9, 0, 0.5, ink)
	if p.Bot {
		bx := sx + 38 + w + 8
		c.roundRect(bx, sy+1, 34, 17, 4, muted)
		c.text(c.f.small, "BOT", bx+17, sy+9.5, 0.5, 0.5, paper)
	}
	c.text(c.f.title, strconv.Itoa(p.Score), imageWidth-16, sy+10, 1, 0.5, ink)
	c.text(c.f.small, "pts", imageWidth-16, sy+28, 1, 0.5, muted)

	stats := count(p.Trains, "train", "trains")
	if a.b.Rules.Stations > 0 {
		stats += " · " + count(p.Stations, "station", "stations")
	}
	if a.b.Rules.Passengers > 0 {
		stats += " · " + count(p.PassengersLeft, "passenger", "passengers")
	}
	c.text(c.f.body, fit(c, c.f.body, stats, panelWidth-76), sx+38, sy+30, 0, 0.5, ink)
	hand := count(p.Cards, "card", "cards") + " · " + count(p.Tickets, "ticket", "tickets")
	c.text(c.f.body, hand, sx+38, sy+50, 0, 0.5, muted)
}

// drawCard draws a train card: its colour (stripes for a locomotive), a
// border and the letter that names the colour.
func drawCard(c *canvas, card engine.Card, x, y, w, h float64) {
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
	letter := cardLetters[card]
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
