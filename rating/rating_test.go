package rating

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestTwoPlayersAsOpenSkill: with OpenSkill's defaults, one game between
// two newcomers gives the figures OpenSkill's documentation shows for its
// Plackett–Luce model (without Tau, which its example leaves out); with
// the whole variance step (Default), Mu moves alike and Sigma narrows by
// the comparison's whole information: σ² (1 − σ²/c² · p(1−p)), c² = 2σ²
// + 2β², p = 1/2, so σ² = (625/9)(1 − 0.4 · 0.25) = 62.5.
func TestTwoPlayersAsOpenSkill(t *testing.T) {
	for _, tc := range []struct {
		m    Model
		want []Rating
	}{
		{OpenSkill(), []Rating{{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
		{Default(), []Rating{{27.63523138347365, math.Sqrt(62.5)}, {22.36476861652635, math.Sqrt(62.5)}}},
	} {
		m := tc.m
		m.Tau = 0
		got := m.Rate([]Seat{{Rating: m.New(), Rank: 1}, {Rating: m.New(), Rank: 2}})
		for i := range tc.want {
			if !near(got[i].Mu, tc.want[i].Mu) || !near(got[i].Sigma, tc.want[i].Sigma) {
				t.Errorf("gamma %v, seat %d: %+v, want %+v", m.Step, i, got[i], tc.want[i])
			}
		}
	}
}

// TestSharedPlacesMoveAlike: players who share a place after every
// tie-break move alike when they came in alike, wherever the shared place
// is, and a tie between equals moves neither.
func TestSharedPlacesMoveAlike(t *testing.T) {
	m := Default()
	a, b := Rating{27, 5}, Rating{22, 6}
	cases := [][]Seat{
		{{Rating: a, Rank: 1}, {Rating: a, Rank: 1}},
		{{Rating: a, Rank: 1}, {Rating: a, Rank: 1}, {Rating: b, Rank: 3}},
		{{Rating: b, Rank: 1}, {Rating: a, Rank: 2}, {Rating: a, Rank: 2}},
		{{Rating: b, Rank: 1}, {Rating: a, Rank: 2}, {Rating: a, Rank: 2}, {Rating: b, Rank: 4}, {Rating: a, Rank: 5}},
	}
	for n, seats := range cases {
		got := m.Rate(seats)
		var tiedAt []int
		for i, s := range seats {
			if s.Rating == a && (s.Rank == 1 || s.Rank == 2) {
				tiedAt = append(tiedAt, i)
			}
		}
		if len(tiedAt) != 2 {
			t.Fatalf("case %d: the test's table names %d tied seats", n, len(tiedAt))
		}
		x, y := got[tiedAt[0]], got[tiedAt[1]]
		if !near(x.Mu, y.Mu) || !near(x.Sigma, y.Sigma) {
			t.Errorf("case %d: tied seats moved apart: %+v and %+v", n, x, y)
		}
	}
	got := m.Rate([]Seat{{Rating: a, Rank: 1}, {Rating: a, Rank: 1}})
	if !near(got[0].Mu, a.Mu) {
		t.Errorf("a tie between equals moved them: %+v", got[0])
	}
	// A tie between unequal players moves the weaker up and the stronger
	// down: a shared place is neither a win nor a loss.
	got = m.Rate([]Seat{{Rating: a, Rank: 1}, {Rating: b, Rank: 1}})
	if !(got[0].Mu < a.Mu && got[1].Mu > b.Mu) {
		t.Errorf("tie between %v and %v gave %v", a, b, got)
	}
}

// TestSeatOrderDoesNotMatter: the same game given with its seats in any
// order rates every player the same.
func TestSeatOrderDoesNotMatter(t *testing.T) {
	m := Default()
	seats := []Seat{
		{Rating: Rating{30, 3}, Rank: 2},
		{Rating: Rating{25, 8}, Rank: 1},
		{Rating: Rating{20, 4}, Rank: 3},
		{Rating: Rating{26, 2}, Rank: 3, Fixed: true},
		{Rating: Rating{18, 6}, Rank: 5},
	}
	want := m.Rate(seats)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		perm := r.Perm(len(seats))
		shuffled := make([]Seat, len(seats))
		for i, p := range perm {
			shuffled[i] = seats[p]
		}
		got := m.Rate(shuffled)
		for i, p := range perm {
			if !near(got[i].Mu, want[p].Mu) || !near(got[i].Sigma, want[p].Sigma) {
				t.Fatalf("seat %d in order %v: %+v, want %+v", p, perm, got[i], want[p])
			}
		}
	}
}

// TestWinnersGainLosersLoseAnchorsStay: the winner's Mu rises, the last's
// falls, every moving player's Sigma narrows, and a fixed seat (a bot's
// anchor) is not moved.
func TestWinnersGainLosersLoseAnchorsStay(t *testing.T) {
	m := Default()
	anchor := Rating{28, 1.5}
	seats := []Seat{{Rating: m.New(), Rank: 1}, {Rating: anchor, Rank: 2, Fixed: true}, {Rating: m.New(), Rank: 3}}
	got := m.Rate(seats)
	if got[0].Mu <= m.Mu0 || got[2].Mu >= m.Mu0 {
		t.Errorf("first %v, last %v: the winner should gain and the last lose", got[0], got[2])
	}
	if got[1] != anchor {
		t.Errorf("the anchor moved: %v", got[1])
	}
	for _, i := range []int{0, 2} {
		if got[i].Sigma >= m.Sigma0 {
			t.Errorf("seat %d's Sigma did not narrow: %v", i, got[i])
		}
	}
	// Beating an anchor of known strength is worth more than beating a
	// newcomer: the win was less likely.
	vsNew := m.Rate([]Seat{{Rating: m.New(), Rank: 1}, {Rating: m.New(), Rank: 2}})
	vsAnchor := m.Rate([]Seat{{Rating: m.New(), Rank: 1}, {Rating: anchor, Rank: 2, Fixed: true}})
	if vsAnchor[0].Mu <= vsNew[0].Mu {
		t.Errorf("beating the anchor gave %v, beating a newcomer %v", vsAnchor[0], vsNew[0])
	}
}

// TestRatingsConverge: players of known strength play five-seat games
// whose places come from their strength plus luck of the size Beta; after
// 64 tables (40 games each), the ratings order them as their strengths do
// and every Sigma has halved.
func TestRatingsConverge(t *testing.T) {
	m := Default()
	strengths := []float64{14, 18, 22, 26, 30, 34, 38, 42}
	rs := make([]Rating, len(strengths))
	for i := range rs {
		rs[i] = m.New()
	}
	r := rand.New(rand.NewPCG(7, 11))
	games := 0
	for range 64 {
		// Five of the eight at each table, chosen afresh.
		table := r.Perm(len(strengths))[:5]
		perf := make([]float64, len(table))
		for i, p := range table {
			perf[i] = strengths[p] + r.NormFloat64()*m.Beta
		}
		seats := make([]Seat, len(table))
		for i, p := range table {
			rank := 1
			for j := range table {
				if perf[j] > perf[i] {
					rank++
				}
			}
			seats[i] = Seat{Rating: rs[p], Rank: rank}
		}
		for i, nr := range m.Rate(seats) {
			rs[table[i]] = nr
		}
		games++
	}
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(math.Copysign(1, rs[a].Mu-rs[b].Mu)) })
	for i := range order {
		if i > 0 && order[i] < order[i-1] {
			t.Errorf("after %d games the ratings order the players %v, want by strength: %v", games, order, rs)
			break
		}
	}
	for i, rt := range rs {
		if rt.Sigma >= m.Sigma0/2 {
			t.Errorf("player %d's Sigma is still %.2f after %d games", i, rt.Sigma, games)
		}
	}
}

// TestWinChancesFavourTheStronger: chances add up to one and follow Mu.
func TestWinChancesFavourTheStronger(t *testing.T) {
	m := Default()
	ch := m.WinChances([]Rating{{20, 3}, {30, 3}, {25, 3}})
	if !near(ch[0]+ch[1]+ch[2], 1) || !(ch[1] > ch[2] && ch[2] > ch[0]) {
		t.Errorf("chances %v", ch)
	}
}

// TestRegressPullsTowardANewcomer: a season's start keeps part of the old
// rating and widens its uncertainty.
func TestRegressPullsTowardANewcomer(t *testing.T) {
	m := Default()
	old := Rating{35, 2}
	half := m.Regress(old, 0.5)
	if !near(half.Mu, 30) || !(half.Sigma > old.Sigma && half.Sigma < m.Sigma0) {
		t.Errorf("regressed by half: %v", half)
	}
	if m.Regress(old, 0) != old || m.Regress(old, 1) != m.New() {
		t.Errorf("regress 0 or 1: %v %v", m.Regress(old, 0), m.Regress(old, 1))
	}
	if m.New().Display() != 1000 {
		t.Errorf("a newcomer displays %d", m.New().Display())
	}
}
