package imaging

import (
	"strconv"

	"math"

	"conductor/data"
	"conductor/imaging/layout"
)

// drawScene draws the dynamic part of a board picture over its static layer.
// Every pixel it changes goes through canvas primitives, which record the
// tiles touched.
func (a *boardArt) drawScene(c *canvas, s *Scene) {
	a.drawHighlight(c, s)
	for id := range a.b.Tracks {
		if seat := ownerOf(s.Owners, id); seat >= 0 {
			a.drawClaimed(c, a.v, data.TrackID(id), seat)
		}
	}
	a.drawStations(c, s.Stations)
	a.drawGoods(c, s.Goods)
	a.drawPassengers(c, s.Passengers)
	a.overlayLabels(c)
	a.drawPanel(c, s)
}

// drawStations draws each station built, per CityID the seat or -1, in
// its city's station spot.
func (a *boardArt) drawStations(c *canvas, stations []int8) {
	for ci, seat := range stations {
		if seat >= 0 && ci < len(a.badges) && a.badges[ci] != nil {
			p := a.badges[ci][0]
			drawStation(c, int(seat), p.X, p.Y)
		}
	}
}

func ownerOf(owners []int8, id int) int {
	if id < len(owners) {
		return int(owners[id])
	}
	return -1
}

// drawHighlight rings the last move's tracks and cities with a glow. An
// unclaimed track under the glow is printed again on top of it.
func (a *boardArt) drawHighlight(c *canvas, s *Scene) {
	for _, id := range s.LastMove.Tracks {
		if int(id) < 0 || int(id) >= len(a.spaces) {
			continue
		}
		for _, sp := range a.spaces[id] {
			c.fillPoly(a.v.corners(sp, 6), glow)
		}
		if ownerOf(s.Owners, int(id)) < 0 {
			a.drawPrintedTrack(c, a.v, id, &s.Letters)
		}
	}
	r := layout.CityRadius*a.v.scale + 5
	for _, ci := range s.LastMove.Cities {
		if int(ci) < 0 || int(ci) >= len(a.b.Cities) {
			continue
		}
		p := a.cityPt(ci)
		c.ring(p.X, p.Y, r, 3.5, glow)
	}
}

// drawClaimed draws the seat's train cars over a track: the player's colour
// filling each space, a dark border and the seat's marker shape.
func (a *boardArt) drawClaimed(c *canvas, v view, id data.TrackID, seat int) {
	col := playerColor(seat)
	edge := carEdge
	if seatIndex(seat) == 4 {
		edge = carEdgeLow
	}
	ink := markerInk(seat)
	k := v.scale / a.v.scale // 1 on the board, less on the hand's mini map
	for _, sp := range a.spaces[id] {
		// The border is a darker car under the coloured one: two fills cost
		// less than a stroke. Trains are wider than the track as printed
		// and fully coloured, with a thick border, so that a claimed route
		// reads at a glance, even on a thumbnail.
		c.fillPoly(v.corners(sp, 3.2*k), edge)
		c.fillPoly(v.corners(sp, 1.2*k), col)
		if v.scale < a.v.scale*0.75 {
			continue // too small for a marker: the hand's mini map shows one player anyway
		}
		ctr := v.centre(sp)
		r := math.Min(3.3, sp.L*v.scale*0.2)
		drawMarker(c, seat, ctr.X, ctr.Y, r, ink)
	}
}

// drawGoods draws each Märklin city's goods stack: a token per remaining
// value, stacked, the top one showing its value.
func (a *boardArt) drawGoods(c *canvas, goods [][]int) {
	for ci, stack := range goods {
		if len(stack) == 0 || ci >= len(a.b.Cities) || a.badges[ci] == nil {
			continue
		}
		col := goodsColor(a.b.Cities[ci].Goods)
		p := a.badges[ci][1]
		const r = 7.5
		n := min(len(stack), 4)
		for k := n - 1; k >= 0; k-- {
			y := p.Y + float64(k)*2
			c.circle(p.X, y, r, col)
			c.ring(p.X, y, r, 1.2, ink)
		}
		c.text(c.f.small, strconv.Itoa(stack[0]), p.X, p.Y, 0.5, 0.5, letterOn(col))
	}
}

// drawPassengers draws the Märklin passengers, side by side where several share a city.
func (a *boardArt) drawPassengers(c *canvas, ps []PassengerMark) {
	count := map[data.CityID]int{}
	for _, pm := range ps {
		ci := int(pm.City)
		if ci < 0 || ci >= len(a.b.Cities) || a.badges[ci] == nil {
			continue
		}
		p := a.badges[ci][2]
		k := count[pm.City]
		count[pm.City]++
		drawPassenger(c, pm.Seat, p.X+float64(k)*9, p.Y)
	}
}
