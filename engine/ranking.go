package engine

import (
	"slices"

	"conductor/data"
)

// rank orders players by total, then by the board's tie-breaks in order;
// players still tied keep their seat order.
func rank(b *data.Board, players []PlayerScore) []int {
	order := make([]int, len(players))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return compare(b, &players[i], &players[j]) })
	return order
}

// compare orders two players by total, then by the board's tie-breaks:
// negative when p ranks first, 0 when nothing separates them.
func compare(b *data.Board, p, q *PlayerScore) int {
	if p.Total != q.Total {
		return q.Total - p.Total
	}
	for _, tb := range b.Rules.TieBreaks {
		if c := tieBreak(tb, p, q); c != 0 {
			return c
		}
	}
	return 0
}

// Winners are the seats that share first place on board b: equal to the
// winner in total and in every tie-break. Usually one seat.
func Winners(b *data.Board, fs *FinalScore) []int {
	first := &fs.Players[fs.Ranking[0]]
	var out []int
	for _, seat := range fs.Ranking {
		if compare(b, &fs.Players[seat], first) != 0 {
			break
		}
		out = append(out, seat)
	}
	return out
}

// tieBreak compares two tied players by one rule: negative when p ranks first.
func tieBreak(rule string, p, q *PlayerScore) int {
	switch rule {
	case "tickets": // most completed tickets
		return q.CompletedTickets - p.CompletedTickets
	case "longest_path": // longest path, by length
		return q.LongestPath - p.LongestPath
	case "fewest_stations": // fewest stations built
		return p.StationsBuilt - q.StationsBuilt
	case "express": // holds the longest-path bonus card
		return boolRank(q.LongestBonus) - boolRank(p.LongestBonus)
	case "goods": // most goods points
		return q.GoodsPoints - p.GoodsPoints
	}
	return 0
}

func boolRank(v bool) int {
	if v {
		return 1
	}
	return 0
}
