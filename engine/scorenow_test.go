package engine

import (
	"reflect"
	"testing"
)

// ScoreNow scores a game in progress exactly as the end of the game would
// score the same holdings, and leaves the game untouched; on a finished
// game it is the final score.
func TestScoreNowScoresTheGameAsItStands(t *testing.T) {
	for _, tc := range []struct{ board, variant string }{{"usa", ""}, {"europe", "classic"}, {"marklin", ""}} {
		g := started(t, tc.board, tc.variant, 3)
		for i := 0; i < 60 && g.Phase() != PhaseOver; i++ {
			legal := g.LegalActions(g.Current(), nil)
			mustPlay(t, g, g.Current(), legal[(i*7)%len(legal)])
		}
		if g.Phase() == PhaseOver {
			t.Fatalf("%s: the game ended in 60 moves", tc.board)
		}
		before := g.Public()
		fs := g.ScoreNow()
		if !reflect.DeepEqual(before, g.Public()) || g.Final() != nil {
			t.Fatalf("%s: ScoreNow changed the game", tc.board)
		}
		if len(fs.Players) != 3 || len(fs.Ranking) != 3 {
			t.Fatalf("%s: %d players scored, ranking %v", tc.board, len(fs.Players), fs.Ranking)
		}
		for seat, ps := range fs.Players {
			running := g.Public().Players[seat].Score
			if ps.RoutePoints+ps.GoodsPoints != running {
				t.Errorf("%s seat %d: routes %d + goods %d, but %d on the score track", tc.board, seat, ps.RoutePoints, ps.GoodsPoints, running)
			}
			if sum := ps.RoutePoints + ps.TicketPoints + ps.BonusPoints + ps.StationPoints + ps.GoodsPoints; sum != ps.Total {
				t.Errorf("%s seat %d: parts add to %d, total %d", tc.board, seat, sum, ps.Total)
			}
			if len(ps.Tickets) != len(g.Player(seat).Tickets) {
				t.Errorf("%s seat %d: %d tickets scored of %d held", tc.board, seat, len(ps.Tickets), len(g.Player(seat).Tickets))
			}
		}
		// Played to the end, the final score is what ScoreNow says then.
		for g.Phase() != PhaseOver {
			legal := g.LegalActions(g.Current(), nil)
			mustPlay(t, g, g.Current(), legal[0])
		}
		if got := g.ScoreNow(); !reflect.DeepEqual(got, *g.Final()) {
			t.Fatalf("%s: ScoreNow on a finished game differs from its final score", tc.board)
		}
	}
}
