package ai

import (
	"slices"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// hardPlan plans the view's tickets with the hard bot's planner (three
// orders, rerouting) but plain costs, trains and claims, so that the tests
// do not hang on tuning; no pruning: these tests are about routing.
func hardPlan(v *engine.PlayerView) (*situation, *plan) {
	s := read(v)
	o := hardOptions
	o.model = costModel{claimTurn: 1, stations: true}
	return s, newPlannerBot(o).planner(s).solve(s.incomplete())
}

func TestPlannerSharesTrackBetweenTickets(t *testing.T) {
	v := scene(t, "usa", 2)
	b := v.Board
	give(&v, ticketBetween(t, b, "Seattle", "Los Angeles"), ticketBetween(t, b, "Portland", "Phoenix"))
	_, pl := hardPlan(&v)
	if len(pl.goals) != 2 {
		t.Fatalf("both tickets pursued, got %d (dropped %d)", len(pl.goals), len(pl.dropped))
	}
	// Seattle–Portland 1, Portland–San Francisco 5, San Francisco–Los
	// Angeles 3, Los Angeles–Phoenix 3: the tickets share 8 trains.
	if pl.trains != 12 {
		t.Errorf("plan lays %d trains, want 12 (tracks %v)", pl.trains, names(b, pl.claims))
	}
	for _, pair := range [][2]string{{"Portland", "San Francisco"}, {"San Francisco", "Los Angeles"}} {
		n := 0
		for _, c := range pl.claims {
			tr := &b.Tracks[c]
			if b.Cities[tr.A].Name == pair[0] && b.Cities[tr.B].Name == pair[1] || b.Cities[tr.B].Name == pair[0] && b.Cities[tr.A].Name == pair[1] {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s – %s planned %d times, want once", pair[0], pair[1], n)
		}
	}
}

func names(b *data.Board, ts []data.TrackID) []string {
	var out []string
	for _, t := range ts {
		out = append(out, b.TrackName(t))
	}
	return out
}

func TestPlannerReplansAroundTakenTrack(t *testing.T) {
	v := scene(t, "usa", 2)
	b := v.Board
	give(&v, ticketBetween(t, b, "Seattle", "Los Angeles"))
	_, before := hardPlan(&v)
	ps := testkit.Track(t, b, "Portland", "San Francisco", data.Green)
	if !slices.Contains(before.claims, ps) && !slices.Contains(before.claims, testkit.Track(t, b, "Portland", "San Francisco", data.Pink)) {
		t.Fatalf("the cheap way goes through Portland – San Francisco, got %v", names(b, before.claims))
	}
	// The opponent takes one of the double route: with two players the
	// other is closed too.
	hold(&v, 1, ps)
	s, after := hardPlan(&v)
	if len(after.goals) != 1 {
		t.Fatal("the ticket is still reachable another way")
	}
	for _, c := range after.claims {
		if !s.claimable[c] {
			t.Errorf("plan claims %s, which seat 0 may not claim", b.TrackName(c))
		}
		tr := &b.Tracks[c]
		if (b.Cities[tr.A].Name == "Portland" || b.Cities[tr.B].Name == "Portland") && (b.Cities[tr.A].Name == "San Francisco" || b.Cities[tr.B].Name == "San Francisco") {
			t.Errorf("plan still uses %s", b.TrackName(c))
		}
	}
	if after.trains <= before.trains {
		t.Errorf("the detour (%d trains) should be longer than the way lost (%d)", after.trains, before.trains)
	}
}

func TestPlannerDetourMarksBottlenecks(t *testing.T) {
	v := scene(t, "usa", 2)
	b := v.Board
	give(&v, ticketBetween(t, b, "Boston", "Miami"))
	// The opponent holds two of Miami's three tracks: Miami – Charleston is
	// now the only way in, far more critical than any track with a way round.
	hold(&v, 1, testkit.AnyTrack(t, b, "Miami", "Atlanta"), testkit.AnyTrack(t, b, "Miami", "New Orleans"))
	bottleneck := testkit.AnyTrack(t, b, "Miami", "Charleston")
	s, pl := hardPlan(&v)
	k := slices.Index(pl.claims, bottleneck)
	if k < 0 {
		t.Fatalf("plan goes through Miami – Charleston: %v", names(b, pl.claims))
	}
	o := hardOptions
	o.model = costModel{claimTurn: 1, stations: true}
	detour := newPlannerBot(o).planner(s).detour(pl)
	for j := range pl.claims {
		if j != k && detour[j] >= detour[k] {
			t.Errorf("losing %s (%.1f) should hurt less than losing Miami – Charleston (%.1f)", b.TrackName(pl.claims[j]), detour[j], detour[k])
		}
	}
}

func TestPlannerBorrowsWithStationWhenBlocked(t *testing.T) {
	v := scene(t, "europe", 2)
	b := v.Board
	give(&v, ticketBetween(t, b, "Edinburgh", "Paris"))
	// The opponent holds both tracks into Edinburgh: only a station helps.
	for _, id := range b.Adj[testkit.City(t, b, "Edinburgh")] {
		hold(&v, 1, id)
	}
	s, pl := hardPlan(&v)
	if len(pl.goals) != 1 || len(pl.borrow) != 1 {
		t.Fatalf("the ticket is pursued with one borrowed track: goals %d, borrow %v", len(pl.goals), names(b, pl.borrow))
	}
	if s.stationCity(pl.borrow[0]) == engine.NoCity {
		t.Error("the borrowed track has a city free for a station")
	}
	// Without stations left, nothing can be done.
	v.Players[0].Stations = 0
	_, pl = hardPlan(&v)
	if len(pl.goals) != 0 || len(pl.dropped) != 1 {
		t.Fatalf("without stations the ticket is given up: goals %d dropped %d", len(pl.goals), len(pl.dropped))
	}
}

func TestRouterTreatsCountriesAsDeadEnds(t *testing.T) {
	b := testkit.Board(t, "marklin")
	cost := make([]float64, len(b.Tracks))
	for i := range cost {
		cost[i] = 1
	}
	r := newRouter(b)
	checked := 0
	for a := range b.Cities {
		if b.Cities[a].Country {
			continue
		}
		r.search([]data.CityID{data.CityID(a)}, cost, engine.NoCity)
		for z := range b.Cities {
			path := r.path(data.CityID(z), nil)
			// Walk back from z: every node but the two ends must be a city.
			at := data.CityID(z)
			for i, tr := range path {
				at = b.Tracks[tr].Other(at)
				if i < len(path)-1 && b.Cities[at].Country {
					t.Fatalf("path %s → %s passes through %s", b.Cities[a].Name, b.Cities[z].Name, b.Cities[at].Name)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no path checked")
	}
}

func TestMayClaimFollowsTheParallelRule(t *testing.T) {
	for _, tc := range []struct {
		players   int
		holder    int // of the sibling
		claimable bool
	}{
		{2, 1, false}, // 2–3 players: a double route is single
		{4, 1, true},  // 4–5 players: both can be used, by different players
		{4, 0, false}, // never both tracks to one player
	} {
		v := scene(t, "usa", tc.players)
		b := v.Board
		green := testkit.Track(t, b, "Portland", "San Francisco", data.Green)
		pink := testkit.Track(t, b, "Portland", "San Francisco", data.Pink)
		hold(&v, tc.holder, pink)
		if got := read(&v).claimable[green]; got != tc.claimable {
			t.Errorf("%d players, sibling held by seat %d: claimable %v, want %v", tc.players, tc.holder, got, tc.claimable)
		}
	}
}
