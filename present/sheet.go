package present

import (
	"fmt"
	"slices"
	"strconv"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
)

// Score sheets: the final count as a picture and as text, the same for
// the bot, the terminal and `conductor render --final`.

// FinalScene is the score sheet picture in the language of loc: v is the
// game's public view at the end (its tracks, stations and variant, the
// same as the last board showed), fs the final count and names the
// players in seat order.
func FinalScene(loc string, v *engine.PublicView, fs *engine.FinalScore, names []string) *imaging.FinalScene {
	b := v.Board
	sc := &imaging.FinalScene{Board: b, Owners: v.Owners, Stations: v.Stations, Title: EditionName(loc, b, v.Variant),
		Text: finalText(loc)}
	if b.Rules.LongestPathBonus == 0 {
		sc.Text.Paths = "" // no path is outlined
	}
	for i, ps := range fs.Players {
		fl := imaging.FinalLine{Name: names[i], Color: i, RoutePoints: ps.RoutePoints, StationPoints: ps.StationPoints,
			GoodsPoints: ps.GoodsPoints, Total: ps.Total, Winner: fs.Ranking[0] == i, LongestPath: ps.LongestTracks}
		for _, tk := range ps.Tickets {
			line := imaging.TicketLine{From: b.Cities[tk.A].Name, To: b.Cities[tk.B].Name, Points: tk.Points, Completed: tk.Completed, Cities: []data.CityID{tk.A, tk.B}}
			if tk.Completed {
				fl.TicketsWon = append(fl.TicketsWon, line)
			} else {
				fl.TicketsLost = append(fl.TicketsLost, line)
			}
		}
		if ps.LongestBonus {
			fl.Bonuses = append(fl.Bonuses, imaging.Bonus{Name: LongestBonusName(loc, b), Points: ps.BonusPoints})
		}
		if ps.TicketsBonus {
			fl.Bonuses = append(fl.Bonuses, imaging.Bonus{Name: T(loc, "bonus.tickets"), Points: ps.BonusPoints})
		}
		// The ranking says what the edition's bonus counts: the longest
		// path (outlined on the map) or, in Märklin, the tickets completed.
		if b.Rules.LongestPathBonus > 0 {
			fl.Note = []string{T(loc, "picture.final.path", "n", ps.LongestPath)}
		} else {
			fl.Note = []string{T(loc, "picture.final.tickets_done", "n", ps.CompletedTickets)}
			fl.LongestPath = nil
		}
		if fl.Winner {
			fl.Note = append([]string{T(loc, "picture.final.winner_note")}, fl.Note...)
		}
		sc.Players = append(sc.Players, fl)
	}
	return sc
}

// finalText is the score sheet picture's words.
func finalText(loc string) imaging.FinalText {
	w := func(key string) string { return T(loc, "picture.final."+key) }
	return imaging.FinalText{Heading: w("heading"), Paths: w("paths"), Player: w("player"), Routes: w("routes"),
		TicketsWon: w("tickets_won"), TicketsLost: w("tickets_lost"), Bonuses: w("bonuses"), Stations: w("stations"),
		Goods: w("goods"), Total: w("total"), Completed: w("completed"), Failed: w("failed"), BonusList: w("bonus_list"),
		Winner: w("winner")}
}

// PositionFinalScene is the score sheet picture of a position (the
// `conductor render --final` input).
func PositionFinalScene(loc string, pos *engine.Position) *imaging.FinalScene {
	b := pos.Board
	fs := engine.Score(b, pos.Players)
	v := engine.PublicView{Board: b, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities))}
	for i := range v.Owners {
		v.Owners[i] = -1
	}
	for i := range v.Stations {
		v.Stations[i] = -1
	}
	names := make([]string, len(pos.Players))
	for seat, h := range pos.Players {
		names[seat] = h.Name
		for _, t := range h.Tracks {
			v.Owners[t] = int8(seat)
		}
		for _, c := range h.Stations {
			v.Stations[c] = int8(seat)
		}
	}
	return FinalScene(loc, &v, &fs, names)
}

// LongestBonusName names the longest-path bonus as the edition prints it:
// the European Express in Europe, the longest path elsewhere. The text and
// the picture of the final count both use it.
func LongestBonusName(loc string, b *data.Board) string {
	if slices.Contains(b.Rules.TieBreaks, "express") {
		return T(loc, "bonus.express")
	}
	return T(loc, "bonus.longest")
}

// PlayerSheet is one player's score breakdown as text: a title
// ("🔴 Alice — 97", the name as typed, escaped here) and lines for
// routes, tickets, bonuses, stations and goods.
func PlayerSheet(loc string, b *data.Board, seat int, name string, ps *engine.PlayerScore) (title string, lines []string) {
	var won, lost []string
	for _, tk := range ps.Tickets {
		line := fmt.Sprintf("%s – %s (%d)", b.Cities[tk.A].Name, b.Cities[tk.B].Name, tk.Points)
		if tk.Completed {
			won = append(won, "✅ "+line)
		} else {
			lost = append(lost, "❌ "+line)
		}
	}
	lines = []string{T(loc, "final.routes", "points", ps.RoutePoints)}
	lines = append(lines, T(loc, "final.tickets", "points", Signed(ps.TicketPoints), "done", ps.CompletedTickets, "n", len(ps.Tickets)))
	lines = append(lines, won...)
	lines = append(lines, lost...)
	if ps.LongestBonus {
		lines = append(lines, T(loc, "final.longest", "bonus", LongestBonusName(loc, b), "n", ps.LongestPath, "points", Signed(ps.BonusPoints)))
	} else if b.Rules.LongestPathBonus > 0 {
		lines = append(lines, T(loc, "final.longest_none", "n", ps.LongestPath))
	}
	if ps.TicketsBonus {
		lines = append(lines, T(loc, "final.most_tickets", "bonus", T(loc, "bonus.tickets"), "points", Signed(ps.BonusPoints)))
	}
	if b.Rules.Stations > 0 {
		lines = append(lines, T(loc, "final.stations", "points", Signed(ps.StationPoints), "built", ps.StationsBuilt))
		for _, t := range ps.Borrowed {
			lines = append(lines, "   🚉 "+RouteLabel(loc, b, t))
		}
	}
	if b.Rules.Passengers > 0 {
		lines = append(lines, T(loc, "final.goods", "points", ps.GoodsPoints))
	}
	return fmt.Sprintf("%s %s — %d", ColorDot(seat), EscapeMarkdown(name), ps.Total), lines
}

// Ranking is the final order, one line a player: "1. 🔴 Alice — 97";
// names are as typed (escaped here).
func Ranking(fs *engine.FinalScore, names []string) []string {
	var lines []string
	for r, i := range fs.Ranking {
		lines = append(lines, fmt.Sprintf("%d. %s %s — %d", r+1, ColorDot(i), EscapeMarkdown(names[i]), fs.Players[i].Total))
	}
	return lines
}

// Signed writes points gained or lost: "+12", "−7" (a true minus sign,
// as the score sheet picture prints it), and a bare "0": nothing is
// gained or lost, so zero takes no sign.
func Signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}
