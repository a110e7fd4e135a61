package main

import (
	"encoding/json"
	"strings"
	"testing"

	"conductor/ai/arena"
)

func selfplay(t *testing.T, args ...string) arena.Report {
	t.Helper()
	code, stdout, stderr := runConductor(t, "", append([]string{"selfplay"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out arena.Report
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	return out
}

// The flags become an arena run (whose results ai tests): levels are
// trimmed, the variant defaults to the board's first, and the report is
// printed as JSON.
func TestSelfplayReportsEveryBot(t *testing.T) {
	out := selfplay(t, "--map", "europe", "--players", "easy, dest,route", "--games", "2", "--seed", "3")
	if out.Games != 2 || out.Map != "europe" || out.Variant != "classic" || out.Seed != 3 {
		t.Fatalf("header %+v", out)
	}
	if len(out.Players) != 3 || out.Players[0].Bot != "easy" || out.Players[1].Bot != "dest" || out.Players[2].Bot != "route" {
		t.Fatalf("players %+v", out.Players)
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
