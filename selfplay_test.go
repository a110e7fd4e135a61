package main

import (
	"encoding/json"
	"path/filepath"
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
		{[]string{"--vs", "expert"}, "LEAD:OTHER"},
		{[]string{"--vs", "expert:grandmaster"}, "easy, normal, hard"},
		{[]string{"--vs", "hard:easy", "--players", "hard,easy"}, "either --players or --vs"},
		{[]string{"--vs", "hard:easy", "--seats", "2,6"}, "table size from 2 to 5"},
		{[]string{"--seats", "3"}, "goes with --vs"},
		{[]string{"--format", "yaml"}, "json nor table"},
		{[]string{"--summarize", "/nonexistent/log"}, "no such file"},
	} {
		code, _, stderr := runConductor(t, "", append([]string{"selfplay"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// --vs plays each pairing at each table size: one lead against the other
// level at every other seat, a report each.
func TestSelfplayPlaysPairingsAtEveryTableSize(t *testing.T) {
	code, stdout, stderr := runConductor(t, "", "selfplay", "--vs", "hard:easy", "--seats", "2,4", "--games", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var reports []arena.Report
	if err := json.Unmarshal([]byte(stdout), &reports); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if len(reports) != 2 || reports[0].Seats != 2 || reports[1].Seats != 4 {
		t.Fatalf("%d reports: %+v", len(reports), reports)
	}
	four := reports[1]
	if len(four.Players) != 4 || four.Players[0].Bot != "hard" || four.Players[3].Bot != "easy" ||
		len(four.Levels) != 2 || four.Levels[1].Seats != 3 || four.Levels[1].FairShare != 0.75 {
		t.Fatalf("four seats: %+v", four)
	}
	code, stdout, _ = runConductor(t, "", "selfplay", "--vs", "hard:easy", "--seats", "3", "--games", "1", "--format", "table")
	if code != 0 || !strings.Contains(stdout, "| usa base | 3 | easy | 2 | 1 |") {
		t.Fatalf("table: exit %d\n%s", code, stdout)
	}
}

// --log writes each game as it ends; --summarize sums logs up without
// playing, pieces of one lineup together.
func TestSelfplayLogsGamesAndSumsThemUp(t *testing.T) {
	log := filepath.Join(t.TempDir(), "games.jsonl")
	for _, seed := range []string{"1", "2"} {
		if code, _, stderr := runConductor(t, "", "selfplay", "--players", "hard,easy,easy", "--games", "2", "--seed", seed, "--log", log); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	code, stdout, stderr := runConductor(t, "", "selfplay", "--summarize", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var reports []arena.Report
	if err := json.Unmarshal([]byte(stdout), &reports); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if len(reports) != 1 || reports[0].Games != 4 || reports[0].Seats != 3 || len(reports[0].Levels) != 2 || reports[0].Levels[1].Seats != 2 {
		t.Fatalf("summed up: %+v", reports)
	}
}
