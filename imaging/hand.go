package imaging

import (
	"image"
	"io"
	"math"
	"strconv"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging/layout"
)

// The hand picture, sent to one player only: their train cards by colour,
// their tickets (done or not yet) and a small map of their tickets' cities
// and their own tracks.

const (
	handW         = 1200
	handHeaderH   = 64
	handCardsTop  = handHeaderH + 20
	handCardW     = 50
	handCardH     = 70
	handCardStep  = 58
	handCardRow   = 9 // cards per row
	miniX, miniY  = 580, handHeaderH + 20
	miniW         = handW - miniX - 16
	ticketLineH   = 25
	minHandHeight = 480
)

// handTicketsTop is where the ticket list starts, under one or two rows of cards.
func (a *boardArt) handTicketsTop() int { return handTicketsTop(a.b) }

func handTicketsTop(b *data.Board) int {
	rows := (len(handKinds(b)) + handCardRow - 1) / handCardRow
	return handCardsTop + rows*(handCardH+34) + 14
}

// handHeight fits the mini map and its caption.
func (a *boardArt) handHeight() int { return handHeight(a.b) }

func handHeight(b *data.Board) int { return max(minHandHeight, miniY+miniHeight(b)+40) }

// handTicketRows is how many ticket lines fit in a column.
func handTicketRows(b *data.Board) int { return (handHeight(b) - handTicketsTop(b) - 12) / ticketLineH }

// HandTickets is how many tickets the hand picture of board b lists (in
// two columns): a scene gives at most that many and counts the rest in
// its text.
func HandTickets(b *data.Board) int { return 2 * (handTicketRows(b) - 1) }

// handKinds lists the cards a board's deck has, in the order they are shown.
func handKinds(b *data.Board) []engine.Card {
	var ks []engine.Card
	for _, c := range data.CardColors {
		ks = append(ks, engine.ColorCard(c))
	}
	ks = append(ks, engine.Locomotive)
	if b.Rules.Cards.Locomotives4 > 0 {
		ks = append(ks, engine.Locomotive4)
	}
	if b.Rules.Cards.Passengers > 0 {
		ks = append(ks, engine.Passenger)
	}
	return ks
}

// miniView fits the board into the hand picture's map box.
func (a *boardArt) miniView() view {
	s := float64(miniW) / float64(a.b.Width)
	return view{scale: s, ox: miniX, oy: miniY}
}

func (a *boardArt) miniHeight() int { return miniHeight(a.b) }

func miniHeight(b *data.Board) int {
	return int(math.Ceil(float64(b.Height) * float64(miniW) / float64(b.Width)))
}

func (a *boardArt) handLayer() *layer {
	a.handOnce.Do(func() {
		a.handL = newLayer(handW, a.handHeight(), a.drawHandStatic, func(c *canvas) {
			for seat := range playerColors {
				a.drawHand(c, probeHand(a.b, seat))
			}
		})
	})
	return a.handL
}

func (a *boardArt) drawHandStatic(c *canvas) {
	c.rect(image.Rect(0, 0, handW, a.handHeight()), panelBG)
	c.rect(image.Rect(0, 0, handW, handHeaderH), panelHead)
	v := a.miniView()
	mh := a.miniHeight()
	box := image.Rect(miniX, miniY, miniX+miniW, miniY+mh)
	c.rect(box.Inset(-2), panelRule)
	a.drawLand(c, v, box)
	a.drawCountries(c, v)
	for id := range a.b.Tracks {
		a.drawPrintedTrack(c, v, data.TrackID(id), &Letters{})
	}
	a.drawCities(c, v)
}

// Hand draws one player's private hand picture as a PNG. Send it to that
// player only.
func (r *Renderer) Hand(w io.Writer, h *HandScene) error {
	if h == nil || h.Board == nil {
		return errNoBoard
	}
	a := r.art(h.Board)
	l := a.handLayer()
	f := l.get()
	defer l.put(f)
	a.drawHand(f.c, h)
	return r.encode(w, l.finish(f))
}

func (a *boardArt) drawHand(c *canvas, h *HandScene) {
	col := playerColor(h.Color)
	c.roundRect(16, 16, 32, 32, 6, col)
	if seatIndex(h.Color) == 4 {
		c.roundRectStroke(16, 16, 32, 32, 6, 1.2, carEdgeLow)
	}
	drawMarker(c, h.Color, 32, 32, 8, markerInk(h.Color))
	left := fit(c, c.f.bodyBold, h.Text.Left, 400)
	lw := c.text(c.f.bodyBold, left, handW-16, 32, 1, 0.5, paper)
	c.text(c.f.title, fit(c, c.f.title, h.Text.Title, handW-60-16-lw-24), 60, 32, 0, 0.5, paper)

	total := 0
	for _, n := range h.Cards {
		total += n
	}
	hw := c.text(c.f.bodyBold, fit(c, c.f.bodyBold, h.Text.Cards, miniX-100), 16, handCardsTop-6, 0, 0.5, muted)
	c.text(c.f.body, "("+strconv.Itoa(total)+")", 16+hw+8, handCardsTop-6, 0, 0.5, muted)
	for i, k := range handKinds(a.b) {
		x := 16 + float64(i%handCardRow)*handCardStep
		y := float64(handCardsTop + 6 + (i/handCardRow)*(handCardH+34))
		n := h.Cards[k]
		if n == 0 {
			c.roundRectStroke(x, y, handCardW, handCardH, 6, 1.2, panelRule)
			c.text(c.f.bodyBold, h.Letters.of(k), x+handCardW/2, y+handCardH/2, 0.5, 0.5, panelRule)
			continue
		}
		drawCard(c, k, x, y, handCardW, handCardH, &h.Letters)
		c.text(c.f.bodyBold, "×"+strconv.Itoa(n), x+handCardW/2, y+handCardH+13, 0.5, 0.5, ink)
	}

	c.text(c.f.bodyBold, fit(c, c.f.bodyBold, h.Text.Tickets, miniX-32), 16, float64(a.handTicketsTop()-6), 0, 0.5, muted)
	a.drawTicketList(c, h)
	a.drawMiniMap(c, h)
	c.text(c.f.body, fit(c, c.f.body, h.Text.Caption, miniW), miniX, float64(miniY+a.miniHeight()+20), 0, 0.5, muted)
}

// drawTicketList lists the tickets in one column, or two when they are
// many, and the scene's count of those left out on the last line.
func (a *boardArt) drawTicketList(c *canvas, h *HandScene) {
	ts := h.Tickets
	top := a.handTicketsTop()
	rows := handTicketRows(a.b)
	if h.Text.More != "" || len(ts) > rows {
		rows-- // the last line says how many more
	}
	cols := 1
	if len(ts) > rows {
		cols = 2
	}
	colW := float64(miniX-32) / float64(cols)
	for i, t := range ts {
		if i >= cols*rows {
			break
		}
		x := 16 + float64(i/rows)*colW
		y := float64(top + 14 + (i%rows)*ticketLineH)
		if t.Completed {
			c.circle(x+8, y, 8, good)
			c.strokePoly([]pt{{x + 4, y}, {x + 7, y + 3.5}, {x + 12.5, y - 3.5}}, false, 2, paper, nil)
		} else {
			c.ring(x+8, y, 7, 1.6, muted)
		}
		pts := strconv.Itoa(t.Points)
		c.text(c.f.bodyBold, pts, x+colW-12, y, 1, 0.5, ink)
		name := fit(c, c.f.body, t.From+" – "+t.To, colW-60)
		c.text(c.f.body, name, x+24, y, 0, 0.5, ink)
	}
	if h.Text.More != "" {
		c.text(c.f.body, fit(c, c.f.body, h.Text.More, miniX-32), 16, float64(top+14+rows*ticketLineH), 0, 0.5, muted)
	}
	if len(ts) == 0 && h.Text.More == "" {
		c.text(c.f.body, fit(c, c.f.body, h.Text.NoTickets, miniX-32), 16, float64(top+14), 0, 0.5, muted)
	}
}

// drawMiniMap marks the player's tracks and tickets on the small map.
func (a *boardArt) drawMiniMap(c *canvas, h *HandScene) {
	v := a.miniView()
	marked := map[data.CityID]bool{}
	for _, t := range h.Tickets {
		if len(t.Cities) >= 2 {
			p, q := v.city(a.b, t.Cities[0]), v.city(a.b, t.Cities[1])
			lc := muted
			if t.Completed {
				lc = good
			}
			c.strokePoly([]pt{p, q}, false, 1.6, lc, []float64{5, 4})
		}
		for _, ci := range t.Cities {
			if int(ci) >= 0 && int(ci) < len(a.b.Cities) {
				marked[ci] = true
			}
		}
	}
	// The tracks go over the ticket lines: the network is what matters;
	// the other seats' first, dimmer, so that the player's own stand out
	// and a ticket the others cut off shows.
	for _, o := range h.Others {
		if int(o.Track) >= 0 && int(o.Track) < len(a.spaces) {
			a.drawFadedClaim(c, v, o.Track, o.Seat)
		}
	}
	for _, id := range h.Owned {
		if int(id) >= 0 && int(id) < len(a.spaces) {
			a.drawClaimed(c, v, id, h.Color)
		}
	}
	r := layout.CityRadius*v.scale + 4
	for ci := range a.b.Cities {
		if !marked[data.CityID(ci)] {
			continue
		}
		p := v.city(a.b, data.CityID(ci))
		c.ring(p.X, p.Y, r, 2.5, glow)
	}
	a.drawMiniLabels(c, v, marked, h.Owned)
}

// drawFadedClaim draws another seat's track on the mini map: its colour
// faded towards the panel, without the border the player's own have.
func (a *boardArt) drawFadedClaim(c *canvas, v view, id data.TrackID, seat int) {
	col := fadedPlayerColor(seat)
	k := v.scale / a.v.scale
	for _, sp := range a.spaces[id] {
		c.fillPoly(v.corners(sp, 1.6*k), col)
	}
}

// drawMiniLabels names the ticket cities on the mini map, each on the side
// that hides the least of the player's tracks, other tracks and other names.
func (a *boardArt) drawMiniLabels(c *canvas, v view, marked map[data.CityID]bool, owned []data.TrackID) {
	quads := a.miniQuads()
	own := map[int]bool{}
	for _, id := range owned {
		own[int(id)] = true
	}
	box := rectQuad(image.Rect(miniX, miniY, miniX+miniW, miniY+a.miniHeight()))
	r := layout.CityRadius*v.scale + 4
	var placed []quad
	for ci := range a.b.Cities {
		if !marked[data.CityID(ci)] {
			continue
		}
		p := v.city(a.b, data.CityID(ci))
		name := a.b.Cities[ci].Name
		var best *label
		bestScore := math.Inf(1)
		for si, side := range labelSides {
			l := newLabel(c.f.small, name, p.X+side.dx*(r+2), p.Y+side.dy*(r+1), side.ax, side.ay)
			bq := rectQuad(l.box)
			score := float64(si) * 0.5
			for _, corner := range bq {
				if !pointIn(box, corner) {
					score += 1000
				}
			}
			lb := l.box
			for _, mq := range quads {
				if mq.box.Overlaps(lb) && mq.q.overlaps(bq) {
					score += 2
					if own[mq.track] {
						score += 20
					}
				}
			}
			for _, q := range placed {
				if q.overlaps(bq) {
					score += 100
				}
			}
			if score < bestScore {
				best, bestScore = l, score
			}
		}
		placed = append(placed, rectQuad(best.box))
		c.haloTextAt(c.f.small, name, best.x, best.y, ink, halo)
	}
}

// trackQuad is one space of a track, as drawn on some view, with its bounding box.
type trackQuad struct {
	track int
	q     quad
	box   image.Rectangle
}

// miniQuads lists the mini map's spaces, built once.
func (a *boardArt) miniQuads() []trackQuad {
	a.miniOnce.Do(func() {
		v := a.miniView()
		for id, row := range a.spaces {
			for _, sp := range row {
				cs := v.corners(sp, 0.5)
				q := quad{cs[0], cs[1], cs[2], cs[3]}
				a.miniQ = append(a.miniQ, trackQuad{id, q, q.bounds()})
			}
		}
	})
	return a.miniQ
}

func pointIn(q quad, p pt) bool {
	return p.X >= q[0].X && p.X <= q[2].X && p.Y >= q[0].Y && p.Y <= q[2].Y
}

// probeHand is a made-up full hand for the hand picture's palette.
func probeHand(b *data.Board, seat int) *HandScene {
	h := &HandScene{Board: b, Color: seat, Text: HandText{Title: "Chloé — hand", Left: "30 trains · 2 stations",
		Cards: "Train cards", Tickets: "Tickets", Caption: "Your tracks, your tickets' cities.", More: "+ 2"}}
	for i := range h.Cards {
		h.Cards[i] = i % 4
	}
	for i := 0; i+1 < b.NumCities() && len(h.Tickets) < 6; i += 5 {
		h.Tickets = append(h.Tickets, TicketLine{From: b.Cities[i].Name, To: b.Cities[i+1].Name, Points: 8,
			Completed: i%2 == 0, Cities: []data.CityID{data.CityID(i), data.CityID(i + 1)}})
	}
	for id := seat; id < len(b.Tracks); id += 7 {
		h.Owned = append(h.Owned, data.TrackID(id))
	}
	for s := range playerColors {
		if s != seat {
			for id := 1 + s; id < len(b.Tracks); id += 11 {
				h.Others = append(h.Others, SeatTrack{Track: data.TrackID(id), Seat: s})
			}
		}
	}
	return h
}
