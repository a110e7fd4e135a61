package present

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
)

// TestPictureWordsCanBeDrawn: every message of every catalogue, as a
// picture shows it (plainText), and every city, country and edition name
// is made of characters the pictures' fonts have (é, ß, «», —, …): a
// character without a glyph would silently vanish from the picture.
func TestPictureWordsCanBeDrawn(t *testing.T) {
	checked := 0
	check := func(what, s string) {
		checked++
		if miss := imaging.MissingGlyphs(s); len(miss) > 0 {
			t.Errorf("%s: the pictures' fonts cannot draw %q in %q", what, string(miss), s)
		}
	}
	for _, lang := range Languages {
		for key, m := range catalogs[lang].messages {
			for _, n := range agreementCounts {
				var kv []any
				for _, p := range m.placeholders() {
					kv = append(kv, strings.Trim(p, "{}"), n)
				}
				check(lang+" "+key, plainText(T(lang, key, kv...)))
			}
		}
	}
	for _, b := range testkit.Catalog().Boards() {
		check(b.ID, b.Name)
		for _, c := range b.Cities {
			check(b.ID, c.Name)
		}
	}
	if checked < 4*400 {
		t.Fatalf("only %d texts checked", checked)
	}
}

// lateGame replays a recorded game to the move that announces the last
// round, and returns the game then and at the end (its final count).
func lateGame(t *testing.T, name string) (late engine.PlayerView, latePublic, end engine.PublicView, fs *engine.FinalScore) {
	t.Helper()
	rec := recorded.Load(t, name)
	taken := false
	g, err := rec.Replay(testkit.Catalog(), func(g *engine.Game, _ engine.Move, ev []engine.Event) {
		for _, e := range ev {
			if e.Kind == engine.EvLastRound && !taken {
				taken = true
				late, latePublic = g.View(0), g.Public()
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !taken {
		t.Fatalf("%s never announces the last round", name)
	}
	return late, latePublic, g.Public(), g.Final()
}

// sceneWords lists every string a scene holds with its path ("Players[1].
// Pieces"), except the names players chose and the board's city names,
// which no language changes.
func sceneWords(v any) map[string]string {
	out := map[string]string{}
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() && v.Type().Elem().PkgPath() == reflect.TypeOf(imaging.Scene{}).PkgPath() {
				walk(path, v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Type().Field(i)
				switch f.Name {
				case "Name", "From", "To":
					if f.Type.Kind() == reflect.String && v.Type() != reflect.TypeOf(imaging.Bonus{}) {
						continue
					}
				}
				walk(path+"."+f.Name, v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case reflect.String:
			if v.String() != "" {
				out[path] = v.String()
			}
		}
	}
	walk("", reflect.ValueOf(v))
	return out
}

// sameWordsAllowed reports whether text s of a lang scene may read as in
// English: it holds a word the catalogue tests allow to be the same
// (the rulebook's "European Express", "Routes", "BOT").
func sameWordsAllowed(lang, s string) bool {
	for key := range sameAsEnglish[lang] {
		if w := T(lang, key); w != "" && strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// TestPicturesSpeakTheTablesLanguage: the words of the board, the hand
// and the score sheet pictures of a French, Italian or German table are
// all in that language: no text of the English pictures is left, but for
// the names the rulebooks print alike.
func TestPicturesSpeakTheTablesLanguage(t *testing.T) {
	for _, game := range []string{"europe-stations", "marklin-bots", "usa-base-bots"} {
		late, public, end, fs := lateGame(t, game)
		names := []string{"Alice", "Bruno", "Chloé", "Dmitri", "Eve"}[:len(public.Players)]
		players := make([]Player, len(names))
		for i, n := range names {
			players[i] = Player{Name: n, Bot: i == len(names)-1, Level: "hard"}
		}
		// A seat a bot took over, and a sheet ended early: every word.
		players[0] = Player{Name: "Alice", Bot: true, Level: "normal", For: "Alice"}
		scenes := func(lang string) map[string]any {
			line := T(lang, "ev.pass", "player", "**Alice**")
			return map[string]any{
				"board": BoardScene(lang, &public, players, line),
				"hand":  HandScene(lang, &late, "Alice"),
				"final": FinalScene(lang, &end, fs, players, true),
			}
		}
		english := scenes("en")
		for _, lang := range translatedLanguages {
			for what, sc := range scenes(lang) {
				words, en := sceneWords(sc), sceneWords(english[what])
				if len(words) < 5 {
					t.Fatalf("%s %s %s: only %d texts %v", game, lang, what, len(words), words)
				}
				for path, s := range words {
					if s == en[path] && !sameWordsAllowed(lang, s) {
						t.Errorf("%s %s %s picture: %s is still English: %q", game, lang, what, path, s)
					}
					if left := EnglishIn(lang, s); len(left) > 0 {
						t.Errorf("%s %s %s picture: %s holds English %q: %q", game, lang, what, path, left, s)
					}
				}
				// The letters on cards and tracks are the language's.
				if sc, ok := sc.(*imaging.Scene); ok {
					for c := engine.Card(1); c < engine.NumCards; c++ {
						if want := T(lang, "letter."+c.String()); sc.Letters[c] != want {
							t.Errorf("%s %s: the letter of %s is %q, want %q", game, lang, c, sc.Letters[c], want)
						}
					}
				}
			}
		}
	}
}

// TestPictureWordsFilled: every word the pictures need is given, in every
// language; an empty heading or legend would leave a hole in the picture.
func TestPictureWordsFilled(t *testing.T) {
	late, public, end, fs := lateGame(t, "europe-stations")
	names := []string{"A", "B", "C", "D"}
	for _, lang := range Languages {
		sc := BoardScene(lang, &public, []Player{{Name: "A"}, {Name: "B"}, {Name: "C"}, {Name: "D", Bot: true}}, "x")
		hs := HandScene(lang, &late, "A")
		fsc := FinalScene(lang, &end, fs, namedPlayers(names...), true)
		for what, v := range map[string]any{"board panel": sc.Text, "hand": hs.Text, "final": fsc.Text} {
			rv := reflect.ValueOf(v)
			for i := range rv.NumField() {
				f := rv.Type().Field(i)
				if f.Name == "More" { // only when the tickets overflow
					continue
				}
				if rv.Field(i).IsZero() {
					t.Errorf("%s %s: %s is empty", lang, what, f.Name)
				}
			}
		}
		for _, p := range sc.Players {
			if p.Pieces == "" || p.Holding == "" {
				t.Errorf("%s: %s's panel lines are empty", lang, p.Name)
			}
		}
		if len(sc.Text.Legend) != 9 {
			t.Errorf("%s: the Europe legend has %d letters, want 9 (8 colours and the locomotive): %v", lang, len(sc.Text.Legend), sc.Text.Legend)
		}
	}
}

// TestPanelCountsAgree: the panel's lines say each count with the form its
// number takes, in every language ("1 train", "2 trains"; "1 wagon"; "0
// Gare" in French, whose singular covers 0 and 1).
func TestPanelCountsAgree(t *testing.T) {
	b := testkit.Board(t, "europe")
	for _, lang := range Languages {
		for _, n := range agreementCounts {
			p := playerPanel(lang, b, "A", 0, false, engine.PublicPlayer{Trains: n, Stations: n, Cards: n, Tickets: n})
			for _, key := range []string{"picture.trains", "picture.stations"} {
				if want := T(lang, key, "n", n); !strings.Contains(p.Pieces, want) {
					t.Errorf("%s: %q lacks %q", lang, p.Pieces, want)
				}
			}
			for _, key := range []string{"picture.cards", "picture.tickets"} {
				if want := T(lang, key, "n", n); !strings.Contains(p.Holding, want) {
					t.Errorf("%s: %q lacks %q", lang, p.Holding, want)
				}
			}
		}
	}
	if got := T("fr", "picture.trains", "n", 0); got != "0 wagon" {
		t.Errorf("French 0 trains: %q, want the singular", got)
	}
	if got := T("en", "picture.trains", "n", 1); got != "1 train" {
		t.Errorf("English 1 train: %q", got)
	}
}

// TestHandListsWhatFits: a hand with more tickets than the picture lists
// shows as many as fit and says how many more there are.
func TestHandListsWhatFits(t *testing.T) {
	late, _, _, _ := lateGame(t, "europe-stations")
	fit := imaging.HandTickets(late.Board)
	if fit < 10 {
		t.Fatalf("the hand picture lists only %d tickets", fit)
	}
	v := late
	v.Tickets = nil
	for i := range fit + 3 {
		v.Tickets = append(v.Tickets, engine.TicketStatus{Ticket: late.Board.Tickets[i].ID})
	}
	hs := HandScene("de", &v, "A")
	if len(hs.Tickets) != fit || hs.Text.More != T("de", "picture.hand.more", "n", 3) {
		t.Errorf("%d tickets listed (want %d), then %q", len(hs.Tickets), fit, hs.Text.More)
	}
	v.Tickets = v.Tickets[:fit]
	if hs := HandScene("de", &v, "A"); len(hs.Tickets) != fit || hs.Text.More != "" {
		t.Errorf("a hand that fits: %d tickets listed, then %q", len(hs.Tickets), hs.Text.More)
	}
}

// TestFinalSheetAsTheBoard: the score sheet names the game as the board
// did (edition and variant), shows its stations, and its ranking speaks
// of the edition's own bonus: the longest path (outlined on the map)
// where there is one, the tickets completed in Märklin.
func TestFinalSheetAsTheBoard(t *testing.T) {
	for _, c := range []struct {
		game, title string
		paths       bool
	}{
		{"europe-stations", "Les Aventuriers du Rail — Europe · Europe 1912", true},
		{"marklin-bots", "Les Aventuriers du Rail — Märklin", false},
		{"usa-1910-bots", "Les Aventuriers du Rail — USA · USA 1910", true},
	} {
		_, public, end, fs := lateGame(t, c.game)
		names := []string{"A", "B", "C", "D", "E"}[:len(end.Players)]
		sc := FinalScene("fr", &end, fs, namedPlayers(names...), false)
		board := BoardScene("fr", &public, make([]Player, len(names)), "")
		if sc.Title != c.title || board.Title != c.title {
			t.Errorf("%s: sheet %q, board %q, want %q", c.game, sc.Title, board.Title, c.title)
		}
		if !slices.Equal(sc.Stations, end.Stations) || !slices.Equal(sc.Owners, end.Owners) {
			t.Errorf("%s: the sheet's map is not the game's", c.game)
		}
		for i, p := range sc.Players {
			ps := fs.Players[i]
			want := T("fr", "picture.final.tickets_done", "n", ps.CompletedTickets)
			if c.paths {
				want = T("fr", "picture.final.path", "n", ps.LongestPath)
			}
			if !slices.Contains(p.Note, want) || (len(p.LongestPath) > 0) != c.paths {
				t.Errorf("%s: %s's note %q (want %q), %d tracks outlined", c.game, p.Name, p.Note, want, len(p.LongestPath))
			}
			if p.Winner != (fs.Ranking[0] == i) || p.Winner != slices.Contains(p.Note, T("fr", "picture.final.winner_note")) {
				t.Errorf("%s: %s's note %q, winner %v", c.game, p.Name, p.Note, p.Winner)
			}
		}
		if (sc.Text.Paths != "") != c.paths {
			t.Errorf("%s: the note on outlines reads %q", c.game, sc.Text.Paths)
		}
	}
}

// namedPlayers are people's seats with these names.
func namedPlayers(names ...string) []Player {
	out := make([]Player, len(names))
	for i, n := range names {
		out[i] = Player{Name: n}
	}
	return out
}
