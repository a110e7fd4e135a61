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
