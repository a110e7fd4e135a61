package rating

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Placing is one seat of a game as a fit takes it: who sat there and the
// place they finished (1 for the winner; shared places share a rank).
type Placing struct {
	Player string
	Rank   int
}

// FitGame is one finished game, seat by seat.
type FitGame []Placing

// pairTally is what a set of games says about a player against another:
// how many times they met (each pair of seats one comparison, as Rate
// counts it, weighted by the first's share of its seats at the table)
// and how much of it the first one won (a shared place is half).
type pairTally struct{ met, won float64 }

// tallies sums the games' pairwise results over the player indexes of
// idx (each game counted weight[g] times; nil: once). Only the tallies
// matter to the fit.
func tallies(games []FitGame, idx map[string]int, weight []float64) [][]pairTally {
	n := len(idx)
	t := make([][]pairTally, n)
	for i := range t {
		t[i] = make([]pairTally, n)
	}
	for g, game := range games {
		w := 1.0
		if weight != nil {
			w = weight[g]
		}
		if w == 0 {
			continue
		}
		seats := map[int]float64{}
		for _, p := range game {
			seats[idx[p.Player]]++
		}
		for _, p := range game {
			for _, q := range game {
				a, b := idx[p.Player], idx[q.Player]
				if a == b {
					continue // two seats of one level tell nothing of its strength
				}
				s := 0.5
				switch {
				case p.Rank < q.Rank:
					s = 1
				case p.Rank > q.Rank:
					s = 0
				}
				// A level's seats at one table share one seat's weight:
				// each is one player's view of the game.
				wa := w / seats[a]
				t[a][b].met += wa
				t[a][b].won += wa * s
			}
		}
	}
	return t
}

// Fit returns the skills at which each player's seats score, over the
// games, as many of their pairwise comparisons as the model expects
// between settled players: the chance that a player of skill x places
// above one of skill y is 1 / (1 + e^((y−x)/c)), c = √2·Beta, a shared
// place half a win. Rate moves a player by the surprise of its
// comparisons, so that is the point a long run of its updates settles at
// for a member who plays as the player does, one seat a game: a game's
// seats of one player (several bots of a level) share one seat's weight.
// It is found directly, by Newton's method. Skills are only known up to
// a shift: ref's is set to refMu. Every player must be linked to ref
// through games won and lost both ways, or the fit has no finite answer.
func (m Model) Fit(games []FitGame, ref string, refMu float64) (map[string]float64, error) {
	players := fitPlayers(games)
	if !slices.Contains(players, ref) {
		return nil, fmt.Errorf("rating: the reference %q played none of the games", ref)
	}
	return m.fit(games, players, ref, refMu, nil)
}

func fitPlayers(games []FitGame) []string {
	seen := map[string]bool{}
	var players []string
	for _, g := range games {
		for _, p := range g {
			if !seen[p.Player] {
				seen[p.Player] = true
				players = append(players, p.Player)
			}
		}
	}
	slices.Sort(players)
	return players
}

var errNoFit = errors.New("rating: the games do not pin the skills down (a player always won or always lost against the others)")

func (m Model) fit(games []FitGame, players []string, ref string, refMu float64, weight []float64) (map[string]float64, error) {
	idx := map[string]int{}
	for i, p := range players {
		idx[p] = i
	}
	t := tallies(games, idx, weight)
	n := len(players)
	r := idx[ref]
	c := math.Sqrt2 * m.Beta
	x := make([]float64, n) // skills relative to ref
	for iter := 0; iter < 100; iter++ {
		// Gradient and Hessian of the log-likelihood over the free skills.
		grad := make([]float64, n)
		hess := make([][]float64, n)
		for i := range hess {
			hess[i] = make([]float64, n)
		}
		for a := range n {
			for b := range n {
				pt := t[a][b]
				if a == b || pt.met == 0 {
					continue
				}
				p := 1 / (1 + math.Exp((x[b]-x[a])/c))
				grad[a] += (pt.won - pt.met*p) / c
				h := pt.met * p * (1 - p) / (c * c)
				hess[a][a] -= h
				hess[a][b] += h
			}
		}
		// Solve hess·step = −grad over every player but ref.
		var free []int
		for i := range n {
			if i != r {
				free = append(free, i)
			}
		}
		A := make([][]float64, len(free))
		rhs := make([]float64, len(free))
		for i, a := range free {
			A[i] = make([]float64, len(free))
			for j, b := range free {
				A[i][j] = hess[a][b]
			}
			rhs[i] = -grad[a]
		}
		step, ok := solve(A, rhs)
		if !ok {
			return nil, errNoFit
		}
		biggest := 0.0
		for i, a := range free {
			// A long step means the likelihood has no maximum nearby: a
			// player undefeated, or never winning. Halve it and go on; the
			// divergence check below catches the runaway.
			s := math.Max(-10, math.Min(10, step[i]))
			x[a] += s
			biggest = math.Max(biggest, math.Abs(s))
		}
		if biggest < 1e-10 {
			out := map[string]float64{}
			for i, p := range players {
				out[p] = refMu + x[i]
			}
			return out, nil
		}
		for _, v := range x {
			if math.Abs(v) > 500 {
				return nil, errNoFit
			}
		}
	}
	return nil, errNoFit
}

// solve solves A·x = b by Gaussian elimination with partial pivoting.
func solve(A [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	for col := range n {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(A[r][col]) > math.Abs(A[pivot][col]) {
				pivot = r
			}
		}
		if math.Abs(A[pivot][col]) < 1e-12 {
			return nil, false
		}
		A[col], A[pivot] = A[pivot], A[col]
		b[col], b[pivot] = b[pivot], b[col]
		for r := col + 1; r < n; r++ {
			f := A[r][col] / A[col][col]
			for k := col; k < n; k++ {
				A[r][k] -= f * A[col][k]
			}
			b[r] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= A[r][k] * x[k]
		}
		x[r] = s / A[r][r]
	}
	return x, true
}

// FitSE returns each player's standard error in Fit, by the bootstrap:
// the games drawn again with replacement reps times (from seed) and
// fitted afresh. Drawing whole games keeps the seats of a game, whose
// comparisons are not independent, together. ref's error is 0: the
// others' are relative to it.
func (m Model) FitSE(games []FitGame, ref string, refMu float64, reps int, seed uint64) (map[string]float64, error) {
	players := fitPlayers(games)
	if !slices.Contains(players, ref) {
		return nil, fmt.Errorf("rating: the reference %q played none of the games", ref)
	}
	r := rand.New(rand.NewPCG(seed, 0xb007))
	sum, sum2 := map[string]float64{}, map[string]float64{}
	weight := make([]float64, len(games))
	done := 0
	for range reps {
		clear(weight)
		for range games {
			weight[r.IntN(len(games))]++
		}
		fit, err := m.fit(games, players, ref, refMu, weight)
		if err != nil {
			continue // a draw without one of the needed games
		}
		done++
		for p, v := range fit {
			sum[p] += v
			sum2[p] += v * v
		}
	}
	if done < reps/2 {
		return nil, errNoFit
	}
	out := map[string]float64{}
	for _, p := range players {
		mean := sum[p] / float64(done)
		out[p] = math.Sqrt(math.Max(0, sum2[p]/float64(done)-mean*mean))
	}
	return out, nil
}

// FoldFree rates the players of games by folding them with Rate, every
// player free, in orders random orders (from seed), and returns each
// player's Mu averaged over the orders, shifted so that ref's is refMu:
// where the ratings of the live fold settle, as a check of Fit.
func (m Model) FoldFree(games []FitGame, ref string, refMu float64, orders int, seed uint64) map[string]float64 {
	players := fitPlayers(games)
	r := rand.New(rand.NewPCG(seed, 0xf01d))
	sum := map[string]float64{}
	order := make([]int, len(games))
	for range orders {
		for i := range order {
			order[i] = i
		}
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		rs := map[string]Rating{}
		for _, p := range players {
			rs[p] = m.New()
		}
		seats := make([]Seat, 0, 5)
		for _, g := range order {
			seats = seats[:0]
			// Seats of one level are one player sitting several times: each
			// is rated from the same belief, and the player moves by the sum
			// of their moves (each comparison counted once on each side, as
			// in Fit; the comparisons among them cancel) and keeps the
			// narrowest of their beliefs.
			for _, p := range games[g] {
				seats = append(seats, Seat{Rating: rs[p.Player], Rank: p.Rank})
			}
			out := m.Rate(seats)
			next := map[string]Rating{}
			for i, p := range games[g] {
				n, ok := next[p.Player]
				if !ok {
					n = Rating{Mu: rs[p.Player].Mu, Sigma: out[i].Sigma}
				}
				n.Mu += out[i].Mu - rs[p.Player].Mu
				n.Sigma = math.Min(n.Sigma, out[i].Sigma)
				next[p.Player] = n
			}
			for p, r := range next {
				rs[p] = r
			}
		}
		shift := refMu - rs[ref].Mu
		for _, p := range players {
			sum[p] += rs[p].Mu + shift
		}
	}
	out := map[string]float64{}
	for _, p := range players {
		out[p] = sum[p] / float64(orders)
	}
	return out
}
