package present

import (
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// TestEditionNames: every board and variant has its name in every
// language, as the boxes print them.
func TestEditionNames(t *testing.T) {
	europe, usa, marklin := testkit.Board(t, "europe"), testkit.Board(t, "usa"), testkit.Board(t, "marklin")
	for _, c := range []struct {
		lang    string
		b       *data.Board
		variant string
		want    string
	}{
		{"fr", europe, "", "Les Aventuriers du Rail — Europe"},
		{"fr", europe, "classic", "Les Aventuriers du Rail — Europe"},
		{"fr", usa, "base", "Les Aventuriers du Rail — USA"},
		{"de", marklin, "standard", "Zug um Zug — Märklin"},
		{"de", europe, "1912", "Zug um Zug — Europa · Europa 1912"},
		{"it", europe, "bigcities", "Ticket to Ride — Europa · Grandi Città d'Europa"},
		{"en", usa, "1910", "Ticket to Ride — USA · USA 1910"},
		{"en-GB", europe, "mega", "Ticket to Ride — Europe · Mega Europe"},
	} {
		if got := EditionName(c.lang, c.b, c.variant); got != c.want {
			t.Errorf("EditionName(%s, %s, %q) = %q, want %q", c.lang, c.b.ID, c.variant, got, c.want)
		}
	}
	for _, b := range []*data.Board{europe, usa, marklin} {
		for _, lang := range Languages {
			for _, key := range []string{"edition." + b.ID} {
				if _, ok := Lookup(lang, key); !ok {
					t.Errorf("%s lacks %q", lang, key)
				}
			}
			for _, v := range b.Variants {
				if _, ok := Lookup(lang, "variant."+b.ID+"."+v.ID); !ok {
					t.Errorf("%s lacks %q", lang, "variant."+b.ID+"."+v.ID)
				}
			}
		}
	}
	// A board the catalogues do not know keeps its data's names.
	other := *usa
	other.ID, other.Name = "moon", "Ticket to Ride — Moon"
	if got := EditionName("fr", &other, "1910"); got != "Ticket to Ride — Moon · "+usa.Variants[1].Name {
		t.Errorf("unknown board: %q", got)
	}
}

// TestBoardSceneNamesTheEdition: the board picture's title is the
// edition in the table's language, with the variant.
func TestBoardSceneNamesTheEdition(t *testing.T) {
	g, err := engine.New(engine.Config{Board: testkit.Board(t, "europe"), Variant: "1912", Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	v := g.Public()
	sc := BoardScene("fr", &v, []Player{{Name: "A"}, {Name: "B"}}, "")
	if want := "Les Aventuriers du Rail — Europe · Europe 1912"; sc.Title != want {
		t.Errorf("title %q, want %q", sc.Title, want)
	}
	if sc.DeckSize != v.Deck || sc.DeckSize != DeckCount(&v) {
		t.Errorf("picture deck %d, view deck %d", sc.DeckSize, v.Deck)
	}
}
