package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// refusalSite is one g.refuse call as written in the engine's source.
type refusalSite struct {
	pos     string
	key     string
	english string
	names   []string
}

var placeholderRE = regexp.MustCompile(`\{([a-z_]+)\}`)

// refusalSites reads every refuse call of the engine's non-test files; a
// call whose key, message or argument names are not literals is reported.
func refusalSites(t *testing.T) []refusalSite {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var sites []refusalSite
	literal := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "Error" && name != "errors.go" {
					t.Errorf("%s: an Error built by hand; use refuse so that it has a key", fset.Position(n.Pos()))
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "refuse" {
					return true
				}
				pos := fset.Position(n.Pos()).String()
				if len(n.Args) < 3 || len(n.Args)%2 == 0 {
					t.Errorf("%s: refuse wants a code, a key, a message and name/value pairs", pos)
					return true
				}
				s := refusalSite{pos: pos}
				var ok1, ok2 bool
				s.key, ok1 = literal(n.Args[1])
				s.english, ok2 = literal(n.Args[2])
				if !ok1 || !ok2 {
					t.Errorf("%s: the key and the message must be string literals", pos)
					return true
				}
				for i := 3; i < len(n.Args); i += 2 {
					name, ok := literal(n.Args[i])
					if !ok {
						t.Errorf("%s: argument %d's name must be a string literal", pos, (i-3)/2+1)
					}
					s.names = append(s.names, name)
				}
				sites = append(sites, s)
			}
			return true
		})
	}
	return sites
}

// TestRefusalsAreTranslatable checks every refusal for what a translation
// needs: a stable key, one message per key, and placeholders matching the
// arguments given.
func TestRefusalsAreTranslatable(t *testing.T) {
	sites := refusalSites(t)
	if len(sites) < 60 {
		t.Fatalf("found %d refuse calls; the engine has more (is the scan broken?)", len(sites))
	}
	keyRE := regexp.MustCompile(`^[a-z0-9_]+\.[a-z0-9_]+$`)
	byKey := map[string]refusalSite{}
	for _, s := range sites {
		if !keyRE.MatchString(s.key) {
			t.Errorf("%s: key %q is not area.what", s.pos, s.key)
		}
		if strings.HasPrefix(s.key, "part.") {
			t.Errorf("%s: key %q: part.* is for the pieces callers render arguments with", s.pos, s.key)
		}
		if other, ok := byKey[s.key]; ok && other.english != s.english {
			t.Errorf("%s and %s: key %q has two messages:\n%q\n%q", s.pos, other.pos, s.key, s.english, other.english)
		}
		byKey[s.key] = s
		var used []string
		for _, m := range placeholderRE.FindAllStringSubmatch(s.english, -1) {
			if !slices.Contains(used, m[1]) {
				used = append(used, m[1])
			}
		}
		names := slices.Clone(s.names)
		slices.Sort(used)
		slices.Sort(names)
		if !slices.Equal(used, names) {
			t.Errorf("%s: %q uses placeholders %v but is given %v", s.pos, s.key, used, names)
		}
	}
}

func TestRefusalCarriesKeyAndTypedArgs(t *testing.T) {
	g := started(t, "europe", "classic", 3)
	b := g.board
	paris := testkit.Track(t, b, "Paris", "Frankfurt", data.White)
	hand(g, 0, map[Card]int{ColorCard(data.White): 3})
	mustPlay(t, g, 0, Claim(paris, data.White, 0))

	// Taken: the route and the seat holding it.
	hand(g, 1, map[Card]int{ColorCard(data.White): 3})
	e := refused(t, g, 1, Claim(paris, data.White, 0), ErrNotAvailable)
	want := []Arg{{"route", paris}, {"player", Seat(0)}}
	if e.Key != "claim.taken" || !reflect.DeepEqual(e.Args, want) {
		t.Fatalf("key %q args %#v, want claim.taken %#v", e.Key, e.Args, want)
	}
	if w := "Frankfurt – Paris (white, 3) is already claimed by player 1"; e.Msg != w {
		t.Fatalf("message %q, want %q", e.Msg, w)
	}

	// Not affordable: what is needed and what is held, as values.
	gray := testkit.Track(t, b, "Paris", "Bruxelles", data.Yellow)
	hand(g, 1, map[Card]int{ColorCard(data.Red): 1, ColorCard(data.Yellow): 1, Locomotive: 1})
	e = refused(t, g, 1, Claim(gray, data.Yellow, 0), ErrCannotAfford)
	wantArgs := []Arg{
		{"what", gray},
		{"need", CardsNeeded{Count: 2, Color: data.Yellow}},
		{"held", CardsHeld{Color: data.Yellow, Count: 1, Locos: 1}},
	}
	if e.Key != "pay.short" || !reflect.DeepEqual(e.Args, wantArgs) {
		t.Fatalf("key %q args %#v, want pay.short %#v", e.Key, e.Args, wantArgs)
	}
	if w := "Bruxelles – Paris (yellow, 2) needs 2 yellow cards; you have 1 yellow and 1 locomotive"; e.Msg != w {
		t.Fatalf("message %q, want %q", e.Msg, w)
	}

	// A station: its site, and the seat of the station already there.
	wien := testkit.City(t, b, "Wien")
	hand(g, 1, map[Card]int{ColorCard(data.Red): 1})
	mustPlay(t, g, 1, Action{Kind: ActStation, City: wien, Color: data.Red})
	hand(g, 2, map[Card]int{ColorCard(data.Red): 1})
	e = refused(t, g, 2, Action{Kind: ActStation, City: wien, Color: data.Red}, ErrNotAvailable)
	if w := "Wien already has a station (player 2's): choose a city without one"; e.Key != "station.taken" || e.Msg != w {
		t.Fatalf("key %q message %q, want station.taken %q", e.Key, e.Msg, w)
	}
	if !reflect.DeepEqual(e.Args, []Arg{{"city", wien}, {"player", Seat(1)}}) {
		t.Fatalf("args %#v", e.Args)
	}
	hand(g, 2, map[Card]int{Locomotive: 2})
	e = refused(t, g, 2, Action{Kind: ActStation, City: testkit.City(t, b, "Roma"), Color: data.Red, Locos: 2}, ErrBadAction)
	site := StationSite{City: testkit.City(t, b, "Roma"), Number: 1}
	if e.Key != "pay.too_many_wild" || !reflect.DeepEqual(e.Args[0], Arg{"what", site}) {
		t.Fatalf("key %q args %#v", e.Key, e.Args)
	}
	if w := "too many wild cards (2): a station in Roma (your station number 1) costs only 1"; e.Msg != w {
		t.Fatalf("message %q, want %q", e.Msg, w)
	}

	// Not your turn names the seat playing.
	e = refused(t, g, 0, Draw(DeckSlot), ErrNotYourTurn)
	if e.Key != "turn.other" || !reflect.DeepEqual(e.Args, []Arg{{"player", Seat(2)}}) || e.Msg != "it is not your turn: player 3 is playing" {
		t.Fatalf("key %q args %#v message %q", e.Key, e.Args, e.Msg)
	}
}

func TestRefusalEnglishOfComposites(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{CardsNeeded{Count: 3, Color: data.White}.English(), "3 white cards"},
		{CardsNeeded{Count: 1, Color: data.Gray}.English(), "1 card of one colour"},
		{CardsNeeded{Locos: 2, Count: 4, Color: data.Gray}.English(), "2 locomotives and 4 cards of one colour"},
		{CardsNeeded{Locos: 1}.English(), "1 locomotive"},
		{CardsHeld{Color: data.White, Count: 1, Locos: 1}.English(), "1 white and 1 locomotive"},
		{CardsHeld{Color: data.Red, Count: 2, Best: true, Locos4: 1, ShowLocos4: true}.English(),
			"at most 2 of one colour (red) and 0 locomotives and 1 locomotive+4"},
		{CardsHeld{Color: data.Gray, Locos: 2}.English(), "2 locomotives"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestFillMessage(t *testing.T) {
	args := []Arg{{"a", 1}, {"b", "two"}}
	show := func(v any) string {
		if n, ok := v.(int); ok {
			return strconv.Itoa(n * 10)
		}
		return strings.ToUpper(v.(string))
	}
	for template, want := range map[string]string{
		"{a} and {b}, {a} again": "10 and TWO, 10 again",
		"no placeholders":        "no placeholders",
		"{unknown} stays, {b}":   "{unknown} stays, TWO",
		"unclosed {a":            "unclosed {a",
		"{a}{b}":                 "10TWO",
	} {
		if got := FillMessage(template, args, show); got != want {
			t.Errorf("FillMessage(%q) = %q, want %q", template, got, want)
		}
	}
}

func TestRefusalPassengerCities(t *testing.T) {
	g := started(t, "marklin", "", 2)
	b := g.board
	from := testkit.City(t, b, "Berlin")
	e := refused(t, g, 0, Action{Kind: ActMovePassenger, City: from, Path: []data.TrackID{0}}, ErrBadAction)
	if e.Key != "passenger.none_placed" {
		t.Fatalf("key %q (%s), want passenger.none_placed", e.Key, e.Msg)
	}
	g.passenger[testkit.City(t, b, "Hamburg")] = 0
	g.passenger[testkit.City(t, b, "Bremen")] = 0
	e = refused(t, g, 0, Action{Kind: ActMovePassenger, City: from, Path: []data.TrackID{0}}, ErrBadAction)
	if e.Key != "passenger.not_there" || !strings.Contains(e.Msg, "Bremen") || !strings.Contains(e.Msg, "Hamburg") {
		t.Fatalf("key %q message %q", e.Key, e.Msg)
	}
	if cities, ok := e.Args[0].Value.([]data.CityID); !ok || len(cities) != 2 {
		t.Fatalf("args %#v: want the two cities as []data.CityID", e.Args)
	}
}
