package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"conductor/present"
)

func runConductor(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = realMain(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// The score command prints present.Report of the position read (its
// content is tested there) as JSON with lists that are never null.
func TestScoreCommandEndToEnd(t *testing.T) {
	src := `{"map":"europe","players":[
		{"name":"A","routes":[["Budapest","Sarajevo","pink"]],"stations":["Sarajevo"],"tickets":[["Budapest","Sofia"]]},
		{"name":"B","routes":[["Sarajevo","Sofia","gray"]]}]}`
	code, stdout, stderr := runConductor(t, src, "score")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var got present.ScoreReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if got.Map != "europe" || strings.Join(got.Ranking, ",") != "A,B" || got.Players[0].Total != 4+5+10+8 {
		t.Errorf("report %+v", got)
	}
	if strings.Contains(stdout, "null") {
		t.Errorf("null in output:\n%s", stdout)
	}
}

func TestScoreCommandReadsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pos.json")
	src := `{"map":"marklin","players":[{"name":"A","routes":[["Frankfurt","Mainz","gray"]],"tickets":[["Frankfurt","Mainz",2]],"goods":9},{"name":"B"}]}`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runConductor(t, "", "score", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got present.ScoreReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	// 1 route point, 2 for the ticket, 10 for the most tickets, 9 goods.
	if a := got.Players[0]; a.Total != 1+2+10+9 || !a.TicketsBonus || a.GoodsPoints != 9 || a.LongestBonus {
		t.Fatalf("A: %+v", a)
	}
}

func TestScoreCommandBadInput(t *testing.T) {
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"empty input", "", nil, "not valid JSON"}, // the engine's tests cover every refused position
		{"unknown city", `{"map":"europe","players":[{"name":"A","routes":[["Pariss","Frankfurt","white"]]}]}`, nil, `did you mean "Paris"`},
		{"two files", "", []string{"a.json", "b.json"}, "one position file"},
		{"missing file", "", []string{filepath.Join(t.TempDir(), "none.json")}, "no such file"},
		{"unknown flag", "", []string{"-colour"}, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runConductor(t, c.stdin, append([]string{"score"}, c.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.Contains(stderr, c.want) || !strings.HasPrefix(stderr, "conductor score") && c.name != "unknown flag" {
				t.Errorf("stderr %q lacks %q", stderr, c.want)
			}
		})
	}
}

func TestScoreCommandHelp(t *testing.T) {
	code, _, stderr := runConductor(t, "", "score", "-h")
	if code != 0 || !strings.Contains(stderr, "usage: conductor score") || !strings.Contains(stderr, `"map":"europe"`) {
		t.Fatalf("exit %d, help %q", code, stderr)
	}
	code, stdout, _ := runConductor(t, "", "help")
	if code != 0 || !strings.Contains(stdout, "score") {
		t.Fatalf("help lists no score command: %q", stdout)
	}
}
