package imaging

import (
	"image"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"conductor/data"
)

// The final score sheet: the map with every claimed track and each player's
// longest path outlined, the ranking beside it, and the breakdown below.

const (
	finalRowH  = 36 // a player's line of numbers
	finalLineH = 21 // each line of ticket names under it
	finalHeadH = 44
)

// finalColumn is one number of the breakdown.
type finalColumn struct {
	title string
	x     float64 // right edge
	value func(*FinalLine) string
}

func (a *boardArt) finalColumns(fs *FinalScene) []finalColumn {
	t := &fs.Text
	cols := []finalColumn{
		{t.Routes, 0, func(p *FinalLine) string { return number(p.RoutePoints) }},
		{t.TicketsWon, 0, func(p *FinalLine) string { return signed(sumPoints(p.TicketsWon)) }},
		{t.TicketsLost, 0, func(p *FinalLine) string { return signed(-sumPoints(p.TicketsLost)) }},
		{t.Bonuses, 0, func(p *FinalLine) string { return strconv.Itoa(sumBonuses(p.Bonuses)) }},
	}
	if a.b.Rules.HasStations() {
		cols = append(cols, finalColumn{t.Stations, 0, func(p *FinalLine) string { return number(p.StationPoints) }})
	}
	goods := false
	for _, c := range a.b.Cities {
		goods = goods || len(c.GoodsStack) > 0
	}
	for i := range fs.Players {
		goods = goods || fs.Players[i].GoodsPoints != 0
	}
	if goods {
		cols = append(cols, finalColumn{t.Goods, 0, func(p *FinalLine) string { return number(p.GoodsPoints) }})
	}
	cols = append(cols, finalColumn{t.Total, 0, func(p *FinalLine) string { return number(p.Total) }})
	for i := range cols {
		cols[i].x = 480 + float64(i)*130
	}
	return cols
}

// signed writes points gained or lost, "+12" or "−7"; zero is "0", with
// no sign (the text score sheet writes them the same way).
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// number writes a count of points, a negative one with the true minus
// sign ("−3"), as every score in the pictures and the texts is written.
func number(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

func sumPoints(ts []TicketLine) int {
	n := 0
	for _, t := range ts {
		n += t.Points
	}
	return n
}

func sumBonuses(bs []Bonus) int {
	n := 0
	for _, b := range bs {
		n += b.Points
	}
	return n
}

// finalNotes are the lines of text under a player's numbers.
type finalNote struct {
	text string
	good bool
}

func finalNotes(c *canvas, p *FinalLine, t *FinalText, width float64) []finalNote {
	var out []finalNote
	add := func(prefix string, items []string, good bool) {
		if len(items) == 0 {
			return
		}
		if prefix != "" {
			prefix += "  "
		}
		for _, l := range wrap(c, c.f.body, prefix+strings.Join(items, ",  "), width) {
			out = append(out, finalNote{l, good})
		}
	}
	tickets := func(ts []TicketLine) []string {
		var s []string
		for _, t := range ts {
			s = append(s, t.From+" – "+t.To+" "+strconv.Itoa(t.Points))
		}
		return s
	}
	add(t.Completed, tickets(p.TicketsWon), true)
	add(t.Failed, tickets(p.TicketsLost), false)
	var bonuses []string
	for _, b := range p.Bonuses {
		bonuses = append(bonuses, b.Name+" "+signed(b.Points))
	}
	add(t.BonusList, bonuses, true)
	return out
}

// Final draws the end-of-game score sheet as a PNG.
func (r *Renderer) Final(w io.Writer, fs *FinalScene) error {
	if fs == nil || fs.Board == nil {
		return errNoBoard
	}
	a := r.art(fs.Board)
	l := a.boardLayer(fs.Letters)
	f := newFaces()
	notes := make([][]finalNote, len(fs.Players))
	height := a.h + finalHeadH + 16
	// The notes leave room on the right for the ratings' column.
	width := float64(imageWidth - 90)
	for i := range fs.Players {
		if fs.Players[i].Rating != "" {
			width = imageWidth - 400
		}
	}
	for i := range fs.Players {
		notes[i] = finalNotes(&canvas{f: f}, &fs.Players[i], &fs.Text, width)
		height += finalRowH + max(len(notes[i]), ratingLines(&fs.Players[i]))*finalLineH + 10
	}
	rect := image.Rect(0, 0, imageWidth, height)
	im := image.NewRGBA(rect)
	copy(im.Pix, l.static.Pix[:a.h*l.static.Stride])
	ref := image.NewRGBA(rect)
	copy(ref.Pix, im.Pix)
	c := newCanvas(im, f)
	c.ref = ref
	a.drawFinal(c, fs, notes)
	pal := image.NewPaletted(rect, l.q.pal)
	l.q.convert(pal, im, rect)
	return r.encode(w, pal)
}

func (a *boardArt) drawFinal(c *canvas, fs *FinalScene, notes [][]finalNote) {
	// The map: longest paths outlined, then every claimed track and
	// station, as the board showed them.
	for i := range fs.Players {
		for _, id := range fs.Players[i].LongestPath {
			if int(id) >= 0 && int(id) < len(a.spaces) {
				for _, sp := range a.spaces[id] {
					c.fillPoly(a.v.corners(sp, 6), glow)
				}
			}
		}
	}
	for id := range a.b.Tracks {
		if seat := ownerOf(fs.Owners, id); seat >= 0 {
			a.drawClaimed(c, a.v, data.TrackID(id), seat)
		}
	}
	a.drawStations(c, fs.Stations)
	a.overlayLabels(c)

	// The ranking.
	c.rect(image.Rect(panelX, 0, imageWidth, a.h), panelBG)
	c.rect(image.Rect(panelX, 0, panelX+2, a.h), panelRule)
	c.rect(image.Rect(panelX, 0, imageWidth, headerH), panelHead)
	a.drawHeader(c, fs.Title, fs.Text.Heading)
	order := finalOrder(fs.Players)
	for rank, i := range order {
		p := &fs.Players[i]
		top := float64(playerTop + rank*playerRowH)
		if p.Winner {
			c.rect(image.Rect(panelX+6, int(top), imageWidth-6, int(top)+playerRowH-6), turnBG)
		}
		place := rank + 1
		if p.Place > 0 {
			place = p.Place
		}
		c.text(c.f.title, strconv.Itoa(place), panelX+14, top+20, 0, 0.5, muted)
		drawSwatch(c, p.Color, panelX+36, top+6, 28)
		a.drawName(c, p.Name, p.Bot, fs.Text.Bot, panelX+74, top+15, 150)
		c.text(c.f.title, number(p.Total), imageWidth-16, top+16, 1, 0.5, ink)
		note := flow(c, c.f.body, p.Note, " · ", imageWidth-16-(panelX+74))
		for k, l := range note[:min(2, len(note))] {
			c.text(c.f.body, l, panelX+74, top+37+float64(k*18), 0, 0.5, muted)
		}
	}
	paths := wrap(c, c.f.body, fs.Text.Paths, panelWidth-32)
	for i, l := range paths {
		c.text(c.f.body, l, panelX+16, float64(a.h-20-19*(len(paths)-1-i)), 0, 0.5, muted)
	}
	if fs.Text.Early != "" {
		early := wrap(c, c.f.bodyBold, fs.Text.Early, panelWidth-32)
		bottom := a.h - 20 - 19*len(paths) - 8
		for i, l := range early {
			c.text(c.f.bodyBold, l, panelX+16, float64(bottom-19*(len(early)-1-i)), 0, 0.5, bad)
		}
	}

	// The breakdown.
	top := float64(a.h)
	c.rect(image.Rect(0, a.h, imageWidth, c.im.Rect.Max.Y), panelBG)
	c.rect(image.Rect(0, a.h, imageWidth, a.h+2), panelRule)
	cols := a.finalColumns(fs)
	y := top + finalHeadH/2 + 4
	c.text(c.f.bodyBold, fs.Text.Player, 56, y, 0, 0.5, muted)
	for _, col := range cols {
		c.text(c.f.bodyBold, col.title, col.x, y, 1, 0.5, muted)
	}
	rated := false
	for i := range fs.Players {
		rated = rated || fs.Players[i].Rating != ""
	}
	if rated {
		c.text(c.f.bodyBold, fs.Text.Rating, imageWidth-24, y, 1, 0.5, muted)
	}
	y = top + finalHeadH + 8
	winners := 0
	for i := range fs.Players {
		if fs.Players[i].Winner {
			winners++
		}
	}
	for _, i := range order {
		p := &fs.Players[i]
		drawSwatch(c, p.Color, 16, y+4, 26)
		name := p.Name
		mark := fs.Text.Winner
		if winners > 1 && fs.Text.Shared != "" {
			mark = fs.Text.Shared
		}
		if p.Winner && mark != "" {
			name += " – " + mark
		}
		a.drawName(c, name, p.Bot, fs.Text.Bot, 56, y+17, 330)
		for k, col := range cols {
			face := c.f.bodyBold
			if k == len(cols)-1 {
				face = c.f.title
			}
			c.text(face, col.value(p), col.x, y+17, 1, 0.5, ink)
		}
		if p.Rating != "" {
			col := ink
			switch {
			case p.RatingUp > 0:
				col = good
			case p.RatingUp < 0:
				col = bad
			}
			c.text(c.f.title, p.Rating, imageWidth-24, y+17, 1, 0.5, col)
			if p.RatingNote != "" {
				c.text(c.f.body, fit(c, c.f.body, p.RatingNote, 300), imageWidth-24, y+finalRowH+8, 1, 0.5, muted)
			}
		}
		y += finalRowH
		if len(notes[i]) < ratingLines(p) {
			y += finalLineH
		}
		for _, n := range notes[i] {
			ink := bad
			if n.good {
				ink = good
			}
			c.text(c.f.body, n.text, 56, y+8, 0, 0.5, ink)
			y += finalLineH
		}
		y += 10
		c.rect(image.Rect(16, int(y)-5, imageWidth-16, int(y)-4), panelRule)
	}
}

// ratingLines is how many lines under a player's numbers the rating needs.
func ratingLines(p *FinalLine) int {
	if p.RatingNote != "" {
		return 1
	}
	return 0
}

// finalOrder lists the players by place (by total where no place is
// given), seat order breaking ties: as the ranking reads.
func finalOrder(ps []FinalLine) []int {
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := &ps[order[i]], &ps[order[j]]
		if a.Place != b.Place && a.Place > 0 && b.Place > 0 {
			return a.Place < b.Place
		}
		return a.Total > b.Total
	})
	return order
}

// drawName writes a player's name at most w pixels wide, followed by the
// bot badge for a bot.
func (a *boardArt) drawName(c *canvas, name string, bot bool, badge string, x, y, w float64) {
	bw := 0.0
	if bot && badge != "" {
		bw = math.Max(34, c.measure(c.f.small, badge)+12)
	}
	nw := c.text(c.f.bodyBold, fit(c, c.f.bodyBold, name, w-bw), x, y, 0, 0.5, ink)
	if bw > 0 {
		bx := x + nw + 8
		c.roundRect(bx, y-8, bw, 17, 4, muted)
		c.text(c.f.small, badge, bx+bw/2, y+0.5, 0.5, 0.5, paper)
	}
}

// drawSwatch is a seat's colour square with its marker shape.
func drawSwatch(c *canvas, seat int, x, y, size float64) {
	c.roundRect(x, y, size, size, 5, playerColor(seat))
	if seatIndex(seat) == 4 {
		c.roundRectStroke(x, y, size, size, 5, 1.2, carEdgeLow)
	}
	drawMarker(c, seat, x+size/2, y+size/2, size/4, markerInk(seat))
}
