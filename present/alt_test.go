package present

import (
	"strings"
	"testing"
	"unicode/utf8"

	"conductor/engine"
	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
)

// Every picture's alt text says what it shows in the table's language,
// within Discord's 1,024 characters even with five long names, and tells
// nothing hidden: the board's is its public words (whose turn, each seat's
// points and trains, the face-up cards, the last move).
func TestAltTextSaysWhatThePictureShows(t *testing.T) {
	cat := testkit.Catalog()
	long := strings.Repeat("Ж", 32)
	players := []Player{{Name: long + "1"}, {Name: long + "2"}, {Name: long + "3"}, {Name: long + "4"}, {Name: long + "5"}}
	for _, name := range []string{"usa-base-bots", "europe-classic-bots", "marklin-bots"} {
		rg := recorded.Load(t, name)
		var mid engine.PublicView
		g, err := rg.Replay(cat, func(g *engine.Game, _ engine.Move, _ []engine.Event) {
			if g.Turn() == 20 && g.Phase() == engine.PhaseTurn {
				mid = g.Public()
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if mid.Board == nil {
			t.Fatalf("%s: no 20th turn", name)
		}
		end := g.Public()
		for _, loc := range Languages {
			last := "🚂 **" + long + "1** " + strings.Repeat("Ж ", 600)
			alts := map[string]string{
				"board": BoardAlt(loc, &mid, players[:len(mid.Players)], last),
				"final": FinalAlt(loc, &end, g.Final(), players[:len(end.Players)]),
				"hand":  HandAlt(loc), "replay": ReplayAlt(loc),
			}
			for what, alt := range alts {
				if n := utf8.RuneCountInString(alt); n == 0 || n > MaxAlt {
					t.Errorf("%s %s %s: %d characters", name, loc, what, n)
				}
				if loc != "en" {
					if en := EnglishIn(loc, alt); len(en) > 0 {
						t.Errorf("%s %s %s: English %q in %q", name, loc, what, en, alt)
					}
				}
				if strings.Contains(alt, "**") {
					t.Errorf("%s %s %s: markdown in alt text %q", name, loc, what, alt)
				}
			}
			board := BoardAlt(loc, &mid, players[:len(mid.Players)], "")
			if !strings.Contains(board, StripMarkdown(StatusLine(loc, &mid, players[:len(mid.Players)]))) {
				t.Errorf("%s %s: the board's alt text lacks the status: %q", name, loc, board)
			}
			if c := mid.FaceUp[0]; c != engine.NoCard && !strings.Contains(board, CardName(loc, c)) {
				t.Errorf("%s %s: the board's alt text lacks the face-up cards: %q", name, loc, board)
			}
		}
	}
}
