package rating

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Calibration replays games between bots of known strength as the games
// of a server whose members are those bots: each seat of level L goes to
// one of Members members who are secretly L (a bot of a level plays
// every game alike, so any of them may take any of L's seats), or, for a
// share BotShare of the seats, to L's anchored bot, as when a server
// seats bots. The members start as newcomers and are rated by Rate in
// the games' order; the anchored bots are fixed at their anchors. Since
// a member's true strength is its level's, how fast and how near its
// rating comes to the anchor is measured, and so is how often the
// ratings before a game name its winner.
//
// With Company 0 every member of a level is as likely to take any of its
// seats: all play the same mix of tables, and their records of wins say
// as much as ratings. People choose their tables, though: with Company
// k > 1, half of each level's members keep to the stronger tables (a
// table's strength is its seats' mean anchor; the stronger half of the
// games) and the other half to the weaker ones, each taking a seat at
// their own kind of table k times as readily as at the other kind: their
// records come from different company, as on a server where some play the
// expert and others beginners. The games where the two circles meet are
// where a record of wins misleads.
type Calibration struct {
	Members   int     // members a level
	BotShare  float64 // the share of seats an anchored bot takes
	Company   float64 // how strongly members keep to their circle's tables (0: not at all)
	Tolerance float64 // how near (in Mu) a settled rating is to the truth
	Settled   float64 // the share of members within Tolerance (or pairs ordered) that counts as settled
	Seed      uint64
}

// CalibrationReport is what a calibration found.
type CalibrationReport struct {
	Games int
	// The share of games whose winner was named beforehand by: the
	// highest Mu (Rating), the best record of wins so far (Counts: wins+1
	// over games+2, a newcomer at one half), and a coin (one seat at
	// random). A tie between predictions splits the credit; a shared win
	// is named by naming either winner.
	Rating, Counts, Coin float64
	// The same, over the games after the first WarmGames (the members'
	// first games, when nobody knows anything, left out).
	WarmGames                        int
	RatingWarm, CountsWarm, CoinWarm float64
	// The same over the games where members of both circles sat (with
	// Company), and how many there were.
	MixedGames                          int
	RatingMixed, CountsMixed, CoinMixed float64
	// Within[n-1] is the share of members whose Mu was within Tolerance
	// of their level's anchor after their n-th game (of those who played
	// n, while at least half did); SettledAfter the games after which
	// that share stays at Settled or above (0 if it never does).
	Within       []float64
	SettledAfter int
	// Ordered[n-1] is the share of pairs of members of different levels
	// whose ratings after their n-th game put the stronger level above;
	// OrderedAfter the games after which it stays at Settled or above.
	Ordered      []float64
	OrderedAfter int
	// MeanMu is the members' final Mu averaged by level; Anchor the
	// levels' anchors, for comparison.
	MeanMu, Anchor map[string]float64
	// Bins compare the chance Rate's model gave one seat to place above
	// another (before the game, by tenths from 0.5) with how often it did.
	Bins []ReliabilityBin
}

// ReliabilityBin is one band of predicted chances.
type ReliabilityBin struct {
	From, To  float64 // the band of predicted chances
	Pairs     int
	Predicted float64 // the mean chance predicted
	Observed  float64 // the share of those pairs the favourite won (a shared place half)
}

// Calibrate runs the calibration on games whose players are bot levels
// (anchors holds each level's rating), in an order drawn from the seed.
func (m Model) Calibrate(games []FitGame, anchors map[string]Rating, c Calibration) CalibrationReport {
	r := rand.New(rand.NewPCG(c.Seed, 0xca11))
	// A server's games come in no order of table size or lineup: the
	// arena's runs do, one lineup after another.
	games = slices.Clone(games)
	r.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })
	type member struct {
		level      string
		strong     bool // keeps to the stronger tables
		rating     Rating
		games      int
		wins       float64
		trajectory []float64 // Mu after each game
	}
	levels := map[string]bool{}
	for _, g := range games {
		for _, p := range g {
			levels[p.Player] = true
		}
	}
	var levelNames []string
	for l := range levels {
		levelNames = append(levelNames, l)
	}
	slices.Sort(levelNames)
	members := map[string][]*member{}
	for _, l := range levelNames {
		for k := range c.Members {
			members[l] = append(members[l], &member{level: l, strong: k%2 == 1, rating: m.New()})
		}
	}
	// Bots' records, for the counts' prediction: a bot is a player with a
	// record like any other.
	botWins, botGames := map[string]float64{}, map[string]int{}
	rep := CalibrationReport{Games: len(games), MeanMu: map[string]float64{}, Anchor: map[string]float64{}}
	for l, a := range anchors {
		rep.Anchor[l] = a.Mu
	}
	rep.WarmGames = len(games) / 5
	bins := make([]ReliabilityBin, 5)
	for i := range bins {
		bins[i].From, bins[i].To = 0.5+0.1*float64(i), 0.6+0.1*float64(i)
	}
	strength := func(g FitGame) float64 {
		var sum float64
		for _, p := range g {
			sum += anchors[p.Player].Mu
		}
		return sum / float64(len(g))
	}
	all := make([]float64, len(games))
	for i, g := range games {
		all[i] = strength(g)
	}
	slices.Sort(all)
	median := all[len(all)/2]
	var warm, mixed [3]float64
	for gi, g := range games {
		strongTable := strength(g) >= median
		seats := make([]Seat, len(g))
		who := make([]*member, len(g))
		used := map[*member]bool{}
		for i, p := range g {
			a, anchored := anchors[p.Player]
			if anchored && r.Float64() < c.BotShare {
				seats[i] = Seat{Rating: a, Rank: p.Rank, Fixed: true}
				continue
			}
			// The level's free members, each as ready to sit here as its
			// circle makes it.
			var free []*member
			var weights []float64
			var total float64
			for _, mb := range members[p.Player] {
				if used[mb] {
					continue
				}
				w := 1.0
				if c.Company > 1 && mb.strong == strongTable {
					w = c.Company
				}
				free, weights = append(free, mb), append(weights, w)
				total += w
			}
			if len(free) == 0 {
				seats[i] = Seat{Rating: a, Rank: p.Rank, Fixed: true}
				continue
			}
			pick := r.Float64() * total
			mb := free[len(free)-1]
			for k, w := range weights {
				if pick < w {
					mb = free[k]
					break
				}
				pick -= w
			}
			used[mb] = true
			who[i] = mb
			seats[i] = Seat{Rating: mb.rating, Rank: p.Rank}
		}
		// Predictions, before the game.
		won := func(i int) bool { return g[i].Rank == 1 }
		credit := func(score func(i int) float64) float64 {
			best := math.Inf(-1)
			for i := range g {
				best = math.Max(best, score(i))
			}
			var tied, right float64
			for i := range g {
				if score(i) == best {
					tied++
					if won(i) {
						right++
					}
				}
			}
			return right / tied
		}
		byRating := credit(func(i int) float64 { return seats[i].Rating.Mu })
		byCounts := credit(func(i int) float64 {
			if who[i] != nil {
				return (who[i].wins + 1) / float64(who[i].games+2)
			}
			return (botWins[g[i].Player] + 1) / float64(botGames[g[i].Player]+2)
		})
		var winners float64
		for i := range g {
			if won(i) {
				winners++
			}
		}
		coin := winners / float64(len(g))
		rep.Rating += byRating
		rep.Counts += byCounts
		rep.Coin += coin
		if gi >= rep.WarmGames {
			warm[0] += byRating
			warm[1] += byCounts
			warm[2] += coin
		}
		circles := map[bool]bool{}
		for _, mb := range who {
			if mb != nil {
				circles[mb.strong] = true
			}
		}
		if len(circles) == 2 {
			rep.MixedGames++
			mixed[0] += byRating
			mixed[1] += byCounts
			mixed[2] += coin
		}
		for i := range g {
			for j := range g {
				if i == j || seats[i].Rating.Mu < seats[j].Rating.Mu || (seats[i].Rating.Mu == seats[j].Rating.Mu && i > j) {
					continue
				}
				si, sj := seats[i].Rating, seats[j].Rating
				cc := math.Sqrt(si.Sigma*si.Sigma + sj.Sigma*sj.Sigma + 2*m.Beta*m.Beta)
				p := 1 / (1 + math.Exp((sj.Mu-si.Mu)/cc))
				k := min(int((p-0.5)*10), len(bins)-1)
				s := 0.5
				switch {
				case g[i].Rank < g[j].Rank:
					s = 1
				case g[i].Rank > g[j].Rank:
					s = 0
				}
				bins[k].Pairs++
				bins[k].Predicted += p
				bins[k].Observed += s
			}
		}
		// The game.
		out := m.Rate(seats)
		for i, mb := range who {
			if mb == nil {
				botGames[g[i].Player]++
				if won(i) {
					botWins[g[i].Player]++
				}
				continue
			}
			mb.rating = out[i]
			mb.games++
			if won(i) {
				mb.wins++
			}
			mb.trajectory = append(mb.trajectory, mb.rating.Mu)
		}
	}
	n := float64(len(games))
	rep.Rating, rep.Counts, rep.Coin = rep.Rating/n, rep.Counts/n, rep.Coin/n
	w := float64(len(games) - rep.WarmGames)
	rep.RatingWarm, rep.CountsWarm, rep.CoinWarm = warm[0]/w, warm[1]/w, warm[2]/w
	if k := float64(rep.MixedGames); k > 0 {
		rep.RatingMixed, rep.CountsMixed, rep.CoinMixed = mixed[0]/k, mixed[1]/k, mixed[2]/k
	}
	for i := range bins {
		if bins[i].Pairs > 0 {
			bins[i].Predicted /= float64(bins[i].Pairs)
			bins[i].Observed /= float64(bins[i].Pairs)
		}
	}
	rep.Bins = bins
	// Convergence, over the members with an anchor to converge to: after
	// each member's n-th game, while at least half of them played n.
	var rated []*member
	for _, l := range levelNames {
		if _, ok := anchors[l]; !ok {
			continue
		}
		var sum float64
		for _, mb := range members[l] {
			sum += mb.rating.Mu
			rated = append(rated, mb)
		}
		rep.MeanMu[l] = sum / float64(len(members[l]))
	}
	for k := 0; ; k++ {
		within, played, ordered, pairs := 0, 0, 0, 0
		for i, mb := range rated {
			if len(mb.trajectory) <= k {
				continue
			}
			played++
			if math.Abs(mb.trajectory[k]-anchors[mb.level].Mu) < c.Tolerance {
				within++
			}
			for _, o := range rated[i+1:] {
				la, lb := anchors[mb.level].Mu, anchors[o.level].Mu
				if la == lb || len(o.trajectory) <= k {
					continue
				}
				pairs++
				if (la < lb) == (mb.trajectory[k] < o.trajectory[k]) {
					ordered++
				}
			}
		}
		if played == 0 || 2*played < len(rated) {
			break
		}
		rep.Within = append(rep.Within, float64(within)/float64(played))
		rep.Ordered = append(rep.Ordered, float64(ordered)/float64(max(pairs, 1)))
	}
	rep.SettledAfter = settledAfter(rep.Within, c.Settled)
	rep.OrderedAfter = settledAfter(rep.Ordered, c.Settled)
	return rep
}

// settledAfter is the n from which every share of curve (curve[n-1]
// onwards) is at least at; 0 when the last one is not.
func settledAfter(curve []float64, at float64) int {
	n := 0
	for k := len(curve) - 1; k >= 0 && curve[k] >= at; k-- {
		n = k + 1
	}
	return n
}
