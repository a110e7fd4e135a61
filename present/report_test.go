package present

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"conductor/engine"
	"conductor/engine/position"
	"conductor/internal/testkit"
)

func TestReportOfAPosition(t *testing.T) {
	// A: Budapest – Sarajevo (3 cars, 4 points) and a station on Sarajevo,
	// which borrows B's Sarajevo – Sofia for the Budapest – Sofia ticket (5).
	// B: Sarajevo – Sofia (2 cars, 2 points) and Paris – Frankfurt (3, 4).
	// Both have a longest path of 3, so both earn the 10-point bonus.
	src := `{"map":"europe","face_up":["red","locomotive"],"players":[
		{"name":"A","routes":[["Budapest","Sarajevo","pink"]],"stations":["Sarajevo"],"tickets":[["Budapest","Sofia"]],"goods":0},
		{"name":"B","routes":[["Sarajevo","Sofia","gray"],["Paris","Frankfurt","white"]],"tickets":[["Paris","Wien"]]}]}`
	pos, err := position.Parse(testkit.Catalog(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	final := engine.Score(pos.Board, pos.Players)
	got := Report(pos.Board, &final)
	a, b := got.Players[0], got.Players[1]
	wantA := PlayerReport{Name: "A", Place: 1, RoutePoints: 4,
		Tickets:      []TicketReport{{A: "Budapest", B: "Sofia", Points: 5, Completed: true}},
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
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	// Empty lists are printed as [], never null.
	if bytes.Contains(out, []byte("null")) {
		t.Errorf("null in output:\n%s", out)
	}
	for _, key := range []string{`"route_points"`, `"ticket_points"`, `"longest_path"`, `"bonus_points"`, `"station_points"`,
		`"goods_points"`, `"total"`, `"borrowed_routes"`, `"ranking"`, `"completed":true`} {
		if !bytes.Contains(out, []byte(key)) {
			t.Errorf("output lacks %s", key)
		}
	}
}

// Two players tied on every printed tie-break share the first place.
func TestReportSharedVictory(t *testing.T) {
	src := `{"map":"usa","players":[{"name":"A","routes":[["Omaha","Kansas City","gray"]]},{"name":"B","routes":[["Seattle","Portland","gray"]]},{"name":"C"}]}`
	pos, err := position.Parse(testkit.Catalog(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	final := engine.Score(pos.Board, pos.Players)
	got := Report(pos.Board, &final)
	var places []int
	for _, p := range got.Players {
		places = append(places, p.Place)
	}
	if !got.Shared || places[0] != 1 || places[1] != 1 || places[2] != 3 {
		t.Fatalf("want A and B sharing first place, C third: places %v shared %v", places, got.Shared)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
