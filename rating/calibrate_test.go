package rating

import (
	"math"
	"testing"
)

// TestCalibration replays fresh bot games no fit saw
// (testdata/calibration.txt.gz) as servers whose members are secretly
// bots (Calibration), every member taking any seat of their level, and
// members keeping to the stronger or the weaker tables. On every edition:
// the ratings name the winner far more often than a coin, and as often
// as the records of wins at least (within a point); where members of the
// two circles meet, where a record of wins misleads, the ratings name the
// winner more often, pooled over the editions; the ratings put members of
// a stronger level above those of a weaker one (nine pairs in ten) within
// 20 games; and the chances they give come true as often as they say
// (within 5 points, in every band of a thousand pairs or more).
// docs/ratings.md has the figures; `conductor ratings --calibrate`
// prints them.
func TestCalibration(t *testing.T) {
	games := readGames(t, "testdata/calibration.txt.gz")
	m := Default()
	var mixedGames, mixedGain float64
	for _, ed := range []string{"usa", "europe", "marklin"} {
		for _, company := range []float64{0, 16} {
			rep := m.Calibrate(games[ed], Anchors(ed), Calibration{Members: 16, BotShare: 0.25, Company: company, Tolerance: 4, Settled: 0.9, Seed: 1})
			name := ed + map[bool]string{false: ", every member anywhere", true: ", two circles"}[company > 0]
			if rep.Rating < rep.Coin+0.2 {
				t.Errorf("%s: the ratings name the winner of %.1f%% of games, a coin %.1f%%", name, 100*rep.Rating, 100*rep.Coin)
			}
			if rep.Rating < rep.Counts-0.01 {
				t.Errorf("%s: the ratings name the winner of %.1f%% of games, the records of wins %.1f%%", name, 100*rep.Rating, 100*rep.Counts)
			}
			if rep.OrderedAfter == 0 || rep.OrderedAfter > 20 {
				t.Errorf("%s: nine pairs in ten of members of two levels in order from game %d (0: never)", name, rep.OrderedAfter)
			}
			for _, b := range rep.Bins {
				if b.Pairs >= 1000 && math.Abs(b.Predicted-b.Observed) > 0.05 {
					t.Errorf("%s: chances of %.1f–%.1f said %.3f, came true %.3f (%d pairs)", name, b.From, b.To, b.Predicted, b.Observed, b.Pairs)
				}
			}
			if company > 0 {
				mixedGames += float64(rep.MixedGames)
				mixedGain += float64(rep.MixedGames) * (rep.RatingMixed - rep.CountsMixed)
			}
		}
	}
	if gain := mixedGain / mixedGames; gain < 0.01 {
		t.Errorf("where the circles meet, the ratings name the winner %.1f points more often than the records of wins, pooled", 100*gain)
	}
}
