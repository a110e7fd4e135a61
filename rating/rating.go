// Package rating rates players from the finishing order of games played by
// two to five at once, shared places included: the Weng–Lin Bayesian
// approximation ("A Bayesian Approximation Method for Online Ranking",
// JMLR 12, 2011), the family OpenSkill implements, in its Bradley–Terry
// full-pair form. Each player's skill is a normal belief (Mu, Sigma); a game
// moves every seat's belief by how surprising its place was, and narrows it.
//
// It is written here rather than taken from a library: the Go module proxy
// this project builds from serves no OpenSkill or TrueSkill package, and
// the update is a page of arithmetic that the tests below pin (symmetry of
// ties, order of the seats, convergence).
//
// The package knows nothing of games: a caller folds finished games in the
// order they finished (Model.Rate), so the same games give the same ratings
// on every run.
package rating

import (
	"fmt"
	"math"
)

// Rating is a belief about a player's skill: normal with mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Model holds the constants of the update.
type Model struct {
	// Mu0 and Sigma0 are a new player's belief.
	Mu0, Sigma0 float64
	// Beta is the spread of one game's performance around a skill: how
	// much luck there is in a single game.
	Beta float64
	// Tau is added (in quadrature) to every Sigma before a game, so that a
	// player who changes is followed: without it Sigma only shrinks.
	Tau float64
	// Kappa keeps a variance from shrinking to nothing in one game.
	Kappa float64
	// Step is how much of the variance's step a comparison takes
	// (Weng–Lin's γ).
	Step Step
}

// Step is Weng–Lin's γ: the share of a comparison's information that
// narrows a player's Sigma.
type Step int

const (
	// DampedStep is OpenSkill's default, γ = σ/c: a comparison narrows
	// Sigma by a fraction of what it tells, less the wider the belief.
	DampedStep Step = iota
	// WholeStep is γ = 1, the Laplace approximation's whole step: Sigma
	// narrows by what the comparison tells. The anchors' fit games,
	// replayed as the calibration replays its own (docs/ratings.md),
	// chose it: with OpenSkill's damping a member's Sigma stays wide for
	// long (3.1 to 3.4 after 20 games, against 2.1 to 2.4) and every game
	// moves Mu by as much, so that Mu wanders about the truth.
	WholeStep
)

func (s Step) String() string {
	if s == WholeStep {
		return "1"
	}
	return "sigma/c"
}

// Default is the model the ratings use: OpenSkill's constants (Mu0 25,
// Sigma0 25/3, Beta 25/6, Tau 25/300, Kappa 0.0001) with the whole
// variance step (WholeStep).
func Default() Model {
	m := OpenSkill()
	m.Step = WholeStep
	return m
}

// OpenSkill is OpenSkill's default Bradley–Terry full-pair model: Mu0 25,
// Sigma0 25/3, Beta 25/6, Tau 25/300, Kappa 0.0001, γ = σ/c.
func OpenSkill() Model {
	return Model{Mu0: 25, Sigma0: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, Kappa: 0.0001, Step: DampedStep}
}

// Version names the formula: the model's constants, the anchors'
// measurement, the display and the seasons' pull. Ratings kept under
// another version are computed again from the archive.
func (m Model) Version() string {
	return fmt.Sprintf("weng-lin bradley-terry full pairs: mu0 %g sigma0 %g beta %g tau %g kappa %g gamma %s; anchors %s; display %d + %d(mu - 3 sigma); season pull %g",
		m.Mu0, m.Sigma0, m.Beta, m.Tau, m.Kappa, m.Step, AnchorsMeasured, displayBase, displayScale, SeasonRegress)
}

// New is a player who never played.
func (m Model) New() Rating { return Rating{Mu: m.Mu0, Sigma: m.Sigma0} }

// Ordinal is the conservative estimate of a skill, Mu − 3·Sigma: the skill
// the player has at least, with 99.7% confidence. A new player's is 0, and
// it grows both by winning and by playing (as Sigma narrows).
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Display is the one number players see: the ordinal on a scale where a
// newcomer stands at 1,000 and a point of Mu is worth 20.
func (r Rating) Display() int { return int(math.Round(displayBase + displayScale*r.Ordinal())) }

const (
	displayBase  = 1000
	displayScale = 20
)

// ProvisionalGames is how many rated games a player needs before a rating
// is shown as settled. The calibration (docs/ratings.md, 20 servers of
// each kind) puts members of a stronger level above those of a weaker
// one, nine pairs in ten, from their 4th to 7th game on every edition;
// ten leaves room for a server less even than the calibration's.
const ProvisionalGames = 10

// Seat is one player of a game as Rate takes it.
type Seat struct {
	Rating Rating
	// Rank is the place: 1 for the winner; seats that share a place share
	// a rank.
	Rank int
	// Fixed: the rating is an anchor (a bot whose strength was measured):
	// it counts as the others' opponent but is not moved.
	Fixed bool
}

// Rate returns every seat's rating after the game, in the seats' order.
// Each pair of seats is one comparison (Weng–Lin's Bradley–Terry full-pair
// model, algorithm 1): a seat placed above another won against it, a seat
// sharing its place drew with it. At two to five seats that learns from
// every pair, so ratings settle in fewer games than with the
// Plackett–Luce model, whose one comparison is diluted by the whole
// table's uncertainty (a player who wins every other game at four seats
// and comes third in the others has Sigma 4.9 after five games here, 5.9
// with OpenSkill's damped step, 7.7 with Plackett–Luce). The result does not
// depend on the order the seats are given in, and seats sharing a place
// with the same rating move alike.
func (m Model) Rate(seats []Seat) []Rating {
	out := make([]Rating, len(seats))
	// Sigma² before the game: widened by Tau for the players who move.
	v := make([]float64, len(seats))
	for i, s := range seats {
		v[i] = s.Rating.Sigma * s.Rating.Sigma
		if !s.Fixed {
			v[i] += m.Tau * m.Tau
		}
	}
	for i, s := range seats {
		if s.Fixed {
			out[i] = s.Rating
			continue
		}
		var omega, delta float64
		for q, o := range seats {
			if q == i {
				continue
			}
			c := math.Sqrt(v[i] + v[q] + 2*m.Beta*m.Beta)
			p := 1 / (1 + math.Exp((o.Rating.Mu-s.Rating.Mu)/c)) // the chance i beats q
			score := 0.5
			switch {
			case o.Rank > s.Rank:
				score = 1
			case o.Rank < s.Rank:
				score = 0
			}
			omega += v[i] / c * (score - p)
			gamma := 1.0
			if m.Step == DampedStep {
				gamma = math.Sqrt(v[i]) / c
			}
			delta += gamma * v[i] / (c * c) * p * (1 - p)
		}
		out[i] = Rating{Mu: s.Rating.Mu + omega, Sigma: math.Sqrt(v[i] * math.Max(1-delta, m.Kappa))}
	}
	return out
}

// WinChances are the chances that each seat finishes first, from the same
// beliefs (Plackett–Luce's: proportional to exp(μ/c), c spanning the
// table), for predictions.
func (m Model) WinChances(rs []Rating) []float64 {
	var c2 float64
	for _, r := range rs {
		c2 += r.Sigma*r.Sigma + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	out := make([]float64, len(rs))
	var sum float64
	for i, r := range rs {
		out[i] = math.Exp(r.Mu / c)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// SeasonRegress is how far a new season pulls every rating back toward a
// newcomer's (Regress): a fifth, so that a month away costs little and
// the first games of a season move the rating quickly again (Sigma widens
// by as much).
const SeasonRegress = 0.2

// Regress starts a player's next season from the last one: Mu pulled
// toward a newcomer's by the fraction f (0 keeps it, 1 forgets it) and
// Sigma widened toward a newcomer's as much, so that the new season moves
// the rating quickly again.
func (m Model) Regress(r Rating, f float64) Rating {
	f = math.Min(math.Max(f, 0), 1)
	return Rating{
		Mu:    r.Mu + f*(m.Mu0-r.Mu),
		Sigma: math.Sqrt(r.Sigma*r.Sigma + f*(m.Sigma0*m.Sigma0-r.Sigma*r.Sigma)),
	}
}
