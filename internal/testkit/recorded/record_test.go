package recorded

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"conductor/internal/testkit"
)

// Every record reads back to the record it was written from.
func TestRecordsRoundTrip(t *testing.T) {
	for _, g := range All(t) {
		again, err := Parse(g.Name, g.Format())
		if err != nil {
			t.Fatal(err)
		}
		for i := range again.Moves {
			again.Moves[i].Line = g.Moves[i].Line
		}
		if !reflect.DeepEqual(again, g) {
			t.Errorf("%s: reads back differently", g.Name)
		}
	}
}

// Check catches a record that no longer holds: a changed score, ranking or
// move, a game cut short, a corner that does not happen.
func TestCheckCatchesChanges(t *testing.T) {
	cat := testkit.Catalog()
	fresh := func() *Game {
		g := Load(t, "europe-stations")
		if p := g.Check(cat); len(p) != 0 {
			t.Fatalf("the record itself fails: %v", p)
		}
		return g
	}
	cases := []struct {
		name  string
		spoil func(g *Game)
		want  string
	}{
		{"total", func(g *Game) { g.Scores[1]["total"]++ }, "seat 2 total: got"},
		{"stations", func(g *Game) { g.Scores[0]["built"] += 2 }, "seat 1 built: got"},
		{"ranking", func(g *Game) { g.Ranking[0], g.Ranking[1] = g.Ranking[1], g.Ranking[0] }, "ranking (seats, winner first)"},
		{"cut short", func(g *Game) { g.Moves = g.Moves[:len(g.Moves)-1] }, "not over after"},
		{"corner", func(g *Game) { g.Checks = append(g.Checks, "passenger-moved") }, "never shows passenger-moved"},
		{"bad move", func(g *Game) { g.Moves[5].Action = "claim Paris|Moskva pay=red loco=0" }, ":"},
		{"other seed", func(g *Game) { g.Seed++ }, "europe-stations"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := fresh()
			c.spoil(g)
			p := g.Check(cat)
			if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, c.want) }) {
				t.Errorf("got %q, want a problem mentioning %q", p, c.want)
			}
		})
	}
	// A refused move is named by its line in the file.
	g := fresh()
	g.Moves[5].Action = "pass"
	if p := g.Check(cat); len(p) != 1 || !strings.HasPrefix(p[0], "europe-stations:"+strconv.Itoa(g.Moves[5].Line)+": move 6 \"pass\"") {
		t.Errorf("refused move reported as %q", p)
	}
}

func TestParseRefusesBadRecords(t *testing.T) {
	good := "board: usa\nplayers: 2\nseed: 1\nrules: 1\n\n1 keep 0,1\n\nscore 1: total=3\nscore 2: total=4\nranking: 2 1\n"
	if _, err := Parse("g", []byte(good)); err != nil {
		t.Fatalf("good record refused: %v", err)
	}
	cases := []struct{ src, want string }{
		{strings.Replace(good, "board: usa\n", "", 1), "no board"},
		{strings.Replace(good, "players: 2", "players: 7", 1), "g:2: players: 7 players"},
		{strings.Replace(good, "seed: 1", "seed: one", 1), "g:3: seed:"},
		{strings.Replace(good, "rules: 1\n", "", 1), "no rules revision"},
		{strings.Replace(good, "rules: 1", "rules: 0", 1), "g:4: rules: revision 0"},
		{strings.Replace(good, "seed: 1", "colour: red", 1), `unknown header "colour"`},
		{strings.Replace(good, "seed: 1", "checks: miracle", 1), `unknown check "miracle"`},
		{strings.Replace(good, "1 keep", "3 keep", 1), "seat from 1 to 2"},
		{strings.Replace(good, "score 2: total=4\n", "", 1), "no score line for seat 2"},
		{strings.Replace(good, "total=4", "routes=4", 1), "score 2: no total"},
		{strings.Replace(good, "total=4", "total=4 luck=2", 1), `"luck=2" is not FIELD=NUMBER`},
		{strings.Replace(good, "ranking: 2 1", "ranking: 2 2", 1), "listed once"},
		{strings.Replace(good, "1 keep 0,1\n", "1 keep 0,1\nseed: 2\n", 1), "header line \"seed: 2\" among the moves"},
		{strings.Replace(good, "1 keep 0,1\n", "", 1), "no moves"},
		{strings.Replace(good, "score 1: total=3\nscore 2: total=4\n", "", 1), "no score lines"},
	}
	for _, c := range cases {
		_, err := Parse("g", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error with %q", c.src, err, c.want)
		}
	}
}
