package present

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// trainsWarning is how few trains a seat has left when the table is told,
// once, that the end is near: before the last round is triggered (at 2 or
// fewer on every edition), so that nobody learns of the end from it.
const trainsWarning = 5

// RaceLines tell how the race for the end stands after an action, when it
// changed: a seat dropping to trainsWarning trains or fewer for the first
// time (the last round not yet begun), and who holds the longest path once
// it passes to other hands. v is the public view after the action, ev its
// events; only claims change either.
func RaceLines(loc string, v *engine.PublicView, players []Player, ev []engine.Event) []string {
	var lines []string
	name := seatLabel(loc, players)
	for _, e := range ev {
		if e.Kind != engine.EvClaim || e.Seat >= len(v.Players) {
			continue
		}
		left := v.Players[e.Seat].Trains
		before := left + v.Board.Tracks[e.Track].Length
		if !v.LastRound && left <= trainsWarning && before > trainsWarning {
			lines = append(lines, T(loc, "race.trains_low", "player", "**"+EscapeMarkdown(name(e.Seat))+"**", "n", left))
		}
		if v.Board.Rules.LongestPathBonus == 0 {
			continue
		}
		length, now := longestHolders(v)
		prev := *v
		prev.Owners = slices.Clone(v.Owners)
		prev.Owners[e.Track] = -1
		_, was := longestHolders(&prev)
		if length > 0 && !slices.Equal(now, was) {
			names := make([]string, len(now))
			for i, h := range now {
				names[i] = "**" + EscapeMarkdown(name(h)) + "**"
			}
			lines = append(lines, T(loc, "race.longest", "players", JoinList(loc, names), "length", length))
		}
	}
	return lines
}

// TieBreakLines say, on the final sheet, how each score shared by
// neighbours in the ranking was settled: by which of the edition's
// tie-breaks, or that it was not (a shared place). names are as typed.
func TieBreakLines(loc string, b *data.Board, fs *engine.FinalScore, names []string) []string {
	var lines []string
	for r := 1; r < len(fs.Ranking); r++ {
		i, j := fs.Ranking[r-1], fs.Ranking[r]
		p, q := &fs.Players[i], &fs.Players[j]
		if p.Total != q.Total {
			continue
		}
		a, z := "**"+EscapeMarkdown(names[i])+"**", "**"+EscapeMarkdown(names[j])+"**"
		rule, first, decided := engine.DecidingTieBreak(b, p, q)
		if !decided {
			lines = append(lines, T(loc, "final.tie_shared", "a", a, "b", z, "points", p.Total))
			continue
		}
		if !first {
			a, z, p, q = z, a, q, p
		}
		var why string
		switch rule {
		case data.TieTickets:
			why = T(loc, "final.tie.tickets", "n", p.CompletedTickets, "m", q.CompletedTickets)
		case data.TieLongestPath:
			why = T(loc, "final.tie.longest", "n", p.LongestPath, "m", q.LongestPath)
		case data.TieFewestStations:
			why = T(loc, "final.tie.stations", "n", p.StationsBuilt, "m", q.StationsBuilt)
		case data.TieExpress:
			why = T(loc, "final.tie.express", "bonus", LongestBonusName(loc, b))
		case data.TieGoods:
			why = T(loc, "final.tie.goods", "n", p.GoodsPoints, "m", q.GoodsPoints)
		}
		lines = append(lines, T(loc, "final.tie", "a", a, "b", z, "points", p.Total, "why", why))
	}
	return lines
}
