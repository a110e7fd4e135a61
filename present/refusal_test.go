package present

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// engineRefusals reads the engine's source for its refusals: key -> the
// names of the arguments each g.refuse(code, key, name, value, …) call
// gives.
func engineRefusals(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("../engine/*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "refuse" || len(call.Args) < 2 {
				return true
			}
			key, err := stringLiteral(call.Args[1])
			if err != nil {
				t.Errorf("%s: refuse without a literal key", fset.Position(call.Pos()))
				return true
			}
			names := []string{}
			for i := 2; i < len(call.Args); i += 2 {
				name, err := stringLiteral(call.Args[i])
				if err != nil {
					t.Errorf("%s: refuse with an argument name that is not a literal", fset.Position(call.Pos()))
					return true
				}
				names = append(names, "{"+name+"}")
			}
			slices.Sort(names)
			out[key] = names
			return true
		})
	}
	if len(out) < 50 {
		t.Fatalf("found %d refusal keys in ../engine; the scan is broken", len(out))
	}
	return out
}

func stringLiteral(e ast.Expr) (string, error) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", strconv.ErrSyntax
	}
	return strconv.Unquote(lit.Value)
}

// TestEveryRefusalHasAMessage: each engine refusal has an "engine.<key>"
// message in English (and so, by the catalogue tests, in every language)
// using exactly the arguments the engine gives; the catalogue has no
// engine.* message nothing uses.
func TestEveryRefusalHasAMessage(t *testing.T) {
	en := readCatalog(t, "en")
	refusals := engineRefusals(t)
	for key, names := range refusals {
		msg, ok := en["engine."+key]
		if !ok {
			t.Errorf("en.json has no %q for the engine's refusal", "engine."+key)
			continue
		}
		if got := msg.placeholders(); !slices.Equal(got, names) {
			t.Errorf("en.json %q: placeholders %v, the engine gives %v", "engine."+key, got, names)
		}
	}
	var src []byte
	for _, name := range []string{"refusal.go", "labels.go"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	for key := range en {
		rest, ok := strings.CutPrefix(key, "engine.")
		if !ok {
			continue
		}
		if strings.HasPrefix(rest, "part.") {
			if !strings.Contains(string(src), strconv.Quote(key)) {
				t.Errorf("en.json %q: neither refusal.go nor labels.go uses it", key)
			}
			continue
		}
		if _, ok := refusals[rest]; !ok {
			t.Errorf("en.json %q: the engine has no such refusal", key)
		}
	}
}

// seatNames names seats as a table does.
func seatNames(seat int) string { return []string{"Alice", "Bruno", "Chiara"}[seat] }

// englishLeftovers are words of the English messages that no translation
// should show.
var englishLeftovers = regexp.MustCompile(`\b(needs|you have|player|claimed|already|cards|station|white|locomotives|one colour|is|the)\b`)

// newEuropeGame is a 3-player Europe game past the ticket choice.
func newEuropeGame(t *testing.T) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Config{Board: testkit.Board(t, "europe"), Players: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for g.Phase() == engine.PhaseSetup {
		s := g.ToAct()
		lo, _ := g.KeepRange(s)
		keep := make([]int, lo)
		for i := range keep {
			keep[i] = i
		}
		if err := g.Play(s, engine.KeepTickets(keep...)); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// refusalOf plays a and returns the refusal it must get.
func refusalOf(t *testing.T, g *engine.Game, seat int, a engine.Action) *engine.Error {
	t.Helper()
	err := g.Clone().Play(seat, a)
	e, ok := err.(*engine.Error)
	if !ok {
		t.Fatalf("%+v by seat %d: %v, want a refusal", a, seat, err)
	}
	return e
}

// TestRefusalsInEveryLanguage renders real refusals of a game and checks
// that each language says it all in its own words, with the table's names.
func TestRefusalsInEveryLanguage(t *testing.T) {
	g := newEuropeGame(t)
	b := g.Board()
	// Alice claims a route she can pay for; find one the way a player would.
	var claimed data.TrackID = -1
	for id := range b.Tracks {
		for _, c := range data.CardColors {
			a := engine.Claim(data.TrackID(id), c, 0)
			if claimed < 0 && g.Clone().Play(0, a) == nil {
				claimed = data.TrackID(id)
				if err := g.Play(0, a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if claimed < 0 {
		t.Fatal("seat 0 can claim nothing with its first hand; pick another seed")
	}
	tr := &b.Tracks[claimed]
	long := testkit.Track(t, b, "Kyiv", "Smolensk", data.Red) // 3 red cards: more than a first hand
	if g.Player(1).Hand[engine.ColorCard(data.Red)] >= 3 {
		t.Fatal("seat 1 holds 3 red cards; pick another seed")
	}
	cases := []struct {
		name  string
		err   *engine.Error
		key   string
		wants map[string][]string // language -> fragments the message must show
	}{
		{"taken", refusalOf(t, g, 1, engine.Claim(claimed, tr.Color, 0)), "claim.taken", map[string][]string{
			"en": {"Alice", b.TrackName(claimed)}, "fr": {"Alice", "déjà prise", T("fr", "card."+tr.Color.String())},
			"it": {"Alice", "già controllata"}, "de": {"Alice", "gebaut"}}},
		{"turn", refusalOf(t, g, 0, engine.Draw(engine.DeckSlot)), "turn.other", map[string][]string{
			"en": {"Bruno"}, "fr": {"Bruno"}, "it": {"Bruno"}, "de": {"Bruno"}}},
		{"short", refusalOf(t, g, 1, engine.Claim(long, data.Red, 0)), "pay.short", map[string][]string{
			"en": {"Kyiv", "3× 🟥 red"}, "fr": {"3× 🟥 rouge", "vous avez", "× 🌈 locomotive"},
			"it": {"3× 🟥 rosso", "locomotiva", "hai"}, "de": {"3× 🟥 rot", "Lokomotive", "du hast"}}},
	}
	for _, c := range cases {
		if c.err.Key != c.key {
			t.Errorf("%s: refusal %v, want key %q", c.name, c.err, c.key)
			continue
		}
		for lang, wants := range c.wants {
			got := Refusal(lang, c.err, b, seatNames)
			for _, w := range wants {
				if !strings.Contains(got, w) {
					t.Errorf("%s in %s: %q lacks %q", c.name, lang, got, w)
				}
			}
			if lang != "en" {
				if m := englishLeftovers.FindString(got); m != "" {
					t.Errorf("%s in %s: %q still says %q", c.name, lang, got, m)
				}
			}
			if strings.Contains(got, "{") || strings.Contains(got, "player ") {
				t.Errorf("%s in %s: %q has an unfilled placeholder or a seat number", c.name, lang, got)
			}
		}
	}
}

// TestRefusalValuesRendered shows each kind of value a refusal carries, in
// French, exactly.
func TestRefusalValuesRendered(t *testing.T) {
	b := testkit.Board(t, "europe")
	roma, wien := testkit.City(t, b, "Roma"), testkit.City(t, b, "Wien")
	ferry := testkit.Track(t, b, "Palermo", "Smyrna", data.Gray)
	tunnel := testkit.Track(t, b, "Marseille", "Zurich", data.Pink)
	for _, c := range []struct {
		err  engine.Error
		want string
	}{
		{engine.Error{Key: "pay.short", Args: []engine.Arg{
			{Name: "what", Value: ferry},
			{Name: "need", Value: engine.CardsNeeded{Locos: 2, Count: 4, Color: data.Gray}},
			{Name: "held", Value: engine.CardsHeld{Color: data.Blue, Count: 3, Best: true, Locos: 1}}}},
			"Palermo – Smyrna (gris 6 Ferry) demande 2× 🌈 locomotive + 4× même couleur\u202f; vous avez au plus 3 d'une même couleur (🟦 bleu), 1× 🌈 locomotive."},
		{engine.Error{Key: "pay.short", Args: []engine.Arg{
			{Name: "what", Value: engine.StationSite{City: roma, Number: 2}},
			{Name: "need", Value: engine.CardsNeeded{Count: 2, Color: data.Gray}},
			{Name: "held", Value: engine.CardsHeld{Color: data.Red, Count: 1, Best: true, Locos: 0}}}},
			"Une Gare à Roma (votre Gare numéro 2) demande 2× même couleur\u202f; vous avez au plus 1 d'une même couleur (🟥 rouge), 0× 🌈 locomotive."},
		{engine.Error{Key: "tunnel.short", Args: []engine.Arg{
			{Name: "extra", Value: 2}, {Name: "colour", Value: data.Pink},
			{Name: "held", Value: engine.CardsHeld{Color: data.Pink, Count: 1, Locos: 0}}}},
			"Le Tunnel demande des cartes supplémentaires (2), chacune en 🟪 violet ou Locomotive\u202f; en plus des cartes jouées, vous avez 1× 🟪 violet, 0× 🌈 locomotive\u00a0: abandonnez plutôt."},
		{engine.Error{Key: "pay.locos4_short", Args: []engine.Arg{
			{Name: "min", Value: 4}, {Name: "what", Value: tunnel}, {Name: "length", Value: 2}, {Name: "colour", Value: data.Gray}}},
			"Les cartes Locomotive +4 ne paient que des Routes de 4 espaces ou plus\u202f; Marseille – Zurich (violet 2 Tunnel) en a 2\u00a0: payez avec des Locomotives ou en une seule couleur."},
		{engine.Error{Key: "passenger.not_there", Args: []engine.Arg{{Name: "cities", Value: []data.CityID{wien, roma}}}},
			"Vous n'avez pas de passager là\u00a0: vos passagers se trouvent à Wien, Roma."},
		{engine.Error{Key: "station.taken", Args: []engine.Arg{{Name: "city", Value: wien}, {Name: "player", Value: engine.Seat(2)}}},
			"Wien a déjà une Gare, construite par Chiara\u00a0: choisissez une ville sans Gare."},
		{engine.Error{Key: "pay.short", Args: []engine.Arg{
			{Name: "what", Value: tunnel},
			{Name: "need", Value: engine.CardsNeeded{Count: 2, Color: data.Pink}},
			{Name: "held", Value: engine.CardsHeld{Color: data.Pink, Count: 0, Locos: 1, Locos4: 2, ShowLocos4: true}}}},
			"Marseille – Zurich (violet 2 Tunnel) demande 2× 🟪 violet\u202f; vous avez 0× 🟪 violet, 1× 🌈 locomotive, 2× 🚆 locomotive +4."},
	} {
		if got := Refusal("fr", &c.err, b, seatNames); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.err.Key, got, c.want)
		}
	}
}

func TestRefusalWithoutMessageGivesItsKind(t *testing.T) {
	b := testkit.Board(t, "europe")
	e := &engine.Error{Code: engine.ErrNotAllowed, Key: "no.such_key"}
	for _, lang := range Languages {
		if got, want := Refusal(lang, e, b, seatNames), T(lang, "refused.allowed"); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

func TestFill(t *testing.T) {
	value := func(name string) (string, bool) {
		switch name {
		case "a":
			return "10", true
		case "b":
			return "TWO", true
		}
		return "", false
	}
	for template, want := range map[string]string{
		"{a} and {b}, {a} again": "10 and TWO, 10 again",
		"no placeholders":        "no placeholders",
		"{unknown} stays, {b}":   "{unknown} stays, TWO",
		"unclosed {a":            "unclosed {a",
		"{a}{b}":                 "10TWO",
	} {
		if got := fill(template, value); got != want {
			t.Errorf("fill(%q) = %q, want %q", template, got, want)
		}
	}
}
