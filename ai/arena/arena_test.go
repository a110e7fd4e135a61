package arena

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
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

// Each level's seats are summed up together, with the fair share and a
// standard error, and the entries of a level add up to it.
func TestReportsEachLevelAgainstItsFairShare(t *testing.T) {
	out, err := Run(Config{Board: testkit.Board(t, "usa"), Levels: Lineup("hard", "easy", 4), Seed: 5, Games: 8, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if out.Seats != 4 || len(out.Players) != 4 || len(out.Levels) != 2 {
		t.Fatalf("seats %d, %d entries, %d levels", out.Seats, len(out.Players), len(out.Levels))
	}
	hard, easy := out.Levels[0], out.Levels[1]
	if hard.Bot != "hard" || hard.Seats != 1 || hard.FairShare != 0.25 || easy.Bot != "easy" || easy.Seats != 3 || easy.FairShare != 0.75 {
		t.Fatalf("levels %+v / %+v", hard, easy)
	}
	if hard.Wins+easy.Wins < 7.99 || hard.Wins+easy.Wins > 8.01 {
		t.Errorf("wins %v + %v over 8 games", hard.Wins, easy.Wins)
	}
	sum, score := 0.0, 0.0
	for _, p := range out.Players[1:] {
		sum += p.Wins
		score += p.MeanScore
	}
	if sum != easy.Wins || math.Abs(score/3-easy.MeanScore) > 0.01 {
		t.Errorf("easy's entries: %v wins, mean score %v; the level: %v, %v", sum, score/3, easy.Wins, easy.MeanScore)
	}
	// The standard error of a share of wins, from the games' spread.
	n := float64(out.Games)
	mean, sq := 0.0, 0.0
	for _, w := range hard.GameWins {
		mean += w / n
		sq += w * w / n
	}
	if want := round3(math.Sqrt((sq - mean*mean) / (n - 1))); hard.WinRateSE != want || want == 0 {
		t.Errorf("standard error %v, want %v", hard.WinRateSE, want)
	}
	table := Table([]Report{out})
	for _, want := range []string{"| usa base | 4 | hard | 1 | 8 |", "| usa base | 4 | easy | 3 | 8 |", "25.0%", "75.0%"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

func TestLineupSeatsOneLead(t *testing.T) {
	if got := Lineup("expert", "hard", 4); !slices.Equal(got, []string{"expert", "hard", "hard", "hard"}) {
		t.Fatalf("lineup %v", got)
	}
}

// Each game is recorded as it ends; the records, read back, sum up to the
// run's report, and runs recorded in pieces sum up together.
func TestRecordsSumUpToTheReport(t *testing.T) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	cfg := Config{Board: testkit.Board(t, "europe"), Variant: "classic", Levels: Lineup("hard", "easy", 3), Seed: 8, Games: 5, Workers: 2,
		Record: func(g GameRecord) {
			if err := enc.Encode(g); err != nil {
				t.Fatal(err)
			}
		}}
	out, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	records, err := ReadRecords(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 5 {
		t.Fatalf("%d records of 5 games", len(records))
	}
	// Records come as games end: put them in game order to compare game by game.
	slices.SortFunc(records, func(x, y GameRecord) int { return x.Game - y.Game })
	sums := Summarize(records)
	if len(sums) != 1 {
		t.Fatalf("%d reports from one lineup", len(sums))
	}
	got := sums[0]
	if got.Map != "europe" || got.Variant != "classic" || got.Seats != 3 || got.Games != 5 || got.MeanTurns != out.MeanTurns {
		t.Fatalf("header %+v, want %+v", got, out)
	}
	for i, l := range got.Levels {
		w := out.Levels[i]
		if l.Bot != w.Bot || l.Wins != w.Wins || l.WinRateSE != w.WinRateSE || l.MeanScore != w.MeanScore ||
			l.MeanTicketsFailed != w.MeanTicketsFailed || l.Decisions != w.Decisions || !slices.Equal(l.GameWins, w.GameWins) ||
			math.Abs(l.DecisionMsP99-w.DecisionMsP99) > 0.002 {
			t.Errorf("%s summed up from the records %+v, the run's %+v", l.Bot, l, w)
		}
		if l.Parts == nil || w.Parts == nil || *l.Parts != *w.Parts {
			t.Errorf("%s: parts summed up from the records %+v, the run's %+v", l.Bot, l.Parts, w.Parts)
		}
	}
	// A log written before the parts were sums up without them, not
	// with parts of zero.
	old := slices.Clone(records)
	old[0].Parts = nil
	if p := Summarize(old)[0].Levels[0].Parts; p != nil {
		t.Errorf("a game logged without parts summed up as %+v", p)
	}
	if table := Table(Summarize(old)); !strings.Contains(table, "| — | — |") {
		t.Errorf("the table does not mark the parts unknown:\n%s", table)
	}
	// Two pieces of one lineup (other seeds) sum up into one report.
	cfg.Seed, cfg.Games = 9, 2
	cfg.Record = func(g GameRecord) { records = append(records, g) }
	if _, err := Run(cfg); err != nil {
		t.Fatal(err)
	}
	if sums := Summarize(records); len(sums) != 1 || sums[0].Games != 7 {
		t.Fatalf("pieces summed up into %+v", sums)
	}
	if _, err := ReadRecords(strings.NewReader("{\"levels\": [\"hard\"]}\n")); err == nil {
		t.Error("a broken record read without error")
	}
}

// TestPartsAddUpToTheScore: a seat's points, part by part, add up to its
// score on every edition, and the trains left are those of a game ended by
// its last round.
func TestPartsAddUpToTheScore(t *testing.T) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, board)
		var games []GameRecord
		out, err := Run(Config{Board: b, Levels: []string{"hard", "normal", "easy"}, Seed: 21, Games: 3, Workers: 2,
			Record: func(g GameRecord) { games = append(games, g) }})
		if err != nil {
			t.Fatal(err)
		}
		routes, bonus, other := 0, 0, 0
		for _, g := range games {
			fewest := b.Rules.Trains
			for k, p := range g.Parts {
				if sum := p.Routes + p.Tickets + p.Bonus + p.Other; sum != g.Score[k] {
					t.Errorf("%s game %d, %s: parts %+v add up to %d, its score is %d", board, g.Game, g.Levels[k], p, sum, g.Score[k])
				}
				if p.TrainsLeft < 0 || p.TrainsLeft > b.Rules.Trains {
					t.Errorf("%s game %d: %d trains left of %d", board, g.Game, p.TrainsLeft, b.Rules.Trains)
				}
				fewest = min(fewest, p.TrainsLeft)
				routes, bonus, other = routes+p.Routes, bonus+p.Bonus, other+p.Other
			}
			if fewest > b.Rules.EndTrains {
				t.Errorf("%s game %d ended with %d trains the fewest left, more than the last round's %d", board, g.Game, fewest, b.Rules.EndTrains)
			}
		}
		// Every game gives someone its bonus; only Märklin's goods and
		// Europe's stations kept are other points.
		if routes == 0 || bonus == 0 || (board == "marklin" && other == 0) || (board == "usa" && other != 0) {
			t.Errorf("%s: routes %d, bonus %d, other %d points over the games", board, routes, bonus, other)
		}
		for _, l := range out.Levels {
			if l.Parts == nil || l.Parts.Routes <= 0 {
				t.Errorf("%s: %s's parts %+v", board, l.Bot, l.Parts)
			}
		}
	}
}
