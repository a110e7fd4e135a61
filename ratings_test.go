package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"conductor/ai/arena"
	"conductor/rating"
)

// TestRatingsFitsTheAnchors: `conductor ratings --fit` on the anchors'
// measurement prints the anchors the code keeps, and --placings of a
// selfplay log ranks its seats as a sheet would.
func TestRatingsFitsTheAnchors(t *testing.T) {
	code, out, stderr := runConductor(t, "", "ratings", "--fit", filepath.Join("rating", "testdata", "anchors.txt.gz"), "--reps", "50", "--orders", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, ed := range []string{"usa", "europe", "marklin"} {
		for _, a := range rating.AnchorList(ed) {
			if row := fmt.Sprintf("| %s | %d | %.2f |", a.Level, a.Games, a.Rating.Mu); !strings.Contains(out, row) {
				t.Errorf("the fit of %s lacks %q:\n%s", ed, row, out)
			}
		}
	}
	// A log of two games, one of them tied on points and split by tickets.
	log := filepath.Join(t.TempDir(), "games.jsonl")
	rec := `{"map":"usa","variant":"base","levels":["hard","easy","normal"],"seed":1,"game":0,"turns":9,"win":[0,0,1],"score":[90,90,120],"completed":[3,2,4],"failed":[0,0,0],"wall_ms":[[],[],[]],"cpu_ms":[[],[],[]]}` + "\n"
	if err := os.WriteFile(log, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runConductor(t, "", "ratings", "--placings", log)
	if code != 0 || strings.TrimSpace(out) != "usa hard:2 easy:3 normal:1" {
		t.Errorf("placings: exit %d, %q (%s)", code, out, stderr)
	}
	if _, err := arena.ReadRecords(strings.NewReader(rec)); err != nil {
		t.Fatalf("the fixture is no selfplay record: %v", err)
	}
	// Bad input says what to do.
	if code, _, stderr := runConductor(t, "", "ratings"); code != exitUsage || !strings.Contains(stderr, "give one of --fit") {
		t.Errorf("no mode: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runConductor(t, "", "ratings", "--calibrate", log+".missing"); code != exitUsage || !strings.Contains(stderr, "--calibrate") {
		t.Errorf("a missing file: exit %d, %s", code, stderr)
	}
}

// TestRatingsCalibrates: `conductor ratings --calibrate` names the winner
// by the ratings, the records of wins, a coin and the true levels, over
// every game and members' first games, server by server; --model picks
// OpenSkill's own model for comparison, and a model it does not know is
// refused with what it takes.
func TestRatingsCalibrates(t *testing.T) {
	games := filepath.Join(t.TempDir(), "games.txt")
	var b strings.Builder
	for i := range 40 {
		// normal wins three games in four against easy.
		if i%4 == 3 {
			b.WriteString("usa normal:2 easy:1\n")
		} else {
			b.WriteString("usa normal:1 easy:2\n")
		}
	}
	if err := os.WriteFile(games, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"default", "openskill"} {
		code, out, stderr := runConductor(t, "", "ratings", "--calibrate", games, "--servers", "3", "--members", "2", "--model", model)
		if code != 0 {
			t.Fatalf("--model %s: exit %d: %s", model, code, stderr)
		}
		for _, want := range []string{"3 servers (seeds 1 to 3)", "| the ratings (highest Mu) |", "| the records of wins ((wins+1)/(games+2)) |",
			"| the true levels (the best possible) | 75.0% |", "a member's first 10 games", "server by server"} {
			if !strings.Contains(out, want) {
				t.Errorf("--model %s: the calibration lacks %q:\n%s", model, want, out)
			}
		}
	}
	for _, args := range [][]string{{"--model", "trueskill"}, {"--sigma0", "-1"}, {"--servers", "0"}, {"--servers", "100000"}, {"--fresh", "-2"}} {
		code, _, stderr := runConductor(t, "", append([]string{"ratings", "--calibrate", games}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, args[0]) {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}
