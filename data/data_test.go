package data

import (
	"strings"
	"testing"
)

// published totals from the rulebooks and the boards' own counts.
func TestPublishedTotals(t *testing.T) {
	c := Embedded()
	type totals struct {
		cities, countries, tracks, spaces, doubles, triples, tunnels, ferries, ferryLocos int
	}
	want := map[string]totals{
		"usa":     {cities: 36, tracks: 100, spaces: 309, doubles: 22},
		"europe":  {cities: 47, tracks: 101, spaces: 300, doubles: 11, tunnels: 18, ferries: 13, ferryLocos: 17},
		"marklin": {cities: 35, countries: 5, tracks: 110, spaces: 313, doubles: 21, triples: 2},
	}
	for id, w := range want {
		b, err := c.Board(id)
		if err != nil {
			t.Fatal(err)
		}
		var got totals
		got.cities = b.NumCities()
		got.countries = len(b.Countries)
		got.tracks = len(b.Tracks)
		got.spaces = b.Spaces()
		for _, g := range b.Groups {
			switch len(g) {
			case 2:
				got.doubles++
			case 3:
				got.triples++
			}
		}
		for _, tr := range b.Tracks {
			if tr.Tunnel {
				got.tunnels++
			}
			if tr.Locomotives > 0 {
				got.ferries++
				got.ferryLocos += tr.Locomotives
			}
		}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", id, got, w)
		}
	}
}

func TestTicketDecks(t *testing.T) {
	c := Embedded()
	count := func(id string, keep func(Ticket) bool) int {
		b, _ := c.Board(id)
		n := 0
		for _, tk := range b.Tickets {
			if keep(tk) {
				n++
			}
		}
		return n
	}
	cases := []struct {
		name string
		got  int
		want int
	}{
		{"usa base", count("usa", func(t Ticket) bool { return t.Deck == "usa" }), 30},
		{"usa 1910", count("usa", func(t Ticket) bool { return t.Deck == "1910" }), 35},
		{"europe", count("europe", func(t Ticket) bool { return t.Deck == "europe" }), 46},
		{"europe long", count("europe", func(t Ticket) bool { return t.Deck == "europe" && t.Long }), 6},
		{"1912", count("europe", func(t Ticket) bool { return t.Deck == "1912" }), 55},
		{"1912 long", count("europe", func(t Ticket) bool { return t.Deck == "1912" && t.Long }), 6},
		{"big cities", count("europe", func(t Ticket) bool { return t.BigCities }), 45},
		{"big cities never long", count("europe", func(t Ticket) bool { return t.BigCities && t.Long }), 0},
		{"marklin short 5-11", count("marklin", func(t Ticket) bool { return !t.Long && t.Points >= 5 && t.Points <= 11 }), count("marklin", func(t Ticket) bool { return !t.Long })},
		{"marklin long 12-22", count("marklin", func(t Ticket) bool { return t.Long && t.Points >= 12 && t.Points <= 22 }), count("marklin", func(t Ticket) bool { return t.Long })},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s: %d tickets, want %d", tc.name, tc.got, tc.want)
		}
	}
	if b, _ := c.Board("marklin"); !b.TicketsSubstitute || b.TicketsNote == "" {
		t.Error("the Märklin deck must be marked as a substitute")
	}
}

func TestMarklinGoods(t *testing.T) {
	b, _ := Embedded().Board("marklin")
	stacks := map[string]int{}
	tokens := 0
	for _, c := range b.Cities {
		if c.Country {
			continue
		}
		if len(c.GoodsStack) == 0 {
			t.Errorf("%s has no goods", c.Name)
		}
		stacks[c.Goods]++
		tokens += len(c.GoodsStack)
		for i := 1; i < len(c.GoodsStack); i++ {
			if c.GoodsStack[i] >= c.GoodsStack[i-1] {
				t.Errorf("%s: stack %v is not highest first", c.Name, c.GoodsStack)
			}
		}
	}
	want := map[string]int{"black": 1, "red": 6, "yellow": 12, "white": 16}
	for k, v := range want {
		if stacks[k] != v {
			t.Errorf("%s stacks: %d, want %d", k, stacks[k], v)
		}
	}
	if tokens != 74 {
		t.Errorf("goods tokens: %d, want 74", tokens)
	}
	at, _ := b.City("Österreich")
	if n := len(b.CountryOf(at).Areas); n != 2 {
		t.Errorf("Österreich has %d areas, want 2", n)
	}
}

func TestRuleTables(t *testing.T) {
	c := Embedded()
	for _, tc := range []struct {
		id     string
		cards  int
		points map[int]int
	}{
		{"usa", 110, map[int]int{1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}},
		{"europe", 110, map[int]int{1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}},
		{"marklin", 118, map[int]int{1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}},
	} {
		b, _ := c.Board(tc.id)
		if got := b.Rules.Cards.Total(); got != tc.cards {
			t.Errorf("%s: %d cards, want %d", tc.id, got, tc.cards)
		}
		if len(b.Rules.RoutePoints) != len(tc.points) {
			t.Errorf("%s: route points %v, want %v", tc.id, b.Rules.RoutePoints, tc.points)
		}
		for l, p := range tc.points {
			if b.RoutePoints(l) != p {
				t.Errorf("%s: length %d scores %d, want %d", tc.id, l, b.RoutePoints(l), p)
			}
		}
		if b.Rules.Trains != 45 || b.Rules.Hand != 4 {
			t.Errorf("%s: %d trains, %d cards dealt", tc.id, b.Rules.Trains, b.Rules.Hand)
		}
	}
}

func TestCountriesAreDeadEnds(t *testing.T) {
	b, _ := Embedded().Board("marklin")
	for i := range b.Cities {
		if !b.Cities[i].Country {
			continue
		}
		for _, tr := range b.Adj[i] {
			if b.Cities[b.Tracks[tr].Other(CityID(i))].Country {
				t.Errorf("%s links two countries", b.TrackName(tr))
			}
		}
	}
	// Removing countries must leave the cities connected: validation walks
	// through cities only, so a board whose cities are only linked via a
	// country is refused.
	src := []byte(`{"id":"t","name":"t","width":10,"height":10,
	 "rules":{"trains":45,"hand":4,"face_up":5,"end_trains":2,"route_points":{"1":1},"cards":{"colors":12,"locomotives":14},"max_flushes":3,"flush_locomotives":3,"tie_breaks":[]},
	 "variants":[],
	 "cities":[{"name":"A","x":0,"y":0},{"name":"B","x":1,"y":1}],
	 "countries":[{"name":"C","areas":[{"x":2,"y":2}]}],
	 "routes":[{"a":"A","b":"C","length":1,"color":"gray"},{"a":"B","b":"C","length":1,"color":"gray"}],
	 "tickets":[]}`)
	if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Errorf("cities linked only through a country: got %v, want a not-connected error", err)
	}
}

func TestValidationRefusesBadBoards(t *testing.T) {
	base := `{"id":"t","name":"t","width":10,"height":10,
	 "rules":{"trains":45,"hand":4,"face_up":5,"end_trains":2,"route_points":{"1":1,"2":2},"cards":{"colors":12,"locomotives":14},"max_flushes":3,"flush_locomotives":3,"tie_breaks":[]},
	 "variants":[],
	 "cities":[{"name":"A","x":0,"y":0},{"name":"B","x":1,"y":1},{"name":"C","x":1,"y":1}],
	 "routes":[ROUTES],
	 "tickets":[TICKETS]}`
	cases := []struct{ routes, tickets, want string }{
		{`{"a":"A","b":"Q","length":1,"color":"gray"}`, ``, `unknown city "Q"`},
		{`{"a":"A","b":"B","length":1,"color":"gray"},{"a":"A","b":"B","length":2,"color":"red"},{"a":"B","b":"C","length":1,"color":"red"}`, ``, `parallel routes`},
		{`{"a":"A","b":"B","length":1,"color":"gray"}`, ``, `not connected`},
		{`{"a":"A","b":"B","length":1,"color":"gray"},{"a":"B","b":"C","length":3,"color":"red"}`, ``, `no points for length 3`},
		{`{"a":"A","b":"B","length":1,"color":"mauve"},{"a":"B","b":"C","length":1,"color":"red"}`, ``, `unknown colour`},
		{`{"a":"A","b":"B","length":1,"color":"red"},{"a":"B","b":"C","length":1,"color":"red"}`, `{"a":"A","b":"Cc","points":3,"deck":"x"}`, `did you mean "C"`},
	}
	for _, tc := range cases {
		src := strings.Replace(strings.Replace(base, "ROUTES", tc.routes, 1), "TICKETS", tc.tickets, 1)
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("routes %s: got %v, want an error with %q", tc.routes, err, tc.want)
		}
	}
}

func TestDeckFile(t *testing.T) {
	c := Embedded()
	good := "# the real deck\nmap: marklin\nBerlin, Leipzig, 5\nKiel, Stuttgart, 17, long\n\nDänemark, Lindau, 22, marklin, long\n"
	for i := 0; i < 25; i++ {
		good += "Hamburg, München, 20, long\nBremen, Köln, 6\n"
	}
	nc, err := c.LoadDeckFile("deck.txt", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := nc.Board("marklin")
	if len(b.Tickets) != 53 || b.TicketsSubstitute {
		t.Errorf("loaded deck: %d tickets, substitute=%v", len(b.Tickets), b.TicketsSubstitute)
	}
	if old, _ := c.Board("marklin"); len(old.Tickets) == 53 {
		t.Error("loading a deck changed the original catalog")
	}
	bad := []struct{ src, want string }{
		{"map: marklin\nBerlin, Leipzig, 5\nKiel, Stutgart, 17, long\n", `deck.txt:3: unknown city "Stutgart" on the marklin board (did you mean "Stuttgart"?)`},
		{"map: marklin\nBerlin, Leipzig\n", `deck.txt:2: expected "city, city, points"`},
		{"map: marklin\nBerlin, Leipzig, five\n", `deck.txt:2: points must be a positive whole number`},
		{"Berlin, Leipzig, 5\n", `no "map: NAME" line`},
		{"map: mars\nBerlin, Leipzig, 5\n", `no such board "mars"`},
		{"map: marklin\nBerlin, Leipzig, 5\n", `cannot deal five players`},
	}
	for _, tc := range bad {
		_, err := c.LoadDeckFile("deck.txt", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

// "mode: add" keeps the board's tickets and adds the file's: the way to
// give Europe's bonus-tickets option its tickets.
func TestDeckFileAddsBonusTickets(t *testing.T) {
	c := Embedded()
	nc, err := c.LoadDeckFile("bonus.txt", []byte("map: europe\nmode: add\nLisboa, Moskva, 20, bonus, long\nLondon, Kobenhavn, 9, bonus\n"))
	if err != nil {
		t.Fatal(err)
	}
	old, _ := c.Board("europe")
	b, _ := nc.Board("europe")
	if len(b.Tickets) != len(old.Tickets)+2 || b.DeckSize("bonus") != 2 || old.DeckSize("bonus") != 0 {
		t.Fatalf("tickets %d (was %d), bonus %d", len(b.Tickets), len(old.Tickets), b.DeckSize("bonus"))
	}
	for i, tk := range b.Tickets {
		if int(tk.ID) != i {
			t.Fatalf("ticket %d has id %d", i, tk.ID)
		}
	}
	if b.DeckSize("europe") != old.DeckSize("europe") || b.DeckSize("1912") != old.DeckSize("1912") {
		t.Fatal("adding changed the board's own decks")
	}
	if _, err := c.LoadDeckFile("bonus.txt", []byte("map: europe\nmode: append\nLisboa, Moskva, 20, bonus\n")); err == nil || !strings.Contains(err.Error(), `bonus.txt:2: mode is "replace"`) {
		t.Fatalf("a wrong mode: %v", err)
	}
}

func TestFindCity(t *testing.T) {
	b, _ := Embedded().Board("europe")
	for in, want := range map[string]string{"zurich": "Zurich", "PARIS": "Paris", "Constant": "Constantinople", "kobenhavn": "Kobenhavn"} {
		id, ok := b.FindCity(in)
		if !ok || b.Cities[id].Name != want {
			t.Errorf("FindCity(%q) = %v %v, want %s", in, b.Cities[id].Name, ok, want)
		}
	}
	if _, ok := b.FindCity("Ber"); !ok {
		t.Error("Ber is a unique prefix of Berlin")
	}
	if _, ok := b.FindCity("B"); ok {
		t.Error("B is ambiguous")
	}
}
