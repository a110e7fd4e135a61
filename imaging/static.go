package imaging

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging/layout"
)

// The static layer of the board picture: everything that never changes in a
// game. It is drawn once per board; every frame starts from a copy of it.

func (a *boardArt) drawStatic(c *canvas, letters *Letters) {
	draw.Draw(c.im, a.landImage().Rect, a.landImage(), image.Point{}, draw.Src)
	a.drawCountries(c, a.v)
	for id := range a.b.Tracks {
		a.drawPrintedTrack(c, a.v, data.TrackID(id), letters)
	}
	a.drawCities(c, a.v)
	a.drawLabels(c)
	a.drawPanelStatic(c)
}

// landImage is the map's land and water, drawn once: the slowest part of
// the static layer.
func (a *boardArt) landImage() *image.RGBA {
	a.landOnce.Do(func() {
		a.landIm = image.NewRGBA(image.Rect(0, 0, mapWidth, a.h))
		a.drawLand(&canvas{im: a.landIm}, a.v, a.landIm.Rect)
	})
	return a.landIm
}

// outsideIsSea: beyond the network is sea, except on the Märklin map, whose
// neighbours are land (with their seas carved in).
func (a *boardArt) outsideIsSea() bool { return a.b.ID != "marklin" }

// coastDist estimates the signed distance in pixels from a board point to
// the 0.5 contour of field f (positive inside), from the field's slope.
func coastDist(f *landField, bx, by, scale float64) float64 {
	v := f.at(bx, by)
	gx := f.at(bx+1, by) - f.at(bx-1, by)
	gy := f.at(bx, by+1) - f.at(bx, by-1)
	g := math.Hypot(gx, gy) / 2 // per board unit
	switch {
	case g > 1e-6:
		return (v - 0.5) / g * scale
	case v > 0.5:
		return 100
	}
	return -100
}

// drawLand paints land and water into r, through view v, pixel by pixel from
// the land fields: a coast line, and a band of shallow water along it.
func (a *boardArt) drawLand(c *canvas, v view, r image.Rectangle) {
	const band = 9.0 // px of shallow water
	im := c.im
	outsideSea := a.outsideIsSea()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		by := (float64(y) + 0.5 - v.oy) / v.scale
		for x := r.Min.X; x < r.Max.X; x++ {
			bx := (float64(x) + 0.5 - v.ox) / v.scale
			// Far inside or far out the field is flat: skip the slope.
			var d float64
			switch f := a.land.at(bx, by); {
			case f > 0.8:
				d = 100
			case f < 0.08 && outsideSea:
				d = -100
			default:
				d = coastDist(a.land, bx, by, v.scale)
			}
			var col color.RGBA
			if d >= 0.8 {
				col = land
			} else {
				// A flat band of shallow water, its outer edge antialiased.
				water := seaDeep
				if d > -band-0.5 {
					water = mix(seaDeep, sea, clamp01(d+band+0.5))
				}
				side := water
				if !outsideSea {
					switch w := a.water.at(bx, by); {
					case w > 0.8:
					case w < 0.2:
						side = foreign
					default:
						side = mix(foreign, water, clamp01(coastDist(a.water, bx, by, v.scale)+0.5))
					}
				}
				col = side
				if d > -2.5 {
					// Coast line of about 1.6 px, antialiased on both sides.
					line := clamp01(1.3 - math.Abs(d+0.35)*1.1)
					if d > -0.35 {
						side = land
					}
					col = mix(side, coast, line)
				}
			}
			i := im.PixOffset(x, y)
			im.Pix[i], im.Pix[i+1], im.Pix[i+2], im.Pix[i+3] = col.R, col.G, col.B, 255
		}
	}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// mix blends a towards b by t.
func mix(a, b color.RGBA, t float64) color.RGBA {
	return color.RGBA{
		uint8(math.Round(float64(a.R) + (float64(b.R)-float64(a.R))*t)),
		uint8(math.Round(float64(a.G) + (float64(b.G)-float64(a.G))*t)),
		uint8(math.Round(float64(a.B) + (float64(b.B)-float64(a.B))*t)),
		255,
	}
}

// drawCountries draws the Märklin neighbour countries: a disc per area
// (Österreich has two), named underneath.
func (a *boardArt) drawCountries(c *canvas, v view) {
	r := layout.CountryRadius * v.scale
	for i := range a.b.Countries {
		co := &a.b.Countries[i]
		for _, ar := range co.Areas {
			p := v.pp(ar)
			c.circle(p.X, p.Y, r, foreignDisc)
			c.ring(p.X, p.Y, r, 2.5*v.scale/a.v.scale, countryInk)
		}
	}
}

// drawPrintedTrack draws a free track as printed: coloured spaces, tunnels
// with a dashed dark border, ferry spaces with a locomotive mark, and the
// colour's letter on the middle space. A free track is drawn lighter and
// slimmer than the trains a player puts on it (drawClaimed), so that even
// at Discord's preview size, a quarter of the picture, claimed routes stand
// out from free ones.
// Through a small view (the hand's mini map) the details are left out.
func (a *boardArt) drawPrintedTrack(c *canvas, v view, id data.TrackID, letters *Letters) {
	t := &a.b.Tracks[id]
	row := a.spaces[id]
	col := cardColors[t.Color]
	for i, sp := range row {
		if v.scale < a.v.scale*0.75 {
			// Washed out, so the player's own tracks stand out.
			c.fillPoly(v.corners(sp, 0), mix(col, land, 0.55))
			continue
		}
		col := mix(cardColors[t.Color], land, freeWash)
		cs := v.corners(sp, freeInset)
		c.fillPoly(cs, col)
		if t.Tunnel {
			c.strokePoly(cs, true, 2.2, tunnelEdge, []float64{3.5, 2.5})
		} else {
			c.strokePoly(cs, true, 1, freeEdge, nil)
		}
		ctr := v.centre(sp)
		lpx := sp.L * v.scale
		switch {
		case i < t.Locomotives:
			r := math.Min(4.2, lpx*0.3)
			c.circle(ctr.X, ctr.Y, r, paper)
			c.ring(ctr.X, ctr.Y, r, 1, ink)
			if lpx >= 12 {
				c.text(c.f.tiny, letters.of(engine.Locomotive), ctr.X, ctr.Y, 0.5, 0.5, ink)
			}
		case i == len(row)/2 && t.Color != data.Gray && lpx >= 10:
			c.text(c.f.tiny, letters.of(engine.ColorCard(t.Color)), ctr.X, ctr.Y, 0.5, 0.5, letterOn(col))
		}
	}
}

// A free track's look: its colour mixed with the land by freeWash, its
// spaces freeInset pixels smaller than the trains drawn on it when claimed.
const (
	freeWash  = 0.45
	freeInset = -1.6
)

func (a *boardArt) drawCities(c *canvas, v view) {
	r := layout.CityRadius * v.scale
	for i, city := range a.b.Cities {
		if city.Country {
			continue
		}
		p := v.city(a.b, data.CityID(i))
		c.circle(p.X, p.Y, r, cityFill)
		c.ring(p.X, p.Y, r, math.Min(2, 4*v.scale), cityRing)
	}
}

func (a *boardArt) drawLabels(c *canvas) {
	for _, l := range a.labels {
		draw.Draw(c.im, l.box, l.sprite, l.box.Min, draw.Over)
	}
}

// overlayLabels lays the names again over what a frame drew under them. Only
// pixels that differ from the static layer get the name again (the static
// layer already has it everywhere else), so no name is ever laid twice and
// the result is the same whichever labels are visited.
func (a *boardArt) overlayLabels(c *canvas) {
	im, ref := c.im, c.ref
	for _, l := range a.labels {
		if c.tiles != nil && !c.tiles.any(l.box) {
			continue
		}
		r := l.box.Intersect(im.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				i := im.PixOffset(x, y)
				if im.Pix[i] == ref.Pix[i] && im.Pix[i+1] == ref.Pix[i+1] && im.Pix[i+2] == ref.Pix[i+2] {
					continue
				}
				s := l.sprite.PixOffset(x, y)
				sa := uint32(l.sprite.Pix[s+3])
				if sa == 0 {
					continue
				}
				// Porter-Duff over with premultiplied 8-bit channels.
				for k := range 3 {
					im.Pix[i+k] = uint8(uint32(l.sprite.Pix[s+k]) + (uint32(im.Pix[i+k])*(255-sa)+127)/255)
				}
			}
		}
	}
}
