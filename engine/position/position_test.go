package position

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

func TestParseExample(t *testing.T) {
	pos, err := Parse(testkit.Catalog(), []byte(Example))
	if err != nil {
		t.Fatal(err)
	}
	b := pos.Board
	if b.ID != "europe" || len(pos.Players) != 1 {
		t.Fatalf("board %s, %d players", b.ID, len(pos.Players))
	}
	h := pos.Players[0]
	if h.Name != "A" || !slices.Equal(h.Tracks, []data.TrackID{testkit.Track(t, b, "Paris", "Frankfurt", data.White)}) {
		t.Fatalf("holding %+v", h)
	}
	if !slices.Equal(h.Stations, []data.CityID{testkit.City(t, b, "Sarajevo")}) {
		t.Fatalf("stations %v", h.Stations)
	}
	// Budapest – Sofia is worth 5 on the Europe board.
	if want := []engine.HeldTicket{ticket(t, b, "Budapest", "Sofia", 5)}; !slices.Equal(h.Tickets, want) {
		t.Fatalf("tickets %+v, want %+v", h.Tickets, want)
	}
}

func TestParseForgivingNamesAndExplicitPoints(t *testing.T) {
	src := `{"map":"Marklin","face_up":["red","locomotive","locomotive+4"],"players":[
		{"name":"A","routes":[["muenchen","osterreich","RED"],["Saarbrucken","frankreich","green"]],
		 "tickets":[["Saarbrücken","München",23],["Frankreich","München"]],"goods":12},
		{"name":"B"}]}`
	_, err := Parse(testkit.Catalog(), []byte(src))
	if err == nil {
		t.Fatal(`"muenchen" is not a spelling FindCity knows; expected an error`)
	}
	if !strings.Contains(err.Error(), `did you mean "München"`) {
		t.Fatalf("error %q should suggest München", err)
	}
	src = strings.Replace(src, "muenchen", "munchen", 1)
	pos, err := Parse(testkit.Catalog(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b := pos.Board
	h := pos.Players[0]
	want := []data.TrackID{testkit.Track(t, b, "München", "Österreich", data.Red), testkit.Track(t, b, "Saarbrücken", "Frankreich", data.Green)}
	if !slices.Equal(h.Tracks, want) || h.Goods != 12 {
		t.Fatalf("tracks %v goods %d", h.Tracks, h.Goods)
	}
	if h.Tickets[0].Points != 23 || h.Tickets[1].Points != 8 {
		t.Fatalf("tickets %+v: want the given 23 and the board's 8 for Frankreich – München", h.Tickets)
	}
	if !slices.Equal(pos.FaceUp, []string{"red", "locomotive", "locomotive+4"}) {
		t.Fatalf("face up %v", pos.FaceUp)
	}
}

func TestParseParallelTracksOfOneColour(t *testing.T) {
	// Düsseldorf – Köln is a triple gray route: with four players, three of
	// them may each name it and get a different track.
	src := `{"map":"marklin","players":[
		{"name":"A","routes":[["Düsseldorf","Köln","gray"]]},
		{"name":"B","routes":[["Köln","Düsseldorf","gray"]]},
		{"name":"C","routes":[["Düsseldorf","Köln","grey"]]},
		{"name":"D"}]}`
	pos, err := Parse(testkit.Catalog(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	all := testkit.Tracks(t, pos.Board, "Düsseldorf", "Köln", data.Gray)
	for i, h := range pos.Players[:3] {
		if !slices.Equal(h.Tracks, all[i:i+1]) {
			t.Errorf("%s holds %v, want %v", h.Name, h.Tracks, all[i])
		}
	}
}

// deckWith returns a catalog whose Europe deck is the board's own plus one
// more Budapest – Sofia ticket of another value.
func deckWith(t *testing.T) *data.Catalog {
	t.Helper()
	b := testkit.Board(t, "europe")
	var sb strings.Builder
	sb.WriteString("map: europe\n")
	for _, tk := range b.Tickets {
		fmt.Fprintf(&sb, "%s, %s, %d, %s", b.Cities[tk.A].Name, b.Cities[tk.B].Name, tk.Points, tk.Deck)
		if tk.Long {
			sb.WriteString(", long")
		}
		if tk.BigCities {
			sb.WriteString(", big_cities")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("Sofia, Budapest, 7, europe\n")
	c, err := testkit.Catalog().LoadDeckFile("test.deck", []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseRejects(t *testing.T) {
	player := func(fields string) string {
		return `{"map":"europe","players":[{"name":"A"` + fields + `},{"name":"B"}]}`
	}
	six := `{"map":"usa","players":[{"name":"1"},{"name":"2"},{"name":"3"},{"name":"4"},{"name":"5"},{"name":"6"}]}`
	cases := []struct {
		name, src string
		want      []string // substrings of the message
	}{
		{"not JSON", `{"map":`, []string{"not valid JSON", `"map":"europe"`}},
		{"unknown field", `{"map":"europe","players":[{"name":"A","train":3}]}`, []string{`unknown field "train"`}},
		{"wrong JSON type", `{"map":"europe","players":[{"name":"A","routes":"Paris"}]}`, []string{`"players.routes" should be a list`}},
		{"two positions", `{"map":"europe","players":[{"name":"A"}]} {}`, []string{"one position"}},
		{"no map", `{"players":[{"name":"A"}]}`, []string{`no "map"`, "usa, europe, marklin"}},
		{"unknown map", `{"map":"asia","players":[{"name":"A"}]}`, []string{`"asia"`, "usa, europe, marklin"}},
		{"no players", `{"map":"usa","players":[]}`, []string{"0 players", "1 to 5"}},
		{"six players", six, []string{"6 players", "1 to 5"}},
		{"no name", `{"map":"usa","players":[{"name":" "}]}`, []string{"player 1 has no name"}},
		{"duplicate names", `{"map":"usa","players":[{"name":"Ann"},{"name":"ann"}]}`, []string{`two players are named "ann"`}},
		{"unknown city", player(`,"routes":[["Pariss","Frankfurt","white"]]`), []string{`unknown city "Pariss"`, `did you mean "Paris"`}},
		{"route shape", player(`,"routes":[["Paris","Frankfurt"]]`), []string{"route 1", `["city", "city", "colour"]`}},
		{"route not strings", player(`,"routes":[["Paris","Frankfurt",3]]`), []string{"three strings"}},
		{"unknown colour", player(`,"routes":[["Paris","Frankfurt","mauve"]]`), []string{`unknown colour "mauve"`, "gray, pink"}},
		{"no route between", player(`,"routes":[["Paris","Moskva","gray"]]`), []string{"no route between Paris and Moskva", "Paris's routes go to", "Frankfurt"}},
		{"wrong colour", player(`,"routes":[["Paris","Frankfurt","red"]]`), []string{"no red route between Paris and Frankfurt", "there: orange, white"}},
		{"track held twice by one player", player(`,"routes":[["Paris","Frankfurt","white"],["Frankfurt","Paris","white"]]`),
			[]string{"route 2", "already held by this player"}},
		{"track held twice by two players", `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"]]},
			{"name":"B","routes":[["Paris","Frankfurt","white"]]}]}`, []string{`player "B", route 1`, `already held by "A"`}},
		{"every track of the colour held", `{"map":"marklin","players":[{"name":"A","routes":[["Düsseldorf","Köln","gray"]]},
			{"name":"B","routes":[["Düsseldorf","Köln","gray"]]},{"name":"C","routes":[["Düsseldorf","Köln","gray"]]},
			{"name":"D","routes":[["Düsseldorf","Köln","gray"]]}]}`, []string{`player "D"`, "every gray track between Düsseldorf and Köln is already held"}},
		{"one player, both tracks of a double route", `{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"],["Paris","Frankfurt","orange"]]},
			{"name":"B"},{"name":"C"},{"name":"D"}]}`, []string{`player "A" holds two tracks of the double route`, "only one"}},
		{"double route with three players", `{"map":"usa","players":[{"name":"A","routes":[["Boston","New York","red"]]},
			{"name":"B","routes":[["Boston","New York","yellow"]]},{"name":"C"}]}`,
			[]string{"game of 3 players", "only one track of a double route", `"A" and "B"`}},
		{"too many trains", `{"map":"usa","players":[{"name":"A","routes":[["Helena","Seattle","yellow"],["Helena","Duluth","orange"],
			["Duluth","Toronto","pink"],["Calgary","Winnipeg","white"],["El Paso","Houston","green"],["El Paso","Los Angeles","black"],
			["Miami","New Orleans","red"],["Portland","Salt Lake City","blue"]]}]}`, []string{"48 trains", "only 45"}},
		{"four stations", player(`,"stations":["Paris","Roma","Wien","Berlin"]`), []string{"4 stations", "only 3"}},
		{"two stations on a city, one player", player(`,"stations":["Paris","paris"]`), []string{"Paris already has a station (of this player)"}},
		{"two stations on a city, two players", `{"map":"europe","players":[{"name":"A","stations":["Roma"]},{"name":"B","stations":["Roma"]}]}`,
			[]string{`player "B", station`, `Roma already has a station (of "A")`}},
		{"stations without stations", `{"map":"usa","players":[{"name":"A","stations":["Denver"]}]}`, []string{"usa board has no stations"}},
		{"unknown station city", player(`,"stations":["Atlantis"]`), []string{`unknown city "Atlantis"`, "conductor maps -map europe"}},
		{"goods without goods", player(`,"goods":5`), []string{"europe board has no goods"}},
		{"negative goods", `{"map":"marklin","players":[{"name":"A","goods":-2}]}`, []string{"goods -2", "0 or more"}},
		{"ticket not on the board", player(`,"tickets":[["Paris","Dieppe"]]`), []string{"no ticket Paris – Dieppe", `["Paris", "Dieppe", points]`}},
		{"ticket shape", player(`,"tickets":[["Paris"]]`), []string{"ticket 1", `["city", "city", points]`}},
		{"ticket points not whole", player(`,"tickets":[["Paris","Moskva",2.5]]`), []string{"whole number", "2.5"}},
		{"ticket points zero", player(`,"tickets":[["Paris","Moskva",0]]`), []string{"whole number from 1"}},
		{"ticket points as text", player(`,"tickets":[["Paris","Moskva","five"]]`), []string{"whole number", `"five"`}},
		{"ticket to itself", player(`,"tickets":[["Paris","paris",3]]`), []string{"Paris twice"}},
		{"unknown face-up card", `{"map":"europe","face_up":["mauve"],"players":[{"name":"A"}]}`, []string{"face_up", `unknown card "mauve"`}},
		{"too many face-up cards", `{"map":"europe","face_up":["red","red","red","red","red","red"],"players":[{"name":"A"}]}`, []string{"6 cards", "shows 5"}},
		{"Märklin card on Europe", `{"map":"europe","face_up":["passenger"],"players":[{"name":"A"}]}`, []string{"no passenger cards"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(testkit.Catalog(), []byte(c.src))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	t.Run("ticket with several values", func(t *testing.T) {
		cat := deckWith(t)
		_, err := Parse(cat, []byte(Example))
		if err == nil || !strings.Contains(err.Error(), "worth 5 or 7") || !strings.Contains(err.Error(), `say which: ["Budapest", "Sofia", 5]`) {
			t.Fatalf("error %v", err)
		}
		src := strings.Replace(Example, `["Budapest","Sofia"]`, `["Budapest","Sofia",7]`, 1)
		pos, err := Parse(cat, []byte(src))
		if err != nil || pos.Players[0].Tickets[0].Points != 7 {
			t.Fatalf("explicit points: %v", err)
		}
	})
	t.Run("four players may share a double route", func(t *testing.T) {
		src := `{"map":"usa","players":[{"name":"A","routes":[["Boston","New York","red"]]},
			{"name":"B","routes":[["Boston","New York","yellow"]]},{"name":"C"},{"name":"D"}]}`
		if _, err := Parse(testkit.Catalog(), []byte(src)); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		Example,
		`{"map":"usa","players":[{"name":"A","routes":[["Seattle","Portland","gray"],["Portland","San Francisco","green"]],"tickets":[["Seattle","Los Angeles",9]]},{"name":"B"}]}`,
		`{"map":"marklin","face_up":["red","passenger"],"players":[{"name":"A","routes":[["Lindau","Österreich","pink"],["München","Österreich","red"]],"tickets":[["Frankfurt","Österreich"]],"goods":4}]}`,
		`{"map":"marklin","players":[{"name":"A","routes":[["Düsseldorf","Köln","gray"]]},{"name":"B","routes":[["Köln","Düsseldorf","gray"]]},{"name":"C"},{"name":"D"}]}`,
		`{"map":"europe","players":[{"name":"A","routes":[["Budapest","Sarajevo","pink"]],"stations":["Sarajevo","Sofia","Wien"],"tickets":[["Budapest","Sofia"],["Budapest","Athina",8]]},{"name":"B","routes":[["Sarajevo","Sofia","gray"]]}]}`,
		`{"map":"europe","players":[{"name":"A","routes":[["Paris","Frankfurt","white"],["Paris","Frankfurt","orange"]]}]}`,
		`{"map":"europe","players":[{"name":"A","stations":["Paris","Paris"]}]}`,
		`{"map":"europe","players":[{"name":"A","tickets":[["Paris","Moskva",1e300]]}]}`,
		`{"map":"usa","players":[{"name":"A","routes":[["","",""]],"tickets":[[null,null]]}]}`,
		`{"map":"","players":null}`,
		`[]`, `null`, `{`, ``,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		pos, err := Parse(testkit.Catalog(), src)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if n := len(pos.Players); n < 1 || n > engine.MaxPlayers {
			t.Fatalf("%d players accepted", n)
		}
		held := map[data.TrackID]bool{}
		for _, h := range pos.Players {
			for _, id := range h.Tracks {
				if held[id] {
					t.Fatalf("track %d held twice", id)
				}
				held[id] = true
			}
			if len(h.Stations) > pos.Board.Rules.Stations {
				t.Fatalf("%d stations accepted", len(h.Stations))
			}
		}
		fs := engine.Score(pos.Board, pos.Players)
		if len(fs.Ranking) != len(pos.Players) {
			t.Fatalf("ranking %v for %d players", fs.Ranking, len(pos.Players))
		}
	})
}

func ticket(t testing.TB, b *data.Board, a, c string, points int) engine.HeldTicket {
	t.Helper()
	return engine.HeldTicket{A: testkit.City(t, b, a), B: testkit.City(t, b, c), Points: points}
}

// --map fills in a position's missing "map", and refuses one that says
// another board.
func TestWithMap(t *testing.T) {
	src := []byte(`{"players":[{"name":"A"}]}`)
	got, err := WithMap(src, "usa")
	if err != nil {
		t.Fatal(err)
	}
	if pos, err := Parse(testkit.Catalog(), got); err != nil || pos.Board.ID != "usa" {
		t.Fatalf("filled in: %s: %v", got, err)
	}
	if same, err := WithMap([]byte(Example), "europe"); err != nil || string(same) != Example {
		t.Fatalf("the same board: %s %v", same, err)
	}
	if _, err := WithMap([]byte(Example), "usa"); err == nil || !strings.Contains(err.Error(), "europe board") {
		t.Fatalf("another board: %v", err)
	}
	if _, err := WithMap([]byte(`{`), "usa"); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Fatalf("not JSON: %v", err)
	}
	if kept, err := WithMap(src, ""); err != nil || string(kept) != string(src) {
		t.Fatal("no --map changed the position")
	}
}
