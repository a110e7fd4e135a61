package engine

import (
	"slices"

	"conductor/data"
)

// rank orders players by total, then by the board's tie-breaks in order;
// players still tied keep their seat order in the ranking and share a place.
func rank(b *data.Board, players []PlayerScore) (order, places []int) {
	order = make([]int, len(players))
	for i := range order {
		order[i] = i
	}
	compare := func(i, j int) int {
		p, q := &players[i], &players[j]
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
	slices.SortStableFunc(order, compare)
	places = make([]int, len(players))
	for r, i := range order {
		if r > 0 && compare(order[r-1], i) == 0 {
			places[i] = places[order[r-1]]
		} else {
			places[i] = r + 1
		}
	}
	return order, places
}

// tieBreak compares two tied players by one rule: negative when p ranks first.
func tieBreak(rule data.TieBreak, p, q *PlayerScore) int {
	switch rule {
	case data.TieTickets:
		return q.CompletedTickets - p.CompletedTickets
	case data.TieLongestPath:
		return q.LongestPath - p.LongestPath
	case data.TieFewestStations:
		return p.StationsBuilt - q.StationsBuilt
	case data.TieExpress:
		return boolRank(q.LongestBonus) - boolRank(p.LongestBonus)
	case data.TieGoods:
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

// DecidingTieBreak is the board's first tie-break that ranks p and q, two
// players tied on points, and which of them it puts first; decided is false
// when every tie-break leaves them tied (they share a place).
func DecidingTieBreak(b *data.Board, p, q *PlayerScore) (rule data.TieBreak, pFirst, decided bool) {
	for _, tb := range b.Rules.TieBreaks {
		if c := tieBreak(tb, p, q); c != 0 {
			return tb, c < 0, true
		}
	}
	return "", false, false
}
