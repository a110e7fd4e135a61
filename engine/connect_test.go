package engine

import (
	"math/rand/v2"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

func ownedOf(b *data.Board, ts []data.TrackID) []bool {
	owned := make([]bool, len(b.Tracks))
	for _, t := range ts {
		owned[t] = true
	}
	return owned
}

func TestTicketCompletedByAChainOfOwnTracks(t *testing.T) {
	b := testkit.Board(t, "usa")
	type r = [3]string
	held := routes(t, b, r{"Seattle", "Portland", "gray"}, r{"Portland", "San Francisco", "green"}, r{"San Francisco", "Los Angeles", "pink"})
	owned := ownedOf(b, held)
	if !Connected(b, owned, testkit.City(t, b, "Los Angeles"), testkit.City(t, b, "Seattle")) {
		t.Fatal("Seattle – Portland – San Francisco – Los Angeles should connect")
	}
	owned[held[1]] = false
	if Connected(b, owned, testkit.City(t, b, "Los Angeles"), testkit.City(t, b, "Seattle")) {
		t.Fatal("without Portland – San Francisco the ends are apart")
	}
}

func TestCountryIsADeadEnd(t *testing.T) {
	b := testkit.Board(t, "marklin")
	type r = [3]string
	// Two tracks into Frankreich do not link Saarbrücken to Freiburg.
	owned := ownedOf(b, routes(t, b, r{"Saarbrücken", "Frankreich", "green"}, r{"Freiburg", "Frankreich", "yellow"}))
	saar, frei, fr := testkit.City(t, b, "Saarbrücken"), testkit.City(t, b, "Freiburg"), testkit.City(t, b, "Frankreich")
	if Connected(b, owned, saar, frei) {
		t.Error("Saarbrücken and Freiburg connected through Frankreich")
	}
	if !Connected(b, owned, saar, fr) || !Connected(b, owned, fr, frei) {
		t.Error("each city should reach Frankreich")
	}
	// The same through Score: the city ticket fails, the country ticket scores.
	fs := Score(b, []Holding{{Name: "A", Tracks: routes(t, b, r{"Saarbrücken", "Frankreich", "green"}, r{"Freiburg", "Frankreich", "yellow"}),
		Tickets: []HeldTicket{ticket(t, b, "Saarbrücken", "Freiburg", 5), ticket(t, b, "Frankreich", "Freiburg", 3)}}})
	if p := fs.Players[0]; p.Tickets[0].Completed || !p.Tickets[1].Completed || p.TicketPoints != -5+3 {
		t.Errorf("tickets %+v, points %d", p.Tickets, p.TicketPoints)
	}
	// Two countries are linked through a city (Schweiz – Freiburg – Frankreich),
	// but cities are not linked through a country (Konstanz – Schweiz – Freiburg).
	owned = ownedOf(b, routes(t, b, r{"Freiburg", "Schweiz", "orange"}, r{"Freiburg", "Frankreich", "yellow"}, r{"Konstanz", "Schweiz", "white"}))
	if !Connected(b, owned, testkit.City(t, b, "Schweiz"), fr) {
		t.Error("Schweiz – Freiburg – Frankreich should connect the two countries")
	}
	if Connected(b, owned, testkit.City(t, b, "Konstanz"), frei) || Connected(b, owned, testkit.City(t, b, "Konstanz"), fr) {
		t.Error("Konstanz reached Freiburg through Schweiz")
	}
}

func TestTicketToOesterreichThroughEitherArea(t *testing.T) {
	b := testkit.Board(t, "marklin")
	type r = [3]string
	west := routes(t, b, r{"Frankfurt", "Mannheim", "gray"}, r{"Mannheim", "Stuttgart", "gray"}, r{"Stuttgart", "Ulm", "gray"},
		r{"Ulm", "Lindau", "red"}, r{"Lindau", "Österreich", "pink"})
	east := routes(t, b, r{"Frankfurt", "Würzburg", "gray"}, r{"Würzburg", "Nürnberg", "gray"}, r{"Nürnberg", "München", "black"},
		r{"München", "Österreich", "red"})
	if wa, ea := b.Tracks[west[len(west)-1]].Area, b.Tracks[east[len(east)-1]].Area; wa == ea {
		t.Fatalf("setup: both routes end in area %d of Österreich", wa)
	}
	tk := ticket(t, b, "Frankfurt", "Österreich", 10)
	for name, held := range map[string][]data.TrackID{"west area": west, "east area": east} {
		fs := Score(b, []Holding{{Name: "A", Tracks: held, Tickets: []HeldTicket{tk}}})
		if !fs.Players[0].Tickets[0].Completed {
			t.Errorf("%s: Frankfurt – Österreich not completed", name)
		}
		short := held[:len(held)-1]
		if Score(b, []Holding{{Name: "A", Tracks: short, Tickets: []HeldTicket{tk}}}).Players[0].Tickets[0].Completed {
			t.Errorf("%s: completed without a track into Österreich", name)
		}
	}
	// Two routes into Österreich's two areas still do not link Lindau and München.
	owned := ownedOf(b, routes(t, b, r{"Lindau", "Österreich", "pink"}, r{"München", "Österreich", "red"}))
	if Connected(b, owned, testkit.City(t, b, "Lindau"), testkit.City(t, b, "München")) {
		t.Error("Lindau and München linked through Österreich")
	}
}

func TestCountryToCountryTicket(t *testing.T) {
	b := testkit.Board(t, "marklin")
	type r = [3]string
	held := routes(t, b, r{"Kiel", "Dänemark", "gray"}, r{"Kiel", "Hamburg", "black"}, r{"Hamburg", "Bremen", "orange"},
		r{"Bremen", "Emden", "blue"}, r{"Emden", "Niederlande", "white"})
	owned := ownedOf(b, held)
	dk, nl := testkit.City(t, b, "Dänemark"), testkit.City(t, b, "Niederlande")
	if !Connected(b, owned, dk, nl) || !Connected(b, owned, nl, dk) {
		t.Fatal("Dänemark – Kiel – … – Emden – Niederlande should connect")
	}
	owned[held[2]] = false
	if Connected(b, owned, dk, nl) {
		t.Fatal("connected without Hamburg – Bremen")
	}
}

// reachable is a plain search written apart from Connectivity: from a,
// follow owned tracks, never leaving a country other than the start.
func reachable(b *data.Board, owned []bool, a, z data.CityID) bool {
	seen := make([]bool, len(b.Cities))
	queue := []data.CityID{a}
	seen[a] = true
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == z {
			return true
		}
		if b.Cities[u].Country && u != a {
			continue
		}
		for _, t := range b.Adj[u] {
			if o := b.Tracks[t].Other(u); owned[t] && !seen[o] {
				seen[o] = true
				queue = append(queue, o)
			}
		}
	}
	return false
}

func TestConnectedAgreesWithPlainSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		var reused Connectivity
		for range 300 {
			owned := make([]bool, len(b.Tracks))
			share := 0.1 + 0.5*rng.Float64()
			for i := range owned {
				owned[i] = rng.Float64() < share
			}
			reused.Reset(b)
			reused.AddOwned(owned)
			for range 20 {
				a, z := data.CityID(rng.IntN(len(b.Cities))), data.CityID(rng.IntN(len(b.Cities)))
				want := reachable(b, owned, a, z)
				if got := Connected(b, owned, a, z); got != want {
					t.Fatalf("%s: Connected(%s, %s) = %v, search says %v", id, b.Cities[a].Name, b.Cities[z].Name, got, want)
				}
				if got := reused.Connected(a, z); got != want {
					t.Fatalf("%s: reused Connectivity(%s, %s) = %v, search says %v", id, b.Cities[a].Name, b.Cities[z].Name, got, want)
				}
			}
		}
	}
}

func TestConnectedDoesNotAllocate(t *testing.T) {
	b := testkit.Board(t, "marklin")
	type r = [3]string
	owned := ownedOf(b, routes(t, b, r{"Kiel", "Dänemark", "gray"}, r{"Kiel", "Hamburg", "black"}, r{"Lindau", "Österreich", "pink"}))
	dk, hh := testkit.City(t, b, "Dänemark"), testkit.City(t, b, "Hamburg")
	if n := testing.AllocsPerRun(100, func() { Connected(b, owned, dk, hh) }); n != 0 {
		t.Fatalf("Connected allocates %v times per call", n)
	}
	var c Connectivity
	c.Reset(b)
	if n := testing.AllocsPerRun(100, func() { c.Reset(b); c.AddOwned(owned); c.Connected(dk, hh) }); n != 0 {
		t.Fatalf("a reused Connectivity allocates %v times per network", n)
	}
}

func BenchmarkConnected(b *testing.B) {
	bd := testkit.Board(b, "europe")
	hs := latePosition(bd, 4, 7)
	owned := ownedOf(bd, hs[0].Tracks)
	tk := hs[0].Tickets[0]
	for b.Loop() {
		Connected(bd, owned, tk.A, tk.B)
	}
}
