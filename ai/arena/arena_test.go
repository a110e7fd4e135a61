package arena

import (
	"testing"

	"conductor/internal/testkit"
)

func TestArenaSeatsRotate(t *testing.T) {
	for n := 2; n <= 5; n++ {
		starts := make([]int, n)
		for game := range 10 * n {
			seen := make([]bool, n)
			for k := range n {
				s := arenaSeat(k, game, n)
				if seen[s] {
					t.Fatalf("%d players, game %d: two entries at seat %d", n, game, s)
				}
				seen[s] = true
				if s == 0 {
					starts[k]++
				}
			}
		}
		for k, c := range starts {
			if c != 10 {
				t.Errorf("%d players: entry %d starts %d of %d games", n, k, c, 10*n)
			}
		}
	}
}

func TestArenaIsDeterministic(t *testing.T) {
	run := func(seed uint64, workers int) Report {
		t.Helper()
		out, err := Run(Config{Board: testkit.Board(t, "marklin"), Variant: "", Levels: []string{"hard", "normal"}, Seed: seed, Games: 4, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := run(11, 1), run(11, 2)
	for i := range a.Players {
		pa, pb := a.Players[i], b.Players[i]
		if pa.Wins != pb.Wins || pa.MeanScore != pb.MeanScore || pa.MeanTicketsCompleted != pb.MeanTicketsCompleted || pa.Decisions != pb.Decisions {
			t.Errorf("%s: %+v with one worker, %+v with two", pa.Bot, pa, pb)
		}
	}
	if a.MeanTurns != b.MeanTurns {
		t.Errorf("mean turns %v and %v", a.MeanTurns, b.MeanTurns)
	}
	c := run(12, 2)
	if c.Players[0].MeanScore == a.Players[0].MeanScore && c.Players[1].MeanScore == a.Players[1].MeanScore {
		t.Error("another seed plays other games")
	}
}

func TestArenaRefusesBadSetups(t *testing.T) {
	b := testkit.Board(t, "usa")
	for _, a := range []Config{
		{Board: b, Levels: []string{"hard"}, Games: 1, Workers: 1},
		{Board: b, Levels: []string{"hard", "grandmaster"}, Games: 1, Workers: 1},
		{Board: b, Levels: []string{"hard", "easy"}, Games: 0, Workers: 1},
		{Board: b, Levels: []string{"hard", "easy"}, Games: 1, Workers: 0},
	} {
		if _, err := Run(a); err == nil {
			t.Errorf("%v %d games %d workers: no error", a.Levels, a.Games, a.Workers)
		}
	}
}

func TestReportsEveryBot(t *testing.T) {
	out, err := Run(Config{Board: testkit.Board(t, "europe"), Variant: "classic", Levels: []string{"easy", "dest", "route"}, Seed: 3, Games: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if out.Games != 6 || out.Map != "europe" || out.Variant != "classic" || out.Seed != 3 {
		t.Fatalf("header %+v", out)
	}
	if len(out.Players) != 3 || out.Players[0].Bot != "easy" || out.Players[1].Bot != "dest" || out.Players[2].Bot != "route" {
		t.Fatalf("players %+v", out.Players)
	}
	wins := 0.0
	for _, p := range out.Players {
		wins += p.Wins
		if p.WinRate != round3(p.Wins/6) {
			t.Errorf("%s: win rate %v for %v wins in 6 games", p.Bot, p.WinRate, p.Wins)
		}
		if p.MeanScore == 0 || p.Decisions == 0 || p.DecisionMsP99 < p.DecisionMsP50 || p.DecisionMsMax < p.DecisionMsP99 {
			t.Errorf("%s: implausible %+v", p.Bot, p)
		}
	}
	// Every game has one win to share out.
	if wins < 5.99 || wins > 6.01 {
		t.Errorf("wins add up to %v over 6 games", wins)
	}
	// Game by game too, and each bot's games add up to its wins.
	for _, p := range out.Players {
		if len(p.GameWins) != 6 {
			t.Fatalf("%s: %d games' wins, want 6", p.Bot, len(p.GameWins))
		}
		sum := 0.0
		for _, w := range p.GameWins {
			sum += w
		}
		if sum != p.Wins {
			t.Errorf("%s: its games' wins add up to %v, its wins are %v", p.Bot, sum, p.Wins)
		}
	}
	for i := range 6 {
		share := 0.0
		for _, p := range out.Players {
			share += p.GameWins[i]
		}
		if share < 0.99 || share > 1.01 {
			t.Errorf("game %d: wins add up to %v", i, share)
		}
	}
	if out.MeanTurns < 20 || out.GamesPerSecond <= 0 {
		t.Errorf("mean turns %v, games per second %v", out.MeanTurns, out.GamesPerSecond)
	}
}
