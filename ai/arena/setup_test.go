package arena

import (
	"strings"
	"testing"

	"conductor/internal/testkit"
)

// --vs makes a run per pairing and table size, the lead at one seat and
// the other level at the rest; a bad pairing or size names the flag.
func TestSetupRunsPairingsAtEveryTableSize(t *testing.T) {
	s := Setup{Map: "europe", Players: "ignored", Seed: 7, Games: 2, Workers: 1}
	runs, err := s.Runs(testkit.Catalog(), "expert:hard, hard:normal", "2,4")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, strings.Join(r.Levels, ","))
		if r.Variant != "classic" || r.Seed != 7 || r.Games != 2 {
			t.Fatalf("run %+v", r)
		}
	}
	want := "expert,hard expert,hard,hard,hard hard,normal hard,normal,normal,normal"
	if strings.Join(got, " ") != want {
		t.Fatalf("lineups %q, want %q", got, want)
	}
	for vs, msg := range map[string]string{"expert": "LEAD:OTHER", "expert:grandmaster": "unknown bot level"} {
		if _, err := s.Runs(testkit.Catalog(), vs, "2"); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--vs %s: %v, want %q", vs, err, msg)
		}
	}
	if _, err := s.Runs(testkit.Catalog(), "hard:easy", "2,6"); err == nil || !strings.Contains(err.Error(), "--seats") {
		t.Errorf("--seats 2,6: %v", err)
	}
}
