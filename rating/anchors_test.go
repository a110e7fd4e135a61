package rating

import (
	"compress/gzip"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

func readGames(t *testing.T, name string) map[string][]FitGame {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	games, err := ReadPlacings(zr)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// TestAnchorsAreTheFit: the anchors in the code are the fit of the games
// they were measured on (testdata/anchors.txt.gz), Mu to its rounding and
// Sigma (the bootstrap's standard error) to within the noise of a shorter
// bootstrap; the levels stand in order on every edition.
func TestAnchorsAreTheFit(t *testing.T) {
	games := readGames(t, "testdata/anchors.txt.gz")
	m := Default()
	for ed, list := range anchors {
		gs := games[ed]
		if len(gs) == 0 {
			t.Fatalf("no games of %s in the measurement", ed)
		}
		mu, err := m.Fit(gs, "normal", m.Mu0)
		if err != nil {
			t.Fatal(err)
		}
		se, err := m.FitSE(gs, "normal", m.Mu0, 200, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range list {
			if math.Abs(mu[a.Level]-a.Rating.Mu) > 0.005 {
				t.Errorf("%s %s: the code says Mu %.2f, the games %.3f", ed, a.Level, a.Rating.Mu, mu[a.Level])
			}
			if d := math.Abs(se[a.Level] - a.Rating.Sigma); d > 0.25*a.Rating.Sigma+1e-9 {
				t.Errorf("%s %s: the code says Sigma %.2f, a bootstrap of 200 draws %.3f", ed, a.Level, a.Rating.Sigma, se[a.Level])
			}
			if gamesOf(gs, a.Level) != a.Games {
				t.Errorf("%s %s: the code says %d games, the measurement holds %d", ed, a.Level, a.Games, gamesOf(gs, a.Level))
			}
			if i > 0 && a.Rating.Mu <= list[i-1].Rating.Mu {
				t.Errorf("%s: %s (%.2f) is not above %s (%.2f)", ed, a.Level, a.Rating.Mu, list[i-1].Level, list[i-1].Rating.Mu)
			}
		}
	}
}

func gamesOf(gs []FitGame, level string) int {
	n := 0
	for _, g := range gs {
		for _, p := range g {
			if p.Player == level {
				n++
				break
			}
		}
	}
	return n
}

// TestFitFindsKnownSkills: games drawn from known skills under the
// model's own comparisons are fitted back to those skills within a few
// standard errors, and the free fold settles near them.
func TestFitFindsKnownSkills(t *testing.T) {
	m := Default()
	truth := map[string]float64{"a": 12, "b": 25, "c": 31, "d": 36}
	gs := simulated(m, truth, 3000, 4)
	mu, err := m.Fit(gs, "b", 25)
	if err != nil {
		t.Fatal(err)
	}
	se, err := m.FitSE(gs, "b", 25, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	folded := m.FoldFree(gs, "b", 25, 5, 1)
	for p, want := range truth {
		if p == "b" {
			continue
		}
		if math.Abs(mu[p]-want) > 3*se[p]+0.05 {
			t.Errorf("%s: fitted %.2f ± %.2f, true %.2f", p, mu[p], se[p], want)
		}
		if se[p] <= 0 || se[p] > 1 {
			t.Errorf("%s: standard error %.3f", p, se[p])
		}
		if math.Abs(folded[p]-want) > 2.5 {
			t.Errorf("%s: the free fold settles at %.2f, true %.2f", p, folded[p], want)
		}
	}
	// One player who never loses has no finite skill.
	if _, err := m.Fit([]FitGame{{{"x", 1}, {"y", 2}}, {{"x", 1}, {"y", 2}}}, "y", 25); err == nil {
		t.Error("a fit of a player who always won")
	}
}

// simulated draws n games between the players of truth, 2 to seats at a
// table: each seat's performance is its skill plus Gumbel noise of scale
// √2·Beta, so that two seats compare as the model says.
func simulated(m Model, truth map[string]float64, n, seats int) []FitGame {
	r := rand.New(rand.NewPCG(3, 5))
	var players []string
	for p := range truth {
		players = append(players, p)
	}
	slices.Sort(players)
	c := math.Sqrt2 * m.Beta
	var out []FitGame
	for range n {
		k := 2 + r.IntN(seats-1)
		perf := make([]float64, k)
		g := make(FitGame, k)
		for i := range k {
			p := players[r.IntN(len(players))]
			perf[i] = truth[p] - c*math.Log(-math.Log(r.Float64()))
			g[i].Player = p
		}
		for i := range k {
			g[i].Rank = 1
			for j := range k {
				if perf[j] > perf[i] {
					g[i].Rank++
				}
			}
		}
		out = append(out, g)
	}
	return out
}
