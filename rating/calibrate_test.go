package rating

import (
	"math"
	"testing"
)

// TestCalibration replays fresh bot games no fit saw
// (testdata/calibration.txt.gz) as servers whose members are secretly
// bots (Calibration), 20 servers of each kind: every member taking any
// seat of their level, and members keeping to the stronger or the weaker
// tables. docs/ratings.md has the figures and why each bound is where it
// is; `conductor ratings --calibrate` prints them. On every edition and
// kind of server:
//   - the ratings name the winner far more often than a coin (20 points);
//   - over the whole server, as often as the records of wins at least:
//     not behind by more than 0.3 of a point on any edition (the whole
//     step's measurement: level with the records on USA, where the true
//     levels themselves are only 1.1 points ahead of them), and ahead
//     pooled over the six by 0.15 of a point;
//   - where members of the two circles meet, where a record of wins
//     misleads, ahead by 1.5 points on every edition;
//   - in members' first ten games, ahead by 1.5 points on Europe and
//     Märklin, and on USA not behind by more than 3 (its expert members are
//     new for longer, and a newcomer's record of one half beats a
//     settled hard member's at once);
//   - nine members in ten are within 4 of their level's anchor by their
//     55th game (OpenSkill's damped step: 62nd to 82nd), and nine pairs
//     of members of two levels in ten are in order by the 12th;
//   - the chances come true as often as they say (within 5 points, in
//     every band of a thousand pairs or more).
func TestCalibration(t *testing.T) {
	games := readGames(t, "testdata/calibration.txt.gz")
	m := Default()
	var leads float64
	for _, ed := range []string{"usa", "europe", "marklin"} {
		for _, company := range []float64{0, 16} {
			rep := m.Calibrate(games[ed], Anchors(ed), Calibration{Members: 16, BotShare: 0.25, Company: company, Tolerance: 4, Settled: 0.9, Fresh: ProvisionalGames, Servers: 20, Seed: 1})
			name := ed + map[bool]string{false: ", every member anywhere", true: ", two circles"}[company > 0]
			all, fresh := rep.All, rep.Fresh
			t.Logf("%s: ratings %.2f%%, records %.2f%%, coin %.2f%%, true levels %.2f%%; first games %.2f%% / %.2f%%; circles %.2f%% / %.2f%%; within 4 from game %d, in order from %d",
				name, 100*all.Rating, 100*all.Counts, 100*all.Coin, 100*all.Truth, 100*fresh.Rating, 100*fresh.Counts, 100*rep.Mixed.Rating, 100*rep.Mixed.Counts, rep.SettledAfter, rep.OrderedAfter)
			if all.Rating < all.Coin+0.2 {
				t.Errorf("%s: the ratings name the winner of %.1f%% of games, a coin %.1f%%", name, 100*all.Rating, 100*all.Coin)
			}
			if all.Rating < all.Counts-0.003 {
				t.Errorf("%s: the ratings name the winner of %.2f%% of games, the records of wins %.2f%%", name, 100*all.Rating, 100*all.Counts)
			}
			leads += all.Rating - all.Counts
			freshMargin := 0.015
			if ed == "usa" {
				freshMargin = -0.03
			}
			if fresh.Rating < fresh.Counts+freshMargin {
				t.Errorf("%s: in members' first %d games the ratings name the winner of %.1f%%, the records of wins %.1f%%", name, ProvisionalGames, 100*fresh.Rating, 100*fresh.Counts)
			}
			if company > 0 && rep.Mixed.Rating < rep.Mixed.Counts+0.015 {
				t.Errorf("%s: where the circles meet the ratings name the winner of %.1f%%, the records of wins %.1f%%", name, 100*rep.Mixed.Rating, 100*rep.Mixed.Counts)
			}
			if rep.SettledAfter == 0 || rep.SettledAfter > 55 {
				t.Errorf("%s: nine members in ten within 4 of their level from game %d (0: never)", name, rep.SettledAfter)
			}
			if rep.OrderedAfter == 0 || rep.OrderedAfter > 12 {
				t.Errorf("%s: nine pairs in ten of members of two levels in order from game %d (0: never)", name, rep.OrderedAfter)
			}
			for _, b := range rep.Bins {
				if b.Pairs >= 1000 && math.Abs(b.Predicted-b.Observed) > 0.05 {
					t.Errorf("%s: chances of %.1f–%.1f said %.3f, came true %.3f (%d pairs)", name, b.From, b.To, b.Predicted, b.Observed, b.Pairs)
				}
			}
		}
	}
	if lead := leads / 6; lead < 0.0015 {
		t.Errorf("over the whole servers the ratings name the winner %.2f points more often than the records of wins, pooled", 100*lead)
	}
}
