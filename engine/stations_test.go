package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

type r3 = [3]string

func trackNames(b *data.Board, ts []data.TrackID) []string {
	var out []string
	for _, t := range ts {
		out = append(out, b.TrackName(t)+" "+b.Tracks[t].Color.String())
	}
	return out
}

func TestStationWithoutOpponentRouteDoesNothing(t *testing.T) {
	b := testkit.Board(t, "europe")
	fs := Score(b, []Holding{
		// A's only track at Sarajevo is A's own.
		{Name: "A", Tracks: routes(t, b, r3{"Budapest", "Sarajevo", "pink"}),
			Stations: []data.CityID{testkit.City(t, b, "Sarajevo"), testkit.City(t, b, "Edinburgh")},
			Tickets:  []HeldTicket{ticket(t, b, "Budapest", "Sofia", 5)}},
		// B's tracks touch Sofia, not Sarajevo.
		{Name: "B", Tracks: routes(t, b, r3{"Athina", "Sofia", "pink"}, r3{"Bucuresti", "Sofia", "gray"})},
	})
	a := fs.Players[0]
	if a.Tickets[0].Completed || len(a.Borrowed) != 0 || a.TicketPoints != -5 {
		t.Fatalf("completed %v, borrowed %v, ticket points %d", a.Tickets[0].Completed, trackNames(b, a.Borrowed), a.TicketPoints)
	}
	if a.StationsBuilt != 2 || a.StationPoints != 4 {
		t.Fatalf("a useless station is still built: %d built, %d points", a.StationsBuilt, a.StationPoints)
	}
}

func TestStationLendsOneRouteForAllTickets(t *testing.T) {
	b := testkit.Board(t, "europe")
	for _, c := range []struct {
		sofia, athina int
		want          string
	}{{5, 8, "Athina"}, {9, 8, "Sofia"}} {
		fs := Score(b, []Holding{
			{Name: "A", Tracks: routes(t, b, r3{"Budapest", "Sarajevo", "pink"}),
				Stations: []data.CityID{testkit.City(t, b, "Sarajevo")},
				Tickets:  []HeldTicket{ticket(t, b, "Budapest", "Sofia", c.sofia), ticket(t, b, "Budapest", "Athina", c.athina)}},
			{Name: "B", Tracks: routes(t, b, r3{"Sarajevo", "Sofia", "gray"}, r3{"Athina", "Sarajevo", "green"})},
		})
		a := fs.Players[0]
		sofiaDone, athinaDone := a.Tickets[0].Completed, a.Tickets[1].Completed
		if sofiaDone == athinaDone {
			t.Fatalf("one station must serve exactly one of the two tickets: Sofia %v, Athina %v", sofiaDone, athinaDone)
		}
		if got := map[bool]string{true: "Sofia", false: "Athina"}[sofiaDone]; got != c.want {
			t.Errorf("values Sofia %d, Athina %d: completed %s, want %s", c.sofia, c.athina, got, c.want)
		}
		want := testkit.Track(t, b, "Sarajevo", c.want, map[string]data.Color{"Sofia": data.Gray, "Athina": data.Green}[c.want])
		if !slices.Equal(a.Borrowed, []data.TrackID{want}) {
			t.Errorf("borrowed %v", trackNames(b, a.Borrowed))
		}
		best := max(c.sofia, c.athina) - min(c.sofia, c.athina)
		if a.TicketPoints != best {
			t.Errorf("ticket points %d, want %d", a.TicketPoints, best)
		}
	}
	// A second station on Sofia borrows the same Sarajevo – Sofia track from
	// the other end, so the Sarajevo station is free for Athina: both score.
	fs := Score(b, []Holding{
		{Name: "A", Tracks: routes(t, b, r3{"Budapest", "Sarajevo", "pink"}),
			Stations: []data.CityID{testkit.City(t, b, "Sarajevo"), testkit.City(t, b, "Sofia")},
			Tickets:  []HeldTicket{ticket(t, b, "Budapest", "Sofia", 5), ticket(t, b, "Budapest", "Athina", 8)}},
		{Name: "B", Tracks: routes(t, b, r3{"Sarajevo", "Sofia", "gray"}, r3{"Athina", "Sarajevo", "green"})},
	})
	if a := fs.Players[0]; a.TicketPoints != 13 || len(a.Borrowed) != 2 {
		t.Fatalf("two stations: ticket points %d, borrowed %v", a.TicketPoints, trackNames(b, a.Borrowed))
	}
}

func TestStationPicksTheBestOfSeveralRoutes(t *testing.T) {
	b := testkit.Board(t, "europe")
	fs := Score(b, []Holding{
		{Name: "A", Tracks: routes(t, b, r3{"Berlin", "Wien", "green"}),
			Stations: []data.CityID{testkit.City(t, b, "Wien")},
			Tickets:  []HeldTicket{ticket(t, b, "Berlin", "Zagrab", 6), ticket(t, b, "Berlin", "Munchen", 4)}},
		{Name: "B", Tracks: routes(t, b, r3{"Budapest", "Wien", "red"}, r3{"Wien", "Zagrab", "gray"})},
		{Name: "C", Tracks: routes(t, b, r3{"Munchen", "Wien", "orange"}, r3{"Warszawa", "Wien", "blue"})},
	})
	a := fs.Players[0]
	if want := []data.TrackID{testkit.Track(t, b, "Wien", "Zagrab", data.Gray)}; !slices.Equal(a.Borrowed, want) {
		t.Fatalf("borrowed %v, want Wien – Zagrab", trackNames(b, a.Borrowed))
	}
	if !a.Tickets[0].Completed || a.Tickets[1].Completed || a.TicketPoints != 6-4 {
		t.Fatalf("tickets %+v, points %d", a.Tickets, a.TicketPoints)
	}
}

func TestThreeStationsChooseJointly(t *testing.T) {
	b := testkit.Board(t, "europe")
	// Paris – Budapest needs Frankfurt – München – Wien – Budapest, all held
	// by opponents. Each of A's three stations (Frankfurt, München, Wien)
	// could take another route; only one assignment covers all three. A
	// station choosing alone (Frankfurt – Berlin for the Berlin ticket,
	// München – Wien twice…) would lose the Budapest ticket.
	fm := testkit.Track(t, b, "Frankfurt", "Munchen", data.Pink)
	mw := testkit.Track(t, b, "Munchen", "Wien", data.Orange)
	wb := testkit.Track(t, b, "Budapest", "Wien", data.Red)
	fs := Score(b, []Holding{
		{Name: "A", Tracks: routes(t, b, r3{"Paris", "Frankfurt", "white"}),
			Stations: []data.CityID{testkit.City(t, b, "Frankfurt"), testkit.City(t, b, "Munchen"), testkit.City(t, b, "Wien")},
			Tickets:  []HeldTicket{ticket(t, b, "Paris", "Budapest", 10), ticket(t, b, "Paris", "Berlin", 4)}},
		{Name: "B", Tracks: []data.TrackID{fm, wb, testkit.Track(t, b, "Berlin", "Frankfurt", data.Black)}},
		{Name: "C", Tracks: []data.TrackID{mw, testkit.Track(t, b, "Munchen", "Zurich", data.Yellow), testkit.Track(t, b, "Warszawa", "Wien", data.Blue)}},
	})
	a := fs.Players[0]
	want := []data.TrackID{fm, mw, wb}
	slices.Sort(want)
	if !slices.Equal(a.Borrowed, want) {
		t.Fatalf("borrowed %v, want Frankfurt – München, München – Wien, Wien – Budapest", trackNames(b, a.Borrowed))
	}
	if !a.Tickets[0].Completed || a.Tickets[1].Completed || a.TicketPoints != 10-4 {
		t.Fatalf("tickets %+v, points %d", a.Tickets, a.TicketPoints)
	}
}

func TestStationTieBreaks(t *testing.T) {
	b := testkit.Board(t, "europe")
	t.Run("fewest borrowed routes", func(t *testing.T) {
		// Sarajevo – Sofia alone, or Sarajevo – Athina plus Athina – Sofia,
		// both complete Budapest – Sofia.
		fs := Score(b, []Holding{
			{Name: "A", Tracks: routes(t, b, r3{"Budapest", "Sarajevo", "pink"}),
				Stations: []data.CityID{testkit.City(t, b, "Sarajevo"), testkit.City(t, b, "Sofia")},
				Tickets:  []HeldTicket{ticket(t, b, "Budapest", "Sofia", 5)}},
			{Name: "B", Tracks: routes(t, b, r3{"Sarajevo", "Sofia", "gray"}, r3{"Athina", "Sarajevo", "green"}, r3{"Athina", "Sofia", "pink"})},
		})
		if a := fs.Players[0]; !slices.Equal(a.Borrowed, []data.TrackID{testkit.Track(t, b, "Sarajevo", "Sofia", data.Gray)}) || a.TicketPoints != 5 {
			t.Fatalf("borrowed %v, points %d", trackNames(b, a.Borrowed), a.TicketPoints)
		}
	})
	t.Run("lowest track id", func(t *testing.T) {
		// Both tracks of the double route Budapest – Wien are held by
		// opponents; either completes the ticket, the lower id is taken
		// whoever holds it.
		red, white := testkit.Track(t, b, "Budapest", "Wien", data.Red), testkit.Track(t, b, "Budapest", "Wien", data.White)
		for _, order := range [][2]data.TrackID{{red, white}, {white, red}} {
			fs := Score(b, []Holding{
				{Name: "A", Tracks: routes(t, b, r3{"Berlin", "Wien", "green"}),
					Stations: []data.CityID{testkit.City(t, b, "Wien")},
					Tickets:  []HeldTicket{ticket(t, b, "Berlin", "Budapest", 6)}},
				{Name: "B", Tracks: []data.TrackID{order[0]}},
				{Name: "C", Tracks: []data.TrackID{order[1]}},
				{Name: "D"},
			})
			if a := fs.Players[0]; !slices.Equal(a.Borrowed, []data.TrackID{min(red, white)}) {
				t.Fatalf("borrowed %v, want the lower id %d", a.Borrowed, min(red, white))
			}
		}
	})
	t.Run("nothing borrowed when the tickets are done", func(t *testing.T) {
		fs := Score(b, []Holding{
			{Name: "A", Tracks: routes(t, b, r3{"Budapest", "Sarajevo", "pink"}),
				Stations: []data.CityID{testkit.City(t, b, "Sarajevo")},
				Tickets:  []HeldTicket{ticket(t, b, "Budapest", "Sarajevo", 3)}},
			{Name: "B", Tracks: routes(t, b, r3{"Sarajevo", "Sofia", "gray"})},
		})
		if a := fs.Players[0]; len(a.Borrowed) != 0 {
			t.Fatalf("borrowed %v for nothing", trackNames(b, a.Borrowed))
		}
	})
}

// bruteStations tries every assignment of opponent tracks (or none) to the
// stations, without ChooseStations' pruning, and applies the same order:
// most ticket points, then fewest distinct tracks, then lowest ids.
func bruteStations(b *data.Board, own []data.TrackID, opponent []bool, stations []data.CityID, tickets []HeldTicket) ([]data.TrackID, int) {
	isOwn := map[data.TrackID]bool{}
	for _, t := range own {
		isOwn[t] = true
	}
	options := make([][]data.TrackID, len(stations))
	for i, c := range stations {
		options[i] = []data.TrackID{noTrack}
		for _, t := range b.Adj[c] {
			if opponent[t] && !isOwn[t] {
				options[i] = append(options[i], t)
			}
		}
	}
	var best []data.TrackID
	bestPoints, found := 0, false
	pick := make([]data.TrackID, len(stations))
	var try func(i int)
	try = func(i int) {
		if i < len(stations) {
			for _, t := range options[i] {
				pick[i] = t
				try(i + 1)
			}
			return
		}
		owned := ownedOf(b, own)
		var set []data.TrackID
		for _, t := range pick {
			if t != noTrack && !slices.Contains(set, t) {
				set = append(set, t)
				owned[t] = true
			}
		}
		slices.Sort(set)
		points := 0
		for _, tk := range tickets {
			if reachable(b, owned, tk.A, tk.B) {
				points += tk.Points
			} else {
				points -= tk.Points
			}
		}
		if !found || points > bestPoints || points == bestPoints &&
			(len(set) < len(best) || len(set) == len(best) && slices.Compare(set, best) < 0) {
			found, bestPoints, best = true, points, set
		}
	}
	try(0)
	return best, bestPoints
}

func TestStationChoiceAgreesWithBruteForce(t *testing.T) {
	b := testkit.Board(t, "europe")
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 40 {
		hs := latePosition(b, 2+rng.IntN(4), uint64(round))
		holders := make([]int, len(b.Tracks))
		for _, h := range hs {
			for _, t := range h.Tracks {
				holders[t]++
			}
		}
		for p, h := range hs {
			// Random stations, not only on ticket ends, to try unusual cases.
			stations := slices.Clone(h.Stations)
			for len(stations) < 3 {
				if c := data.CityID(rng.IntN(len(b.Cities))); !slices.Contains(stations, c) {
					stations = append(stations, c)
				}
			}
			opponent := make([]bool, len(b.Tracks))
			for t := range opponent {
				opponent[t] = holders[t] > 0 && !slices.Contains(h.Tracks, data.TrackID(t))
			}
			got := ChooseStations(b, h.Tracks, opponent, stations, h.Tickets)
			want, wantPoints := bruteStations(b, h.Tracks, opponent, stations, h.Tickets)
			if got.TicketPoints != wantPoints || !slices.Equal(got.Borrowed, want) {
				t.Fatalf("round %d player %d: got %d with %v, brute force %d with %v", round, p,
					got.TicketPoints, trackNames(b, got.Borrowed), wantPoints, trackNames(b, want))
			}
		}
	}
}

// BenchmarkChooseStationsHubs is the station search's hard case: three
// stations on hubs (Paris, Wien, Berlin) ringed by opponent routes, tickets
// that borrowing could help, so hundreds of combinations are tried.
func BenchmarkChooseStationsHubs(b *testing.B) {
	bd := testkit.Board(b, "europe")
	own := routes(b, bd, r3{"Brest", "Pamplona", "pink"}, r3{"Essen", "Kobenhavn", "gray"}, r3{"Sarajevo", "Athina", "green"})
	opponent := make([]bool, len(bd.Tracks))
	for t := range opponent {
		opponent[t] = !slices.Contains(own, data.TrackID(t))
	}
	stations := []data.CityID{testkit.City(b, bd, "Paris"), testkit.City(b, bd, "Wien"), testkit.City(b, bd, "Berlin")}
	tickets := []HeldTicket{ticket(b, bd, "Brest", "Frankfurt", 7), ticket(b, bd, "Athina", "Budapest", 8),
		ticket(b, bd, "Kobenhavn", "Warszawa", 9), ticket(b, bd, "Pamplona", "Marseille", 5), ticket(b, bd, "Sarajevo", "Munchen", 6)}
	var combos int
	for b.Loop() {
		ChooseStations(bd, own, opponent, stations, tickets)
	}
	var s stationSearch
	s.base.Reset(bd)
	for _, t := range own {
		s.base.Add(t)
	}
	s.choose(bd, own, opponent, stations, tickets)
	combos = 1
	for _, o := range s.options {
		combos *= len(o) + 1
	}
	b.ReportMetric(float64(combos), "combinations")
}
