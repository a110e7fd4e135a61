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
	pos   string
	key   string
	names []string
}

// refusalSites reads every refuse call of the engine's non-test files; a
// call whose key or argument names are not literals is reported.
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
				if len(n.Args) < 2 || len(n.Args)%2 != 0 {
					t.Errorf("%s: refuse wants a code, a key and name/value pairs", pos)
					return true
				}
				s := refusalSite{pos: pos}
				var lit bool
				if s.key, lit = literal(n.Args[1]); !lit {
					t.Errorf("%s: the key must be a string literal", pos)
					return true
				}
				for i := 2; i < len(n.Args); i += 2 {
					name, ok := literal(n.Args[i])
					if !ok {
						t.Errorf("%s: argument %d's name must be a string literal", pos, (i-2)/2+1)
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
// needs: a stable key, and the same argument names wherever a key is used
// (the catalogues' tests check that each key has a message using them).
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
		names := slices.Clone(s.names)
		slices.Sort(names)
		if len(slices.Compact(slices.Clone(names))) != len(names) {
			t.Errorf("%s: %q names an argument twice: %v", s.pos, s.key, s.names)
		}
		if other, ok := byKey[s.key]; ok {
			was := slices.Clone(other.names)
			slices.Sort(was)
			if !slices.Equal(was, names) {
				t.Errorf("%s and %s: key %q has arguments %v and %v", s.pos, other.pos, s.key, s.names, other.names)
			}
		}
		byKey[s.key] = s
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

	// A station: its site, and the seat of the station already there.
	wien := testkit.City(t, b, "Wien")
	hand(g, 1, map[Card]int{ColorCard(data.Red): 1})
	mustPlay(t, g, 1, Action{Kind: ActStation, City: wien, Color: data.Red})
	hand(g, 2, map[Card]int{ColorCard(data.Red): 1})
	e = refused(t, g, 2, Action{Kind: ActStation, City: wien, Color: data.Red}, ErrNotAvailable)
	wantRefusal(t, e, "station.taken", Arg{"city", wien}, Arg{"player", Seat(1)})
	hand(g, 2, map[Card]int{Locomotive: 2})
	e = refused(t, g, 2, Action{Kind: ActStation, City: testkit.City(t, b, "Roma"), Color: data.Red, Locos: 2}, ErrBadAction)
	site := StationSite{City: testkit.City(t, b, "Roma"), Number: 1}
	if e.Key != "pay.too_many_wild" || !reflect.DeepEqual(e.Args[0], Arg{"what", site}) {
		t.Fatalf("key %q args %#v", e.Key, e.Args)
	}

	// Not your turn names the seat playing.
	e = refused(t, g, 0, Draw(DeckSlot), ErrNotYourTurn)
	wantRefusal(t, e, "turn.other", Arg{"player", Seat(2)})
	if got, want := e.Error(), "refused turn.other: player=2"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestRefusalPassengerCities(t *testing.T) {
	g := started(t, "marklin", "", 2)
	b := g.board
	from := testkit.City(t, b, "Berlin")
	e := refused(t, g, 0, Action{Kind: ActMovePassenger, City: from, Path: []data.TrackID{0}}, ErrBadAction)
	if e.Key != "passenger.none_placed" {
		t.Fatalf("refusal %v, want passenger.none_placed", e)
	}
	g.passenger[testkit.City(t, b, "Hamburg")] = 0
	g.passenger[testkit.City(t, b, "Bremen")] = 0
	e = refused(t, g, 0, Action{Kind: ActMovePassenger, City: from, Path: []data.TrackID{0}}, ErrBadAction)
	if e.Key != "passenger.not_there" {
		t.Fatalf("refusal %v, want passenger.not_there", e)
	}
	cities, ok := e.Args[0].Value.([]data.CityID)
	slices.Sort(cities)
	want := []data.CityID{testkit.City(t, b, "Bremen"), testkit.City(t, b, "Hamburg")}
	slices.Sort(want)
	if !ok || !slices.Equal(cities, want) {
		t.Fatalf("args %#v: want Bremen and Hamburg as []data.CityID", e.Args)
	}
}
