package imaging

import (
	"image"
	"image/color"
	"io"
	"math"
)

// A server's table of ratings (/ttr leaderboard): a heading with the
// edition and the season, then a row a member, best first, with their
// place, name, rating, games and latest results; the bots' measured
// ratings stand between them as reference lines.

// LeaderboardScene is a table as the picture shows it, in its language.
type LeaderboardScene struct {
	Title   string // the edition ("Ticket to Ride — USA")
	Heading string // "Leaderboard"
	Season  string // the season's line
	// Column headings.
	Place, Player, Rating, Games, Form string
	Rows                               []LeaderboardRow
	// Footer lines: what a provisional mark means, how many more.
	Footer []string
	Bot    string // the badge beside a bot's name
}

// LeaderboardRow is one line of the table.
type LeaderboardRow struct {
	Place  string // "1"; "" for a bot's reference line
	Name   string
	Bot    bool   // a bot level's measured rating, for reference
	Rating string // "1,437"
	// Mark follows the rating: the provisional mark, or "".
	Mark  string
	Games string
	Form  []FormMark // latest results, oldest first
	// Highlight marks the asker's own line.
	Highlight bool
}

// FormMark is one result of a member's form: its label ("1", "3") drawn
// on a disc coloured by how it went.
type FormMark struct {
	Label string
	Kind  FormKind
}

// FormKind is how a result went.
type FormKind int

const (
	FormMiddle FormKind = iota // between the first and the last place
	FormWon                    // first, alone or shared
	FormLast                   // last, or the seat left to a bot
)

const (
	boardW       = 1000
	boardHeadH   = 104
	boardColH    = 34
	boardRowH    = 46
	boardFooterH = 26
)

var boardStripe = color.RGBA{239, 235, 226, 255}

// Leaderboard draws a table of ratings as a PNG.
func (r *Renderer) Leaderboard(w io.Writer, s *LeaderboardScene) error {
	h := boardHeadH + boardColH + len(s.Rows)*boardRowH + 16 + len(s.Footer)*boardFooterH + 8
	rect := image.Rect(0, 0, boardW, h)
	im := image.NewRGBA(rect)
	c := newCanvas(im, newFaces())
	drawLeaderboard(c, s)
	q := newQuantizer(append(flatColors(), boardStripe), playerColors[:], im)
	pal := image.NewPaletted(rect, q.pal)
	q.convert(pal, im, rect)
	return r.encode(w, pal)
}

func drawLeaderboard(c *canvas, s *LeaderboardScene) {
	c.rect(c.im.Rect, panelBG)
	c.rect(image.Rect(0, 0, boardW, boardHeadH), panelHead)
	c.text(c.f.body, fit(c, c.f.body, s.Title, boardW-48), 24, 26, 0, 0.5, panelSub)
	c.text(c.f.big, fit(c, c.f.big, s.Heading, boardW-48), 24, 56, 0, 0.5, paper)
	c.text(c.f.body, fit(c, c.f.body, s.Season, boardW-48), 24, 86, 0, 0.5, panelSub)

	const (
		xPlace  = 56  // right edge
		xName   = 84  // left edge
		xRating = 560 // right edge
		xGames  = 680 // right edge
		xForm   = 720 // left edge
	)
	y := float64(boardHeadH + boardColH/2 + 2)
	c.text(c.f.bodyBold, s.Place, xPlace, y, 1, 0.5, muted)
	c.text(c.f.bodyBold, s.Player, xName, y, 0, 0.5, muted)
	c.text(c.f.bodyBold, s.Rating, xRating, y, 1, 0.5, muted)
	c.text(c.f.bodyBold, s.Games, xGames, y, 1, 0.5, muted)
	c.text(c.f.bodyBold, s.Form, xForm, y, 0, 0.5, muted)
	top := boardHeadH + boardColH
	c.rect(image.Rect(16, top-1, boardW-16, top), panelRule)
	for i, row := range s.Rows {
		y0 := top + i*boardRowH
		mid := float64(y0) + boardRowH/2
		switch {
		case row.Highlight:
			c.rect(image.Rect(8, y0+3, boardW-8, y0+boardRowH-3), turnBG)
		case i%2 == 1:
			c.rect(image.Rect(8, y0+3, boardW-8, y0+boardRowH-3), boardStripe)
		}
		if row.Bot {
			// A reference line: the level's measured rating, in grey.
			c.strokePoly([]pt{{xName, float64(y0) + 3}, {boardW - 16, float64(y0) + 3}}, false, 1, panelRule, []float64{4, 4})
			bw := math.Max(34, c.measure(c.f.small, s.Bot)+12)
			nw := c.text(c.f.body, fit(c, c.f.body, row.Name, xRating-160-xName-bw), xName, mid, 0, 0.5, muted)
			c.roundRect(xName+nw+8, mid-8, bw, 17, 4, muted)
			c.text(c.f.small, s.Bot, xName+nw+8+bw/2, mid+0.5, 0.5, 0.5, paper)
			c.text(c.f.bodyBold, row.Rating, xRating, mid, 1, 0.5, muted)
			continue
		}
		c.text(c.f.title, row.Place, xPlace, mid, 1, 0.5, muted)
		c.text(c.f.title, fit(c, c.f.title, row.Name, xRating-140-xName), xName, mid, 0, 0.5, ink)
		rw := c.text(c.f.title, row.Rating, xRating, mid, 1, 0.5, ink)
		if row.Mark != "" {
			c.text(c.f.bodyBold, row.Mark, xRating-rw-6, mid, 1, 0.5, muted)
		}
		c.text(c.f.body, row.Games, xGames, mid, 1, 0.5, muted)
		for k, m := range row.Form {
			x := float64(xForm) + 13 + float64(k)*30
			if x > boardW-24 {
				break
			}
			col := muted
			switch m.Kind {
			case FormWon:
				col = good
			case FormLast:
				col = bad
			}
			c.circle(x, mid, 12, col)
			c.text(c.f.small, m.Label, x, mid+0.5, 0.5, 0.5, paper)
		}
	}
	y = float64(top+len(s.Rows)*boardRowH) + 16
	c.rect(image.Rect(16, int(y)-8, boardW-16, int(y)-7), panelRule)
	for _, l := range s.Footer {
		c.text(c.f.body, fit(c, c.f.body, l, boardW-48), 24, y+boardFooterH/2, 0, 0.5, muted)
		y += boardFooterH
	}
}
