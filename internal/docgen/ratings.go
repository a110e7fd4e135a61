package main

import (
	"math"
	"math/rand/v2"
	"time"

	"conductor/present"
	"conductor/rating"
)

// The ratings' pictures: the recorded Europe game's score sheet with its
// members' rating changes, and a server's table of ratings. The ratings
// are the rating package's own: the sheet's members come in with the
// ratings below, and the table is a season of a made-up server, its
// members' places drawn from skills under the model's own comparisons
// (the bots' anchors at their seats) and folded game by game.

// sheetRatings are the members' ratings before the recorded game, by
// seat: Alice's first rated game (a newcomer), Bruno and Chloé regulars.
var sheetRatings = []struct {
	rating rating.Rating
	games  int
	hints  int
}{
	{rating.Rating{Mu: 25, Sigma: 25.0 / 3}, 0, 2},
	{rating.Rating{Mu: 31.8, Sigma: 2.2}, 41, 0},
	{rating.Rating{Mu: 29.1, Sigma: 3.1}, 12, 0},
}

// sheetChanges rates the recorded game: its members against each other
// and against the bot's anchor, as a server would.
func (p *played) sheetChanges() []present.RatingChange {
	m := rating.Default()
	seats := make([]rating.Seat, len(p.players))
	for i, pl := range p.players {
		place := present.Place(p.final, i)
		if pl.Bot {
			a, _ := rating.AnchorFor(p.b.ID, pl.Level)
			seats[i] = rating.Seat{Rating: a, Rank: place, Fixed: true}
			continue
		}
		seats[i] = rating.Seat{Rating: sheetRatings[i].rating, Rank: place}
	}
	after := m.Rate(seats)
	var out []present.RatingChange
	for i, pl := range p.players {
		if pl.Bot {
			continue
		}
		out = append(out, present.RatingChange{Seat: i, Before: seats[i].Rating.Display(), After: after[i].Display(),
			Provisional: sheetRatings[i].games+1 < rating.ProvisionalGames, Hints: sheetRatings[i].hints})
	}
	return out
}

// boardMembers are the made-up server's members and their skills.
var boardMembers = []struct {
	name  string
	skill float64
}{
	{"Alice", 33}, {"Bruno", 31}, {"Chloé", 30}, {"Eve", 28}, {"Farid", 27}, {"Greta", 25.5},
	{"Hugo", 24}, {"Inès", 22}, {"Jonas", 20}, {"Katya", 27.5},
}

// boardAsker is the member who asks for the table.
const boardAsker = "Inès"

// leaderboard folds the made-up season on Europe and lays its table out
// as /ttr leaderboard does: the first six, the asker, the bots.
func leaderboard(loc string) *present.Leaderboard {
	const edition = "europe"
	m := rating.Default()
	r := rand.New(rand.NewPCG(46, 1))
	anchors := rating.AnchorList(edition)
	type member struct {
		r     rating.Rating
		games int
		form  []present.FormResult
	}
	ms := make([]member, len(boardMembers))
	for i := range ms {
		ms[i].r = m.New()
	}
	c := math.Sqrt2 * m.Beta
	for range 140 {
		k := 2 + r.IntN(4)
		seats := make([]rating.Seat, 0, k)
		who := make([]int, 0, k)
		perf := make([]float64, 0, k)
		for _, i := range r.Perm(len(ms))[:k] {
			if len(seats) > 0 && r.IntN(5) == 0 {
				a := anchors[1+r.IntN(len(anchors)-1)]
				seats, who = append(seats, rating.Seat{Rating: a.Rating, Fixed: true}), append(who, -1)
				perf = append(perf, a.Rating.Mu-c*math.Log(-math.Log(r.Float64())))
				continue
			}
			seats, who = append(seats, rating.Seat{Rating: ms[i].r}), append(who, i)
			perf = append(perf, boardMembers[i].skill-c*math.Log(-math.Log(r.Float64())))
		}
		for i := range seats {
			seats[i].Rank = 1
			for j := range seats {
				if perf[j] > perf[i] {
					seats[i].Rank++
				}
			}
		}
		after := m.Rate(seats)
		for i, w := range who {
			if w < 0 {
				continue
			}
			mb := &ms[w]
			mb.form = append(mb.form, present.FormResult{Place: seats[i].Rank, Seats: k, Change: after[i].Display() - mb.r.Display()})
			if len(mb.form) > 10 {
				mb.form = mb.form[1:]
			}
			mb.r = after[i]
			mb.games++
		}
	}
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			if ms[order[j]].r.Display() > ms[order[i]].r.Display() {
				order[i], order[j] = order[j], order[i]
			}
		}
	}
	lb := &present.Leaderboard{Edition: present.T(loc, "edition."+edition), Ranked: len(ms), AskerAt: -1,
		Season:           present.Season{Number: 3, Length: "month", End: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		ProvisionalGames: rating.ProvisionalGames, Newcomer: m.New().Display()}
	for place, i := range order {
		mb := &ms[i]
		rated := present.Rated{Name: boardMembers[i].name, PictureName: boardMembers[i].name, Rating: mb.r.Display(), Place: place + 1,
			Games: mb.games, Provisional: mb.games < rating.ProvisionalGames, Form: mb.form}
		switch {
		case place < 6:
			lb.Top = append(lb.Top, rated)
		case boardMembers[i].name == boardAsker:
			lb.Asker = &rated
		}
	}
	for k := len(anchors) - 1; k >= 0; k-- {
		lb.Bots = append(lb.Bots, present.BotRating{Level: anchors[k].Level, Rating: anchors[k].Rating.Display()})
	}
	return lb
}
