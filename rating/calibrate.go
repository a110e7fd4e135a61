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
	// Fresh: a game is among members' first games (CalibrationReport.Fresh)
	// when a member at the table had played fewer rated games than this.
	Fresh int
	// Servers is how many servers the figures are summed over, each with
	// its own draw of the games' order and of who sits where (seeds Seed,
	// Seed+1, ...; 0 is one): which of two members of one level a
	// prediction names is a coin toss that one server's few thousand
	// games do not even out.
	Servers int
	Seed    uint64
}

// Predictions are how often the winner of some games was named
// beforehand by: the highest Mu (Rating), the best record of wins so far
// (Counts: wins+1 over games+2, a newcomer at one half), a coin (one seat
// at random), and the seats' true levels (Truth: the highest anchor at
// the table, the best any guess from strengths can do). A tie between
// predictions splits the credit; a shared win is named by naming either
// winner.
type Predictions struct {
	Games                       int // over every server
	Rating, Counts, Coin, Truth float64
}

func (p *Predictions) add(rating, counts, coin, truth float64) {
	p.Games++
	p.Rating += rating
	p.Counts += counts
	p.Coin += coin
	p.Truth += truth
}

func (p *Predictions) average() {
	if n := float64(p.Games); n > 0 {
		p.Rating, p.Counts, p.Coin, p.Truth = p.Rating/n, p.Counts/n, p.Coin/n, p.Truth/n
	}
}

// CalibrationReport is what a calibration found, over every server.
type CalibrationReport struct {
	Games   int // a server's
	Servers int
	// All: every game; Warm: the games after the first fifth of each
	// server's (the members' first games, when nobody knows anything,
	// left out); Mixed: the games where members of both circles sat
	// (with Company); Fresh: the games where a member had played fewer
	// than Calibration.Fresh rated games, where a record of wins has
	// little to go on.
	All, Warm, Mixed, Fresh Predictions
	// Leads and FreshLeads are the ratings' lead over the records of wins
	// (Rating − Counts) on each server, over All and Fresh.
	Leads, FreshLeads []float64
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
// (anchors holds each level's rating), on c.Servers servers.
func (m Model) Calibrate(games []FitGame, anchors map[string]Rating, c Calibration) CalibrationReport {
	rep := CalibrationReport{Games: len(games), Servers: max(c.Servers, 1), MeanMu: map[string]float64{}, Anchor: map[string]float64{}}
	for l, a := range anchors {
		rep.Anchor[l] = a.Mu
	}
	rep.Bins = make([]ReliabilityBin, 5)
	for i := range rep.Bins {
		rep.Bins[i].From, rep.Bins[i].To = 0.5+0.1*float64(i), 0.6+0.1*float64(i)
	}
	var within, ordered []curvePoint
	for s := range rep.Servers {
		m.calibrateServer(games, anchors, c, c.Seed+uint64(s), &rep, &within, &ordered)
	}
	for _, p := range []*Predictions{&rep.All, &rep.Warm, &rep.Mixed, &rep.Fresh} {
		p.average()
	}
	for l := range rep.MeanMu {
		rep.MeanMu[l] /= float64(rep.Servers)
	}
	for i := range rep.Bins {
		if b := &rep.Bins[i]; b.Pairs > 0 {
			b.Predicted /= float64(b.Pairs)
			b.Observed /= float64(b.Pairs)
		}
	}
	// A curve runs while at least half the members played n games, on
	// every server.
	for k := 0; k < len(within) && within[k].enough == rep.Servers; k++ {
		rep.Within = append(rep.Within, within[k].share())
		rep.Ordered = append(rep.Ordered, ordered[k].share())
	}
	rep.SettledAfter = settledAfter(rep.Within, c.Settled)
	rep.OrderedAfter = settledAfter(rep.Ordered, c.Settled)
	return rep
}

// curvePoint sums one point of a convergence curve over the servers.
type curvePoint struct {
	hits, of float64
	enough   int // servers where at least half the members got this far
}

func (p curvePoint) share() float64 { return p.hits / math.Max(p.of, 1) }

// calibrateServer replays the games as one server (the seed draws their
// order and the seats' members) and adds what it found to rep and the
// curves.
func (m Model) calibrateServer(games []FitGame, anchors map[string]Rating, c Calibration, seed uint64, rep *CalibrationReport, within, ordered *[]curvePoint) {
	r := rand.New(rand.NewPCG(seed, 0xca11))
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
	warmFrom := len(games) / 5
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
	var server, fresh Predictions
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
		byTruth := credit(func(i int) float64 { return anchors[g[i].Player].Mu })
		var winners float64
		for i := range g {
			if won(i) {
				winners++
			}
		}
		coin := winners / float64(len(g))
		server.add(byRating, byCounts, coin, byTruth)
		rep.All.add(byRating, byCounts, coin, byTruth)
		if gi >= warmFrom {
			rep.Warm.add(byRating, byCounts, coin, byTruth)
		}
		circles := map[bool]bool{}
		newcomer := false
		for _, mb := range who {
			if mb != nil {
				circles[mb.strong] = true
				newcomer = newcomer || mb.games < c.Fresh
			}
		}
		if len(circles) == 2 {
			rep.Mixed.add(byRating, byCounts, coin, byTruth)
		}
		if newcomer {
			rep.Fresh.add(byRating, byCounts, coin, byTruth)
			fresh.add(byRating, byCounts, coin, byTruth)
		}
		for i := range g {
			for j := range g {
				if i == j || seats[i].Rating.Mu < seats[j].Rating.Mu || (seats[i].Rating.Mu == seats[j].Rating.Mu && i > j) {
					continue
				}
				si, sj := seats[i].Rating, seats[j].Rating
				cc := math.Sqrt(si.Sigma*si.Sigma + sj.Sigma*sj.Sigma + 2*m.Beta*m.Beta)
				p := 1 / (1 + math.Exp((sj.Mu-si.Mu)/cc))
				k := min(int((p-0.5)*10), len(rep.Bins)-1)
				s := 0.5
				switch {
				case g[i].Rank < g[j].Rank:
					s = 1
				case g[i].Rank > g[j].Rank:
					s = 0
				}
				rep.Bins[k].Pairs++
				rep.Bins[k].Predicted += p
				rep.Bins[k].Observed += s
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
	server.average()
	fresh.average()
	rep.Leads = append(rep.Leads, server.Rating-server.Counts)
	rep.FreshLeads = append(rep.FreshLeads, fresh.Rating-fresh.Counts)
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
		rep.MeanMu[l] += sum / float64(len(members[l]))
	}
	for k := 0; ; k++ {
		in, played, inOrder, pairs := 0, 0, 0, 0
		for i, mb := range rated {
			if len(mb.trajectory) <= k {
				continue
			}
			played++
			if math.Abs(mb.trajectory[k]-anchors[mb.level].Mu) < c.Tolerance {
				in++
			}
			for _, o := range rated[i+1:] {
				la, lb := anchors[mb.level].Mu, anchors[o.level].Mu
				if la == lb || len(o.trajectory) <= k {
					continue
				}
				pairs++
				if (la < lb) == (mb.trajectory[k] < o.trajectory[k]) {
					inOrder++
				}
			}
		}
		if played == 0 || 2*played < len(rated) {
			break
		}
		if k == len(*within) {
			*within = append(*within, curvePoint{})
			*ordered = append(*ordered, curvePoint{})
		}
		(*within)[k].hits += float64(in)
		(*within)[k].of += float64(played)
		(*within)[k].enough++
		(*ordered)[k].hits += float64(inOrder)
		(*ordered)[k].of += float64(pairs)
		(*ordered)[k].enough++
	}
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
