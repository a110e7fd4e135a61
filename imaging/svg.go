package imaging

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging/layout"
)

// The board as SVG, for the live page: the same Scene as the PNG (public
// information only), the same geometry (layoutTracks through the same
// view), in the same pixel coordinates as the PNG's map. The static map
// (land, tracks as printed, cities, names) is the PNG's own static layer,
// served once as a picture (BoardArt); the SVG draws over it what changes
// and what a finger can touch: every track's car spaces, hit path and
// label, each city's station, passenger and goods places.
//
// The page changes a drawn SVG as the game goes by setting attributes the
// SVG's style reads: data-owner on a track, data-station, data-passenger
// and data-goods on a city, class "last" on the last move. So one SVG
// document per board and language serves every frame of a game.

// BoardWords are the words of a board's SVG in one language: what a
// screen reader says of the map and of each track.
type BoardWords struct {
	Title string
	// Tracks holds, per TrackID, the track's label ("Paris – Frankfurt
	// (white 3)").
	Tracks []string
	// Cities holds, per CityID, the name a screen reader says.
	Cities []string
}

// ArtName names a board's static art (BoardArt) by its content, so that
// the picture may be cached for ever under that name.
func ArtName(b *data.Board) string {
	return fmt.Sprintf("%s-%016x.png", b.ID, boardHash(b))
}

// BoardArt writes the board's static map (no panel, nothing claimed) as
// the PNG the SVG lays its marks over, its tracks lettered with letters
// (present.Letters of the page's language).
func (r *Renderer) BoardArt(w io.Writer, b *data.Board, letters Letters) error {
	if b == nil {
		return errNoBoard
	}
	a := r.art(b)
	l := a.boardLayer(letters)
	crop := l.staticPal.SubImage(image.Rect(0, 0, mapWidth, a.h)).(*image.Paletted)
	return r.encode(w, crop)
}

// SVGSize is the size of a board's SVG (and of its art), in PNG pixels.
func (r *Renderer) SVGSize(b *data.Board) (w, h int) {
	return mapWidth, r.art(b).h
}

// BoardSVG writes the board of s as an SVG document drawn over artHref
// (BoardArt's picture), with words for screen readers.
func (r *Renderer) BoardSVG(w io.Writer, s *Scene, words BoardWords, artHref string) error {
	if s == nil || s.Board == nil {
		return errNoBoard
	}
	a := r.art(s.Board)
	bw := bufio.NewWriterSize(w, 64<<10)
	a.writeSVG(bw, s, words, artHref)
	return bw.Flush()
}

// svgWriter writes SVG text, escaping what it is given.
type svgWriter struct{ w *bufio.Writer }

func (sw svgWriter) raw(s string) { sw.w.WriteString(s) }

func (sw svgWriter) text(s string) { xml.EscapeText(sw.w, []byte(s)) }

// attr writes ` name="value"`, escaped.
func (sw svgWriter) attr(name, value string) {
	sw.w.WriteByte(' ')
	sw.w.WriteString(name)
	sw.w.WriteString(`="`)
	xml.EscapeText(sw.w, []byte(value))
	sw.w.WriteByte('"')
}

func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// points is a polygon's points attribute.
func points(ps []pt) string {
	var sb strings.Builder
	for i, p := range ps {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(num(p.X))
		sb.WriteByte(',')
		sb.WriteString(num(p.Y))
	}
	return sb.String()
}

// TrackPolygons are the corners of each car space of a track, in SVG
// (and PNG) pixels, as the board picture fills them when it is claimed.
func (r *Renderer) TrackPolygons(b *data.Board, id data.TrackID) [][4][2]float64 {
	a := r.art(b)
	var out [][4][2]float64
	for _, sp := range a.spaces[id] {
		cs := a.v.corners(sp, 0)
		var q [4][2]float64
		for i := range q {
			q[i] = [2]float64{cs[i].X, cs[i].Y}
		}
		out = append(out, q)
	}
	return out
}

// centreline is the path through a track's spaces, end to end.
func (a *boardArt) centreline(id data.TrackID) string {
	sps := a.spaces[id]
	if len(sps) == 0 {
		return ""
	}
	var sb strings.Builder
	first, last := sps[0], sps[len(sps)-1]
	// From the outer end of the first space to the outer end of the last.
	dx, dy := math.Cos(first.Angle)*first.L/2, math.Sin(first.Angle)*first.L/2
	start := a.v.p(first.X-dx, first.Y-dy)
	fmt.Fprintf(&sb, "M%s %s", num(start.X), num(start.Y))
	for _, sp := range sps {
		c := a.v.centre(sp)
		fmt.Fprintf(&sb, "L%s %s", num(c.X), num(c.Y))
	}
	dx, dy = math.Cos(last.Angle)*last.L/2, math.Sin(last.Angle)*last.L/2
	end := a.v.p(last.X+dx, last.Y+dy)
	fmt.Fprintf(&sb, "L%s %s", num(end.X), num(end.Y))
	return sb.String()
}

// markerSymbol is a seat's mark (the shape the PNG draws on its trains)
// as an SVG shape of radius 1 around 0,0.
func markerSymbol(seat int) string {
	switch seats[seatIndex(seat)].shape {
	case circleMark:
		return `<circle r="1"/>`
	case squareMark:
		s := 0.88
		return `<polygon points="` + points([]pt{{-s, -s}, {s, -s}, {s, s}, {-s, s}}) + `"/>`
	case triangleMark:
		h := 1.1
		return `<polygon points="` + points([]pt{{0, -h}, {h * 0.95, h * 0.7}, {-h * 0.95, h * 0.7}}) + `"/>`
	case diamondMark:
		h := 1.15
		return `<polygon points="` + points([]pt{{0, -h}, {h, 0}, {0, h}, {-h, 0}}) + `"/>`
	default:
		return `<polygon points="` + points(crossPoly(0, 0, 1.05, 0.36)) + `"/>`
	}
}

// SeatColor is a seat's colour as CSS writes it ("#c41628").
func SeatColor(seat int) string { return hexColor(playerColor(seat)) }

// SeatInk is the colour of the mark drawn on a seat's colour.
func SeatInk(seat int) string { return hexColor(markerInk(seat)) }

// CardColor is a card's colour as CSS writes it, and the ink of its letter.
func CardColor(c engine.Card) (fill, letter string) {
	if int(c) <= 0 || int(c) >= len(cardColors) {
		return hexColor(cardColors[0]), hexColor(ink)
	}
	return hexColor(cardColors[c]), hexColor(letterOn(cardColors[c]))
}

// svgStyle is the style the attributes select: owners' colours and marks,
// the last move's glow, what may be clicked.
func svgStyle() string {
	var sb strings.Builder
	sb.WriteString(`.car{fill:transparent;stroke:none}.mk{display:none}.hit{fill:none;stroke:transparent;stroke-width:22;stroke-linecap:round;pointer-events:stroke}` +
		`.glow{fill:none;stroke:none;stroke-linecap:round}.last .glow{stroke:` + hexColor(glow) + `;stroke-opacity:.85}` +
		`.track[data-owner]:not([data-owner="-1"]) .mk{display:inline}` +
		`.stn,.pax,.gds{display:none}.city[data-station]:not([data-station="-1"]) .stn{display:inline}` +
		`.city[data-passenger]:not([data-passenger="-1"]) .pax{display:inline}.city[data-goods]:not([data-goods=""]) .gds{display:inline}` +
		`.city-ring{fill:none;stroke:none}.city.last .city-ring{stroke:` + hexColor(glow) + `;stroke-width:3.5}` +
		`.city-hit{fill:transparent;stroke:none}`)
	for seat := range len(playerColors) {
		edge := carEdge
		if seatIndex(seat) == 4 {
			edge = carEdgeLow
		}
		fmt.Fprintf(&sb, `.track[data-owner="%d"] .car{fill:%s;stroke:%s;stroke-width:3.2;paint-order:stroke}`, seat, SeatColor(seat), hexColor(edge))
		fmt.Fprintf(&sb, `.track[data-owner="%d"] .mk{fill:%s}`, seat, SeatInk(seat))
		fmt.Fprintf(&sb, `.city[data-station="%d"] .stn path{fill:%s;stroke:%s}.city[data-station="%d"] .stn use{fill:%s}`, seat, SeatColor(seat), hexColor(edge), seat, SeatInk(seat))
		fmt.Fprintf(&sb, `.city[data-passenger="%d"] .pax *{fill:%s;stroke:%s}`, seat, SeatColor(seat), hexColor(edge))
	}
	return sb.String()
}

// writeSVG writes the whole document.
func (a *boardArt) writeSVG(w *bufio.Writer, s *Scene, words BoardWords, artHref string) {
	sw := svgWriter{w}
	b := a.b
	sw.raw(`<svg xmlns="http://www.w3.org/2000/svg" class="board"`)
	sw.attr("viewBox", fmt.Sprintf("0 0 %d %d", mapWidth, a.h))
	sw.attr("data-board", b.ID)
	sw.attr("role", "group")
	sw.attr("aria-label", words.Title)
	sw.raw(`><title>`)
	sw.text(words.Title)
	sw.raw(`</title><style>`)
	sw.raw(svgStyle())
	sw.raw(`</style><defs>`)
	for seat := range len(playerColors) {
		fmt.Fprintf(w, `<symbol id="mk%d" viewBox="-1.2 -1.2 2.4 2.4">%s</symbol>`, seat, markerSymbol(seat))
	}
	sw.raw(`</defs><image`)
	sw.attr("href", artHref)
	sw.attr("width", strconv.Itoa(mapWidth))
	sw.attr("height", strconv.Itoa(a.h))
	sw.raw(`/><g class="tracks">`)
	last := map[data.TrackID]bool{}
	for _, id := range s.LastMove.Tracks {
		last[id] = true
	}
	for i := range b.Tracks {
		id := data.TrackID(i)
		owner := ownerOf(s.Owners, i)
		sw.raw(`<g class="track`)
		if last[id] {
			sw.raw(` last`)
		}
		sw.raw(`"`)
		sw.attr("id", "t"+strconv.Itoa(i))
		sw.attr("data-id", strconv.Itoa(i))
		sw.attr("data-ref", engine.TrackRef(b, id))
		sw.attr("data-owner", strconv.Itoa(owner))
		sw.attr("role", "button")
		sw.attr("tabindex", "-1")
		label := ""
		if i < len(words.Tracks) {
			label = words.Tracks[i]
		}
		sw.attr("aria-label", label)
		sw.raw(`>`)
		line := a.centreline(id)
		width := 0.0
		for _, sp := range a.spaces[id] {
			width = math.Max(width, sp.W*a.v.scale)
		}
		sw.raw(`<path class="glow"`)
		sw.attr("d", line)
		sw.attr("stroke-width", num(width+9))
		sw.raw(`/>`)
		for _, sp := range a.spaces[id] {
			sw.raw(`<polygon class="car"`)
			sw.attr("points", points(a.v.corners(sp, 0)))
			sw.raw(`/>`)
		}
		for _, sp := range a.spaces[id] {
			c := a.v.centre(sp)
			r := math.Min(3.3, sp.L*a.v.scale*0.2) * 1.2
			fmt.Fprintf(w, `<use class="mk" href="#mk%d" x="%s" y="%s" width="%s" height="%s"/>`,
				max(owner, 0), num(c.X-r), num(c.Y-r), num(2*r), num(2*r))
		}
		sw.raw(`<path class="hit"`)
		sw.attr("d", line)
		sw.raw(`/></g>`)
	}
	sw.raw(`</g><g class="cities">`)
	lastCity := map[data.CityID]bool{}
	for _, c := range s.LastMove.Cities {
		lastCity[c] = true
	}
	passengers := map[data.CityID]int{}
	for _, pm := range s.Passengers {
		passengers[pm.City] = pm.Seat
	}
	ringR := layout.CityRadius*a.v.scale + 5 // as drawHighlight rings a city
	for ci := range b.Cities {
		id := data.CityID(ci)
		p := a.cityPt(id)
		sw.raw(`<g class="city`)
		if lastCity[id] {
			sw.raw(` last`)
		}
		sw.raw(`"`)
		sw.attr("data-city", strconv.Itoa(ci))
		name := b.Cities[ci].Name
		if ci < len(words.Cities) && words.Cities[ci] != "" {
			name = words.Cities[ci]
		}
		sw.attr("data-name", b.Cities[ci].Name)
		station := -1
		if ci < len(s.Stations) {
			station = int(s.Stations[ci])
		}
		sw.attr("data-station", strconv.Itoa(station))
		pax := -1
		if seat, ok := passengers[id]; ok {
			pax = seat
		}
		sw.attr("data-passenger", strconv.Itoa(pax))
		goods := ""
		if ci < len(s.Goods) && len(s.Goods[ci]) > 0 {
			goods = strconv.Itoa(s.Goods[ci][0])
		}
		sw.attr("data-goods", goods)
		sw.raw(`>`)
		fmt.Fprintf(w, `<circle class="city-ring" cx="%s" cy="%s" r="%s"/>`, num(p.X), num(p.Y), num(ringR))
		if ci < len(a.badges) && a.badges[ci] != nil {
			st := a.badges[ci][0]
			x, y := st.X, st.Y
			sw.raw(`<g class="stn">`)
			sw.raw(`<path stroke-width="1.4"`)
			sw.attr("d", fmt.Sprintf("M%s %sL%s %sL%s %sL%s %sL%s %sZ", num(x-7), num(y+6), num(x-7), num(y-2), num(x), num(y-8), num(x+7), num(y-2), num(x+7), num(y+6)))
			sw.raw(`/>`)
			fmt.Fprintf(w, `<use href="#mk%d" x="%s" y="%s" width="%s" height="%s"/>`, max(station, 0), num(x-3.1), num(y+1.5-3.1), num(6.2), num(6.2))
			sw.raw(`</g>`)
			gp := a.badges[ci][1]
			sw.raw(`<g class="gds">`)
			fmt.Fprintf(w, `<circle cx="%s" cy="%s" r="7.5" fill="%s" stroke="%s" stroke-width="1.2"/>`, num(gp.X), num(gp.Y), hexColor(goodsColor(b.Cities[ci].Goods)), hexColor(ink))
			fmt.Fprintf(w, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="central" font-size="9" font-family="sans-serif" fill="%s">%s</text>`,
				num(gp.X), num(gp.Y), hexColor(letterOn(goodsColor(b.Cities[ci].Goods))), goods)
			sw.raw(`</g>`)
			pp := a.badges[ci][2]
			sw.raw(`<g class="pax">`)
			fmt.Fprintf(w, `<path stroke-width="1.2" d="M%s %sL%s %sL%s %sL%s %sZ"/>`, num(pp.X-5), num(pp.Y+7), num(pp.X-4), num(pp.Y), num(pp.X+4), num(pp.Y), num(pp.X+5), num(pp.Y+7))
			fmt.Fprintf(w, `<circle stroke-width="1.2" cx="%s" cy="%s" r="3.6"/>`, num(pp.X), num(pp.Y-4))
			sw.raw(`</g>`)
		}
		sw.raw(`<circle class="city-hit"`)
		sw.attr("cx", num(p.X))
		sw.attr("cy", num(p.Y))
		sw.attr("r", num(ringR+4))
		sw.attr("aria-label", name)
		sw.raw(`/></g>`)
	}
	sw.raw(`</g></svg>`)
}
