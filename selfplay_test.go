package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func selfplay(t *testing.T, args ...string) selfplayJSON {
	t.Helper()
	code, stdout, stderr := runConductor(t, "", append([]string{"selfplay"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out selfplayJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	return out
}

func TestSelfplayReportsEveryBot(t *testing.T) {
	out := selfplay(t, "--map", "europe", "--players", "easy, dest,route", "--games", "6", "--seed", "3")
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
	if out.MeanTurns < 20 || out.GamesPerSecond <= 0 {
		t.Errorf("mean turns %v, games per second %v", out.MeanTurns, out.GamesPerSecond)
	}
}

func TestSelfplayIsDeterministic(t *testing.T) {
	args := []string{"--map", "marklin", "--players", "hard,normal", "--games", "4", "--seed", "11"}
	a := selfplay(t, append(args, "--workers", "1")...)
	b := selfplay(t, append(args, "--workers", "2")...)
	for i := range a.Players {
		pa, pb := a.Players[i], b.Players[i]
		if pa.Wins != pb.Wins || pa.MeanScore != pb.MeanScore || pa.MeanTicketsCompleted != pb.MeanTicketsCompleted || pa.Decisions != pb.Decisions {
			t.Errorf("%s: %+v with one worker, %+v with two", pa.Bot, pa, pb)
		}
	}
	if a.MeanTurns != b.MeanTurns {
		t.Errorf("mean turns %v and %v", a.MeanTurns, b.MeanTurns)
	}
	c := selfplay(t, "--map", "marklin", "--players", "hard,normal", "--games", "4", "--seed", "12")
	if c.Players[0].MeanScore == a.Players[0].MeanScore && c.Players[1].MeanScore == a.Players[1].MeanScore {
		t.Error("another seed plays other games")
	}
}

func TestSelfplaySeatsRotate(t *testing.T) {
	for n := 2; n <= 5; n++ {
		starts := make([]int, n)
		for game := range 10 * n {
			seen := make([]bool, n)
			for k := range n {
				s := seatOf(k, game, n)
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

func TestSelfplayRejectsBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "hard,grandmaster"}, "easy, normal, hard"},
		{[]string{"--players", "hard"}, "2 to 5 bots"},
		{[]string{"--players", "easy,easy,easy,easy,easy,easy"}, "2 to 5 bots"},
		{[]string{"--games", "0"}, "at least 1"},
		{[]string{"--workers", "0"}, "at least 1"},
		{[]string{"--map", "mars"}, "usa"},
		{[]string{"--map", "europe", "--variant", "1910"}, "classic"},
		{[]string{"--seed", "minus"}, "invalid value"},
		{[]string{"stray"}, "only flags"},
	} {
		code, _, stderr := runConductor(t, "", append([]string{"selfplay"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}
