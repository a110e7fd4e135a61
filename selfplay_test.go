package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"conductor/ai"
)

func selfplay(t *testing.T, args ...string) ai.ArenaReport {
	t.Helper()
	code, stdout, stderr := runConductor(t, "", append([]string{"selfplay"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out ai.ArenaReport
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
		if math.Abs(p.WinRate-p.Wins/6) > 0.0006 {
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
