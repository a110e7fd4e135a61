package engine

import (
	"slices"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

func names(fs []PlayerScore, order []int) []string {
	var out []string
	for _, i := range order {
		out = append(out, fs[i].Name)
	}
	return out
}

// Each case ties two or three players on total and separates them by one
// rule of the board's list, with the earlier rules tied.
func TestTieBreaks(t *testing.T) {
	cases := []struct {
		name    string
		board   string
		players []PlayerScore
		want    []string
		places  []int // by seat
	}{
		{"usa: most completed tickets", "usa", []PlayerScore{
			{Name: "A", Total: 80, CompletedTickets: 3, LongestPath: 30},
			{Name: "B", Total: 80, CompletedTickets: 4, LongestPath: 10},
			{Name: "C", Total: 90},
		}, []string{"C", "B", "A"}, nil},
		{"usa: then longest path", "usa", []PlayerScore{
			{Name: "A", Total: 80, CompletedTickets: 4, LongestPath: 12},
			{Name: "B", Total: 80, CompletedTickets: 4, LongestPath: 19},
		}, []string{"B", "A"}, nil},
		{"usa: stations and goods do not count", "usa", []PlayerScore{
			{Name: "A", Total: 80, CompletedTickets: 4, LongestPath: 12, StationsBuilt: 3, GoodsPoints: 0},
			{Name: "B", Total: 80, CompletedTickets: 4, LongestPath: 12, StationsBuilt: 0, GoodsPoints: 9},
		}, []string{"A", "B"}, []int{1, 1}},
		{"europe: most completed tickets", "europe", []PlayerScore{
			{Name: "A", Total: 100, CompletedTickets: 5, StationsBuilt: 0, LongestBonus: true},
			{Name: "B", Total: 100, CompletedTickets: 6, StationsBuilt: 3},
		}, []string{"B", "A"}, nil},
		{"europe: then fewest stations", "europe", []PlayerScore{
			{Name: "A", Total: 100, CompletedTickets: 6, StationsBuilt: 2, LongestBonus: true},
			{Name: "B", Total: 100, CompletedTickets: 6, StationsBuilt: 1},
		}, []string{"B", "A"}, nil},
		{"europe: then the European Express", "europe", []PlayerScore{
			{Name: "A", Total: 100, CompletedTickets: 6, StationsBuilt: 1, LongestPath: 20},
			{Name: "B", Total: 100, CompletedTickets: 6, StationsBuilt: 1, LongestPath: 20, LongestBonus: true},
		}, []string{"B", "A"}, nil},
		{"europe: path length is not a tie-break", "europe", []PlayerScore{
			{Name: "A", Total: 100, CompletedTickets: 6, StationsBuilt: 1, LongestPath: 12},
			{Name: "B", Total: 100, CompletedTickets: 6, StationsBuilt: 1, LongestPath: 19},
		}, []string{"A", "B"}, []int{1, 1}},
		{"marklin: most completed tickets", "marklin", []PlayerScore{
			{Name: "A", Total: 70, CompletedTickets: 3, GoodsPoints: 30},
			{Name: "B", Total: 70, CompletedTickets: 4, GoodsPoints: 5},
		}, []string{"B", "A"}, nil},
		{"marklin: then most goods points", "marklin", []PlayerScore{
			{Name: "A", Total: 70, CompletedTickets: 4, GoodsPoints: 5},
			{Name: "B", Total: 70, CompletedTickets: 4, GoodsPoints: 30},
			{Name: "C", Total: 70, CompletedTickets: 4, GoodsPoints: 12},
		}, []string{"B", "C", "A"}, nil},
		{"marklin: still tied keeps seat order", "marklin", []PlayerScore{
			{Name: "A", Total: 70, CompletedTickets: 4, GoodsPoints: 5},
			{Name: "B", Total: 75},
			{Name: "C", Total: 70, CompletedTickets: 4, GoodsPoints: 5},
		}, []string{"B", "A", "C"}, []int{2, 1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			order, places := rank(testkit.Board(t, c.board), c.players)
			if got := names(c.players, order); !slices.Equal(got, c.want) {
				t.Fatalf("ranking %v, want %v", got, c.want)
			}
			want := c.places
			if want == nil { // every player separated: places follow the ranking
				want = make([]int, len(order))
				for r, i := range order {
					want[i] = r + 1
				}
			}
			if !slices.Equal(places, want) {
				t.Fatalf("places %v, want %v", places, want)
			}
		})
	}
}

// End to end through Score: two players tie on total and the board's rule
// decides, against seat order (the winner sits second).
func TestTieBreaksThroughScore(t *testing.T) {
	type r = [3]string
	cases := []struct {
		name, board   string
		first, winner func(b *data.Board) Holding
		decidedBy     data.TieBreak
	}{
		{"usa longest path", "usa",
			// 10+10+4+1 = 25 points, longest path 5.
			func(b *data.Board) Holding {
				return Holding{Name: "B", Tracks: routes(t, b, r{"Denver", "Phoenix", "white"}, r{"Atlanta", "Miami", "blue"},
					r{"Chicago", "Duluth", "red"}, r{"Kansas City", "Omaha", "gray"})}
			},
			// 15 points and the 10-point bonus for a path of 6.
			func(b *data.Board) Holding {
				return Holding{Name: "A", Tracks: routes(t, b, r{"Helena", "Seattle", "yellow"})}
			}, "longest_path"},
		{"europe fewest stations", "europe",
			// Two separate 3-car routes (8), 2 stations built (4), Express (10) = 22.
			func(b *data.Board) Holding {
				return Holding{Name: "B", Tracks: routes(t, b, r{"Brest", "Paris", "black"}, r{"Sarajevo", "Zagrab", "red"}),
					Stations: []data.CityID{testkit.City(t, b, "Madrid"), testkit.City(t, b, "Lisboa")}}
			},
			// One 3-car route (4), 1 station built (8), Express (10) = 22.
			func(b *data.Board) Holding {
				return Holding{Name: "A", Tracks: routes(t, b, r{"Paris", "Frankfurt", "white"}),
					Stations: []data.CityID{testkit.City(t, b, "Roma")}}
			}, "fewest_stations"},
		{"europe express", "europe",
			// 4+4+4+4+1 = 17 over five separate routes, 12 for stations = 29.
			func(b *data.Board) Holding {
				return Holding{Name: "B", Tracks: routes(t, b, r{"Brest", "Paris", "black"}, r{"Sarajevo", "Zagrab", "red"},
					r{"Angora", "Erzurum", "black"}, r{"Danzig", "Riga", "black"}, r{"Amsterdam", "Bruxelles", "black"})}
			},
			// 7 for a 4-car route, the Express (10), 12 for stations = 29.
			func(b *data.Board) Holding {
				return Holding{Name: "A", Tracks: routes(t, b, r{"Paris", "Marseille", "gray"})}
			}, "express"},
		{"marklin goods", "marklin",
			// 4+1 route points.
			func(b *data.Board) Holding {
				return Holding{Name: "B", Tracks: routes(t, b, r{"Berlin", "Magdeburg", "red"}, r{"Karlsruhe", "Mannheim", "blue"})}
			},
			func(b *data.Board) Holding { return Holding{Name: "A", Goods: 5} }, "goods"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := testkit.Board(t, c.board)
			fs := Score(b, []Holding{c.first(b), c.winner(b)})
			p, q := fs.Players[0], fs.Players[1]
			if p.Total != q.Total || p.CompletedTickets != q.CompletedTickets {
				t.Fatalf("setup: totals %d and %d, tickets %d and %d should tie", p.Total, q.Total, p.CompletedTickets, q.CompletedTickets)
			}
			if got := names(fs.Players, fs.Ranking); !slices.Equal(got, []string{"A", "B"}) {
				t.Fatalf("ranking %v, want A first by %s", got, c.decidedBy)
			}
			if !slices.Contains(b.Rules.TieBreaks, c.decidedBy) {
				t.Fatalf("%s is not a tie-break of %s", c.decidedBy, c.board)
			}
		})
	}
}

// A tie that survives every printed tie-break is a shared place: two
// winners share the victory, and the next player is third.
func TestFullTieSharesThePlace(t *testing.T) {
	b := testkit.Board(t, "europe")
	twin := func(name string) Holding { return Holding{Name: name} }
	// Nobody has a route: everybody scores the 12 station points and ties
	// on every rule, except the third player who built a station.
	third := Holding{Name: "C", Stations: []data.CityID{testkit.City(t, b, "Roma")}}
	fs := Score(b, []Holding{twin("A"), twin("B"), third})
	if got := fs.Places; !slices.Equal(got, []int{1, 1, 3}) {
		t.Fatalf("places %v, want [1 1 3] (totals %d %d %d)", got, fs.Players[0].Total, fs.Players[1].Total, fs.Players[2].Total)
	}
	if w := fs.Winners(); !slices.Equal(w, []int{0, 1}) {
		t.Fatalf("winners %v, want seats 0 and 1 (a shared victory)", w)
	}
}
