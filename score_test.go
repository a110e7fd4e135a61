package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runConductor(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = realMain(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestScoreCommandEndToEnd(t *testing.T) {
	// A: Budapest – Sarajevo (3 cars, 4 points) and a station on Sarajevo,
	// which borrows B's Sarajevo – Sofia for the Budapest – Sofia ticket (5).
	// B: Sarajevo – Sofia (2 cars, 2 points) and Paris – Frankfurt (3, 4).
	// Both have a longest path of 3, so both earn the 10-point bonus.
	src := `{"map":"europe","face_up":["red","locomotive"],"players":[
		{"name":"A","routes":[["Budapest","Sarajevo","pink"]],"stations":["Sarajevo"],"tickets":[["Budapest","Sofia"]],"goods":0},
		{"name":"B","routes":[["Sarajevo","Sofia","gray"],["Paris","Frankfurt","white"]],"tickets":[["Paris","Wien"]]}]}`
	code, stdout, stderr := runConductor(t, src, "score")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var got scoreJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	a, b := got.Players[0], got.Players[1]
	wantA := playerScoreJSON{Name: "A", Place: 1, RoutePoints: 4,
		Tickets:      []ticketJSON{{"Budapest", "Sofia", 5, true}},
		TicketPoints: 5, CompletedTickets: 1, LongestPath: 3,
		LongestRoutes: [][3]string{{"Budapest", "Sarajevo", "pink"}}, LongestBonus: true, BonusPoints: 10,
		StationsBuilt: 1, StationPoints: 8, Total: 4 + 5 + 10 + 8,
		BorrowedRoutes: [][2]string{{"Sarajevo", "Sofia"}}}
	if !jsonEqual(a, wantA) {
		t.Errorf("A:\n got %+v\nwant %+v", a, wantA)
	}
	// Paris – Wien is worth 8 on the board and not completed.
	if b.TicketPoints != -8 || b.RoutePoints != 6 || b.Total != 6-8+10+12 || len(b.BorrowedRoutes) != 0 {
		t.Errorf("B: %+v", b)
	}
	if got.Map != "europe" || strings.Join(got.Ranking, ",") != "A,B" || b.Place != 2 || got.Shared {
		t.Errorf("map %q ranking %v", got.Map, got.Ranking)
	}
	// Empty lists are printed as [], never null.
	if strings.Contains(stdout, "null") {
		t.Errorf("null in output:\n%s", stdout)
	}
	for _, key := range []string{`"route_points"`, `"ticket_points"`, `"longest_path"`, `"bonus_points"`, `"station_points"`,
		`"goods_points"`, `"total"`, `"borrowed_routes"`, `"ranking"`, `"completed": true`} {
		if !strings.Contains(stdout, key) {
			t.Errorf("output lacks %s", key)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
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
	var got scoreJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	// 1 route point, 2 for the ticket, 10 for the most tickets, 9 goods.
	if a := got.Players[0]; a.Total != 1+2+10+9 || !a.TicketsBonus || a.GoodsPoints != 9 || a.LongestBonus {
		t.Fatalf("A: %+v", a)
	}
}

// Two players tied on every printed tie-break share the first place.
func TestScoreCommandSharedVictory(t *testing.T) {
	src := `{"map":"usa","players":[{"name":"A","routes":[["Omaha","Kansas City","gray"]]},{"name":"B","routes":[["Seattle","Portland","gray"]]},{"name":"C"}]}`
	code, stdout, stderr := runConductor(t, src, "score")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got scoreJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	var places []int
	for _, p := range got.Players {
		places = append(places, p.Place)
	}
	if !got.Shared || places[0] != 1 || places[1] != 1 || places[2] != 3 {
		t.Fatalf("want A and B sharing first place, C third: places %v shared %v\n%s", places, got.Shared, stdout)
	}
}

func TestScoreCommandBadInput(t *testing.T) {
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"empty input", "", nil, "not valid JSON"},
		{"unknown map", `{"map":"asia","players":[{"name":"A"}]}`, nil, `"asia"`},
		{"unknown city", `{"map":"europe","players":[{"name":"A","routes":[["Pariss","Frankfurt","white"]]}]}`, nil, `did you mean "Paris"`},
		{"unknown track colour", `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","red"]]}]}`, nil, "there: orange, white"},
		{"track held twice", `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"]]},{"name":"B","routes":[["Paris","Frankfurt","white"]]}]}`, nil, "already held"},
		{"two tracks of a double route", `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"],["Paris","Frankfurt","orange"]]}]}`, nil, "two tracks of the double route"},
		{"double route with two players", `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"]]},{"name":"B","routes":[["Paris","Frankfurt","orange"]]}]}`, nil, "only one track of a double route"},
		{"four stations", `{"map":"europe","players":[{"name":"A","stations":["Paris","Roma","Wien","Berlin"]}]}`, nil, "4 stations"},
		{"two stations on one city", `{"map":"europe","players":[{"name":"A","stations":["Roma"]},{"name":"B","stations":["Roma"]}]}`, nil, "already has a station"},
		{"stations on the USA board", `{"map":"usa","players":[{"name":"A","stations":["Denver"]}]}`, nil, "no stations"},
		{"goods on Europe", `{"map":"europe","players":[{"name":"A","goods":3}]}`, nil, "no goods"},
		{"duplicate names", `{"map":"usa","players":[{"name":"A"},{"name":"A"}]}`, nil, "two players are named"},
		{"no players", `{"map":"usa","players":[]}`, nil, "0 players"},
		{"six players", `{"map":"usa","players":[{"name":"1"},{"name":"2"},{"name":"3"},{"name":"4"},{"name":"5"},{"name":"6"}]}`, nil, "6 players"},
		{"ticket needs points", `{"map":"europe","players":[{"name":"A","tickets":[["Paris","Dieppe"]]}]}`, nil, "give its points"},
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
