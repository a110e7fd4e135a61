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

// FinalScene is the score sheet picture: fs is the final count, owners
// the holder of each track (seat or -1) and names the players in seat
// order.
func FinalScene(loc string, b *data.Board, fs *engine.FinalScore, owners []int8, names []string) *imaging.FinalScene {
	sc := &imaging.FinalScene{Board: b, Owners: owners, Title: EditionName(loc, b, "")}
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
		sc.Players = append(sc.Players, fl)
	}
	return sc
}

// PositionFinalScene is the score sheet picture of a position (the
// `conductor render --final` input).
func PositionFinalScene(loc string, pos *engine.Position) *imaging.FinalScene {
	b := pos.Board
	fs := engine.Score(b, pos.Players)
	owners := make([]int8, len(b.Tracks))
	for i := range owners {
		owners[i] = -1
	}
	names := make([]string, len(pos.Players))
	for seat, h := range pos.Players {
		names[seat] = h.Name
		for _, t := range h.Tracks {
			owners[t] = int8(seat)
		}
	}
	return FinalScene(loc, b, &fs, owners, names)
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
