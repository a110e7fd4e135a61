package present

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/engine/position"
	"conductor/imaging"
)

// Score sheets: the final count as a picture and as text, the same for
// the bot, the terminal and `conductor render --final`.

// FinalScene is the score sheet picture in the language of loc: v is the
// game's public view at the end (its tracks, stations and variant, the
// same as the last board showed), fs the final count and players the
// seats in seat order. early says the game was ended before its end and
// scored as it stood. Players tied after every tie-break share their
// place: a shared victory is drawn as one.
func FinalScene(loc string, v *engine.PublicView, fs *engine.FinalScore, players []Player, early bool) *imaging.FinalScene {
	b := v.Board
	sc := &imaging.FinalScene{Board: b, Owners: v.Owners, Stations: v.Stations, Title: EditionName(loc, b, v.Variant),
		Text: finalText(loc), Letters: Letters(loc)}
	if b.Rules.LongestPathBonus == 0 {
		sc.Text.Paths = "" // no path is outlined
	}
	if early {
		sc.Text.Early = T(loc, "picture.final.early")
	}
	shared := len(Winners(fs)) > 1
	for i, ps := range fs.Players {
		var p Player
		if i < len(players) {
			p = players[i]
		}
		fl := imaging.FinalLine{Name: PlayerName(loc, p), Bot: p.Bot, Color: i, RoutePoints: ps.RoutePoints, StationPoints: ps.StationPoints,
			GoodsPoints: ps.GoodsPoints, Total: ps.Total, Place: Place(fs, i), Winner: Place(fs, i) == 1, LongestPath: ps.LongestTracks}
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
		switch {
		case fl.Winner && shared:
			fl.Note = append([]string{T(loc, "picture.final.shared_note")}, fl.Note...)
		case fl.Winner:
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
		Winner: w("winner"), Shared: w("shared_note"), Bot: T(loc, "picture.bot"), Rating: w("rating")}
}

// Winners are the seats in first place, in ranking order: several for a
// shared victory.
func Winners(fs *engine.FinalScore) []int {
	var w []int
	for _, i := range fs.Ranking {
		if Place(fs, i) == 1 {
			w = append(w, i)
		}
	}
	return w
}

// Place is seat i's place in the final count: 1 for the winners, shared
// by players tied after every tie-break.
func Place(fs *engine.FinalScore, i int) int {
	if i < len(fs.Places) && fs.Places[i] > 0 {
		return fs.Places[i]
	}
	for r, s := range fs.Ranking {
		if s == i {
			return r + 1
		}
	}
	return 0
}

// PositionFinalScene is the score sheet picture of a position (the
// `conductor render --final` input).
func PositionFinalScene(loc string, pos *position.Position) *imaging.FinalScene {
	b := pos.Board
	fs := engine.Score(b, pos.Players)
	v := engine.PublicView{Board: b, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities))}
	for i := range v.Owners {
		v.Owners[i] = -1
	}
	for i := range v.Stations {
		v.Stations[i] = -1
	}
	players := make([]Player, len(pos.Players))
	for seat, h := range pos.Players {
		players[seat] = Player{Name: h.Name}
		for _, t := range h.Tracks {
			v.Owners[t] = int8(seat)
		}
		for _, c := range h.Stations {
			v.Stations[c] = int8(seat)
		}
	}
	return FinalScene(loc, &v, &fs, players, false)
}

// LongestBonusName names the longest-path bonus as the edition prints it:
// the European Express in Europe, the longest path elsewhere. The text and
// the picture of the final count both use it.
func LongestBonusName(loc string, b *data.Board) string {
	if slices.Contains(b.Rules.TieBreaks, data.TieExpress) {
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
	if b.Rules.HasStations() {
		lines = append(lines, T(loc, "final.stations", "points", Signed(ps.StationPoints), "built", ps.StationsBuilt))
		for _, t := range ps.Borrowed {
			lines = append(lines, "   "+StationEmoji+" "+RouteLabel(loc, b, t))
		}
	}
	if b.Rules.HasPassengers() {
		lines = append(lines, T(loc, "final.goods", "points", ps.GoodsPoints))
	}
	return fmt.Sprintf("%s %s — %s", ColorDot(seat), EscapeMarkdown(name), Number(loc, ps.Total)), lines
}

// Ranking is the final order, one line a player: "1. 🔴 Alice — 97";
// players tied after every tie-break share their place ("1." twice for a
// shared victory). Names are as typed (escaped here), numbers as the
// language of loc writes them.
func Ranking(loc string, fs *engine.FinalScore, names []string) []string {
	var lines []string
	for _, i := range fs.Ranking {
		lines = append(lines, fmt.Sprintf("%d. %s %s — %s", Place(fs, i), ColorDot(i), EscapeMarkdown(names[i]), Number(loc, fs.Players[i].Total)))
	}
	return lines
}

// Victory announces the winner, or the winners of a shared victory, with
// their points: name gives a seat's name as the message shows it (a
// mention, an escaped name).
func Victory(loc string, fs *engine.FinalScore, name func(seat int) string) string {
	w := Winners(fs)
	points := fs.Players[w[0]].Total
	if len(w) == 1 {
		return T(loc, "final.winner", "player", name(w[0]), "points", points)
	}
	names := make([]string, len(w))
	for i, s := range w {
		names[i] = name(s)
	}
	return T(loc, "final.shared", "players", JoinList(loc, names), "points", points)
}

// JoinList writes items as a list in the language of loc: "A, B and C".
func JoinList(loc string, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return T(loc, "list.join", "list", strings.Join(items[:len(items)-1], ", "), "last", items[len(items)-1])
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
