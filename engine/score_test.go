package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// routes resolves ["a", "c", "colour"] triples.
func routes(t testing.TB, b *data.Board, rs ...[3]string) []data.TrackID {
	t.Helper()
	var out []data.TrackID
	for _, r := range rs {
		col, err := data.ParseColor(r[2])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, testkit.Track(t, b, r[0], r[1], col))
	}
	return out
}

func ticket(t testing.TB, b *data.Board, a, c string, points int) HeldTicket {
	t.Helper()
	return HeldTicket{A: testkit.City(t, b, a), B: testkit.City(t, b, c), Points: points}
}

func routePointsOf(b *data.Board, ts []data.TrackID) int {
	n := 0
	for _, id := range ts {
		n += b.RoutePoints(b.Tracks[id].Length)
	}
	return n
}

func TestRoutePointsFromTheTable(t *testing.T) {
	b := testkit.Board(t, "usa")
	// Lengths 1, 5 and 6 score 1, 10 and 15 on the USA table.
	held := routes(t, b, [3]string{"Seattle", "Portland", "gray"}, [3]string{"Portland", "San Francisco", "green"},
		[3]string{"Helena", "Seattle", "yellow"})
	fs := Score(b, []Holding{{Name: "A", Tracks: held}})
	if got := fs.Players[0].RoutePoints; got != 1+10+15 {
		t.Fatalf("route points %d, want 26", got)
	}
}

func TestTicketsAddWhenCompletedAndSubtractOtherwise(t *testing.T) {
	b := testkit.Board(t, "usa")
	held := routes(t, b, [3]string{"Seattle", "Portland", "gray"}, [3]string{"Portland", "San Francisco", "green"})
	fs := Score(b, []Holding{{Name: "A", Tracks: held, Tickets: []HeldTicket{
		ticket(t, b, "Seattle", "San Francisco", 7), // completed
		ticket(t, b, "Seattle", "Los Angeles", 9),   // not
	}}})
	p := fs.Players[0]
	if p.TicketPoints != 7-9 || p.CompletedTickets != 1 {
		t.Fatalf("ticket points %d, completed %d; want -2 and 1", p.TicketPoints, p.CompletedTickets)
	}
	if !p.Tickets[0].Completed || p.Tickets[1].Completed || p.Tickets[1].Points != 9 {
		t.Fatalf("ticket results %+v", p.Tickets)
	}
	wantTotal := routePointsOf(b, held) - 2 + 10 // longest path bonus: the only player with a path
	if p.Total != wantTotal {
		t.Fatalf("total %d, want %d", p.Total, wantTotal)
	}
}

func TestOpponentTracksNeverCompleteTickets(t *testing.T) {
	b := testkit.Board(t, "usa")
	fs := Score(b, []Holding{
		{Name: "A", Tracks: routes(t, b, [3]string{"Seattle", "Portland", "gray"}),
			Tickets: []HeldTicket{ticket(t, b, "Seattle", "San Francisco", 7)}},
		{Name: "B", Tracks: routes(t, b, [3]string{"Portland", "San Francisco", "green"})},
	})
	if fs.Players[0].Tickets[0].Completed {
		t.Fatal("A's ticket used B's track")
	}
}

func TestUnbuiltStationsScoreFourEach(t *testing.T) {
	b := testkit.Board(t, "europe")
	for built, want := range []int{12, 8, 4, 0} {
		cities := []string{"Paris", "Wien", "Roma"}[:built]
		var st []data.CityID
		for _, c := range cities {
			st = append(st, testkit.City(t, b, c))
		}
		fs := Score(b, []Holding{{Name: "A", Stations: st}})
		if p := fs.Players[0]; p.StationPoints != want || p.StationsBuilt != built || p.Total != want {
			t.Errorf("%d built: station points %d, total %d; want %d", built, p.StationPoints, p.Total, want)
		}
	}
	usa := testkit.Board(t, "usa")
	if p := Score(usa, []Holding{{Name: "A"}}).Players[0]; p.StationPoints != 0 {
		t.Errorf("USA has no stations but scored %d station points", p.StationPoints)
	}
}

func TestLongestPathBonusGoesToEveryTiedPlayer(t *testing.T) {
	for _, id := range []string{"usa", "europe"} {
		b := testkit.Board(t, id)
		var hs []Holding
		switch id {
		case "usa": // 6 cars each for A and B, 3 for C
			hs = []Holding{
				{Name: "A", Tracks: routes(t, b, [3]string{"Helena", "Seattle", "yellow"})},
				{Name: "B", Tracks: routes(t, b, [3]string{"Duluth", "Helena", "orange"})},
				{Name: "C", Tracks: routes(t, b, [3]string{"Chicago", "Duluth", "red"})},
			}
		case "europe": // 6 cars each for A (one track) and B (two), 4 for C
			hs = []Holding{
				{Name: "A", Tracks: routes(t, b, [3]string{"Budapest", "Kyiv", "gray"})},
				{Name: "B", Tracks: routes(t, b, [3]string{"Paris", "Frankfurt", "white"}, [3]string{"Frankfurt", "Berlin", "red"})},
				{Name: "C", Tracks: routes(t, b, [3]string{"Paris", "Marseille", "gray"})},
			}
		}
		fs := Score(b, hs)
		for i, want := range []bool{true, true, false} {
			p := fs.Players[i]
			if p.LongestBonus != want || (p.BonusPoints == 10) != want {
				t.Errorf("%s %s: path %d, bonus %v (%d points); want bonus %v", id, p.Name, p.LongestPath, p.LongestBonus, p.BonusPoints, want)
			}
			if p.Total != p.RoutePoints+p.BonusPoints+p.StationPoints {
				t.Errorf("%s %s: total %d does not add up", id, p.Name, p.Total)
			}
		}
	}
}

func TestNoLongestPathBonusWithoutTracks(t *testing.T) {
	b := testkit.Board(t, "usa")
	fs := Score(b, []Holding{{Name: "A"}, {Name: "B"}})
	for _, p := range fs.Players {
		if p.BonusPoints != 0 {
			t.Fatalf("%s earned %d bonus points with no track", p.Name, p.BonusPoints)
		}
	}
}

func TestLongestPathIgnoresBorrowedRoutes(t *testing.T) {
	b := testkit.Board(t, "europe")
	// A: Budapest – Sarajevo (3) with a station on Sarajevo borrowing B's
	// Sarajevo – Athina (4) for the ticket. A's path stays 3, B's is 4.
	fs := Score(b, []Holding{
		{Name: "A", Tracks: routes(t, b, [3]string{"Budapest", "Sarajevo", "pink"}),
			Stations: []data.CityID{testkit.City(t, b, "Sarajevo")},
			Tickets:  []HeldTicket{ticket(t, b, "Budapest", "Athina", 8)}},
		{Name: "B", Tracks: routes(t, b, [3]string{"Athina", "Sarajevo", "green"})},
	})
	a, bb := fs.Players[0], fs.Players[1]
	if !a.Tickets[0].Completed || len(a.Borrowed) != 1 {
		t.Fatalf("the station should complete the ticket: %+v", a)
	}
	if a.LongestPath != 3 || a.LongestBonus || !bb.LongestBonus {
		t.Fatalf("A path %d bonus %v, B bonus %v; the borrowed route must not count", a.LongestPath, a.LongestBonus, bb.LongestBonus)
	}
}

func TestMarklinMostTicketsBonus(t *testing.T) {
	b := testkit.Board(t, "marklin")
	chain := routes(t, b, [3]string{"Frankfurt", "Mainz", "gray"}, [3]string{"Mainz", "Mannheim", "gray"})
	other := routes(t, b, [3]string{"Kiel", "Hamburg", "black"})
	third := routes(t, b, [3]string{"Berlin", "Magdeburg", "red"})
	done1 := ticket(t, b, "Frankfurt", "Mannheim", 4)
	done2 := ticket(t, b, "Frankfurt", "Mainz", 2)
	kiel := ticket(t, b, "Kiel", "Hamburg", 3)
	failed := ticket(t, b, "Berlin", "München", 12)

	t.Run("most completed wins, failed tickets do not count", func(t *testing.T) {
		fs := Score(b, []Holding{
			{Name: "A", Tracks: chain, Tickets: []HeldTicket{done1, done2}},
			{Name: "B", Tracks: other, Tickets: []HeldTicket{kiel, failed, failed}},
		})
		if a, bb := fs.Players[0], fs.Players[1]; !a.TicketsBonus || a.BonusPoints != 10 || bb.TicketsBonus || bb.BonusPoints != 0 {
			t.Fatalf("A %v/%d, B %v/%d", a.TicketsBonus, a.BonusPoints, bb.TicketsBonus, bb.BonusPoints)
		}
	})
	t.Run("ties all score", func(t *testing.T) {
		fs := Score(b, []Holding{
			{Name: "A", Tracks: chain, Tickets: []HeldTicket{done1}},
			{Name: "B", Tracks: other, Tickets: []HeldTicket{kiel}},
			{Name: "C", Tracks: third, Tickets: []HeldTicket{failed}},
		})
		for i, want := range []bool{true, true, false} {
			if p := fs.Players[i]; p.TicketsBonus != want || (p.BonusPoints == 10) != want {
				t.Errorf("%s: bonus %v (%d points), want %v", p.Name, p.TicketsBonus, p.BonusPoints, want)
			}
		}
	})
	t.Run("nobody completed a ticket", func(t *testing.T) {
		fs := Score(b, []Holding{{Name: "A", Tickets: []HeldTicket{failed}}, {Name: "B"}})
		for _, p := range fs.Players {
			if p.BonusPoints != 0 {
				t.Errorf("%s: %d bonus points for no completed ticket", p.Name, p.BonusPoints)
			}
		}
	})
	t.Run("no longest path bonus on this board", func(t *testing.T) {
		fs := Score(b, []Holding{{Name: "A", Tracks: chain}})
		if p := fs.Players[0]; p.LongestBonus || p.BonusPoints != 0 || p.LongestPath != 2 {
			t.Fatalf("%+v", p)
		}
	})
}

func TestGoodsPointsAddToTheTotal(t *testing.T) {
	b := testkit.Board(t, "marklin")
	fs := Score(b, []Holding{{Name: "A", Goods: 17}})
	if p := fs.Players[0]; p.GoodsPoints != 17 || p.Total != 17 {
		t.Fatalf("goods %d total %d", p.GoodsPoints, p.Total)
	}
	// Goods mean nothing on a board without passengers.
	if p := Score(testkit.Board(t, "usa"), []Holding{{Name: "A", Goods: 17}}).Players[0]; p.GoodsPoints != 0 || p.Total != 0 {
		t.Fatalf("USA goods %d total %d", p.GoodsPoints, p.Total)
	}
}

func TestRankingByTotal(t *testing.T) {
	b := testkit.Board(t, "usa")
	fs := Score(b, []Holding{
		{Name: "low", Tracks: routes(t, b, [3]string{"Seattle", "Portland", "gray"})},
		{Name: "high", Tracks: routes(t, b, [3]string{"Helena", "Seattle", "yellow"})},
		{Name: "mid", Tracks: routes(t, b, [3]string{"Denver", "Phoenix", "white"})},
	})
	var names []string
	for _, i := range fs.Ranking {
		names = append(names, fs.Players[i].Name)
	}
	if want := []string{"high", "mid", "low"}; !slices.Equal(names, want) {
		t.Fatalf("ranking %v, want %v", names, want)
	}
}

// --- benchmarks -----------------------------------------------------------

// latePosition builds a realistic end-of-game position: players take turns
// claiming the free track that best extends their network toward their
// tickets until each has placed about 40 trains. Europe players then build
// three stations each on cities their tickets still miss.
func latePosition(b *data.Board, players int, seed uint64) []Holding {
	rng := rand.New(rand.NewPCG(seed, 1))
	hs := make([]Holding, players)
	holder := make([]int, len(b.Tracks))
	for i := range holder {
		holder[i] = -1
	}
	trains := make([]int, players)
	for i := range hs {
		hs[i].Name = fmt.Sprintf("P%d", i+1)
		for range 4 + rng.IntN(3) {
			tk := b.Tickets[rng.IntN(len(b.Tickets))]
			hs[i].Tickets = append(hs[i].Tickets, HeldTicket{A: tk.A, B: tk.B, Points: tk.Points})
		}
	}
	free := func(p int, t data.TrackID) bool {
		if holder[t] >= 0 || trains[p]+b.Tracks[t].Length > b.Rules.Trains-3 {
			return false
		}
		for _, s := range b.Parallel(t) {
			if holder[s] == p || (players <= 3 && holder[s] >= 0) {
				return false
			}
		}
		return true
	}
	for stuck := 0; stuck < players; {
		stuck = 0
		for p := range hs {
			if trains[p] >= 40 {
				stuck++
				continue
			}
			t, ok := nextTrack(b, &hs[p], p, free, rng)
			if !ok {
				stuck++
				continue
			}
			holder[t] = p
			trains[p] += b.Tracks[t].Length
			hs[p].Tracks = append(hs[p].Tracks, t)
		}
	}
	if b.Rules.Stations > 0 {
		taken := map[data.CityID]bool{}
		for p := range hs {
			for _, tk := range hs[p].Tickets {
				for _, c := range []data.CityID{tk.A, tk.B} {
					if len(hs[p].Stations) < b.Rules.Stations && !taken[c] {
						taken[c] = true
						hs[p].Stations = append(hs[p].Stations, c)
					}
				}
			}
		}
	}
	return hs
}

// nextTrack picks a free track on a shortest path (in cars, over free and
// own tracks) between the player's network and an unfinished ticket end.
func nextTrack(b *data.Board, h *Holding, p int, free func(int, data.TrackID) bool, rng *rand.Rand) (data.TrackID, bool) {
	own := make([]bool, len(b.Tracks))
	for _, t := range h.Tracks {
		own[t] = true
	}
	for _, k := range rng.Perm(len(h.Tickets)) {
		tk := h.Tickets[k]
		if Connected(b, own, tk.A, tk.B) {
			continue
		}
		// Dijkstra from A to B where own tracks cost nothing.
		dist := make([]int, len(b.Cities))
		via := make([]data.TrackID, len(b.Cities))
		done := make([]bool, len(b.Cities))
		for i := range dist {
			dist[i] = 1 << 30
		}
		dist[tk.A] = 0
		for {
			u := data.CityID(-1)
			for c := range dist {
				if !done[c] && dist[c] < 1<<30 && (u < 0 || dist[c] < dist[u]) {
					u = data.CityID(c)
				}
			}
			if u < 0 || u == tk.B {
				break
			}
			done[u] = true
			if b.Cities[u].Country && u != tk.A {
				continue
			}
			for _, t := range b.Adj[u] {
				cost := 0
				if !own[t] {
					if !free(p, t) {
						continue
					}
					cost = b.Tracks[t].Length
				}
				if o := b.Tracks[t].Other(u); dist[u]+cost < dist[o] {
					dist[o], via[o] = dist[u]+cost, t
				}
			}
		}
		if dist[tk.B] >= 1<<30 || dist[tk.B] == 0 {
			continue
		}
		for c := tk.B; c != tk.A; c = b.Tracks[via[c]].Other(c) {
			if !own[via[c]] {
				return via[c], true
			}
		}
	}
	// Tickets done or blocked: extend anywhere from the network.
	for _, t := range rng.Perm(len(b.Tracks)) {
		if free(p, data.TrackID(t)) {
			return data.TrackID(t), true
		}
	}
	return 0, false
}

func BenchmarkScore(b *testing.B) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		bd := testkit.Board(b, id)
		hs := latePosition(bd, 4, 7)
		b.Run(id, func(b *testing.B) {
			for b.Loop() {
				Score(bd, hs)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(hs)), "µs/player")
		})
	}
}
