package present

import (
	"regexp"
	"strings"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit"
)

func TestSigned(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "+7", -12: "−12"} {
		if got := Signed(n); got != want {
			t.Errorf("Signed(%d) = %q, want %q", n, got, want)
		}
	}
}

// signedZero finds a zero written with a sign: "+0", "−0", "-0".
var signedZero = regexp.MustCompile(`[+−-]0\b`)

// zeroScore is a player who scored nothing anywhere but the routes and
// the longest path: no ticket, every station built, no goods.
func zeroScore() *engine.PlayerScore {
	return &engine.PlayerScore{RoutePoints: 20, LongestPath: 12, LongestBonus: true, BonusPoints: 10,
		StationsBuilt: 3, Total: 30}
}

// TestSheetNeverSignsZero: no "−0" or "+0" in the text sheet of any
// language, nor in the numbers of the picture.
func TestSheetNeverSignsZero(t *testing.T) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		for _, lang := range Languages {
			title, lines := PlayerSheet(lang, b, 0, "Alice", zeroScore())
			for _, l := range append(lines, title) {
				if s := signedZero.FindString(l); s != "" {
					t.Errorf("%s %s: %q writes zero as %q", id, lang, l, s)
				}
			}
		}
	}
}

// TestBonusNamedAsPrinted: the longest-path bonus is the European Express
// in Europe and the longest path elsewhere, the same words in the text
// sheet and in the picture.
func TestBonusNamedAsPrinted(t *testing.T) {
	for _, c := range []struct{ board, lang, want string }{
		{"europe", "en", "European Express"}, {"europe", "fr", "European Express"},
		{"europe", "it", "European Express"}, {"europe", "de", "Europa-Express"},
		{"usa", "en", "Longest path"}, {"usa", "fr", "Chemin le plus long"},
		{"usa", "it", "Percorso Continuo Più Lungo"}, {"usa", "de", "Längste Strecke"},
	} {
		b := testkit.Board(t, c.board)
		if got := LongestBonusName(c.lang, b); got != c.want {
			t.Errorf("%s %s: bonus %q, want %q", c.board, c.lang, got, c.want)
		}
		ps := zeroScore()
		_, lines := PlayerSheet(c.lang, b, 0, "Alice", ps)
		text := strings.Join(lines, "\n")
		if !strings.Contains(text, "🏆 "+c.want+" (") {
			t.Errorf("%s %s: the text sheet does not name the bonus %q:\n%s", c.board, c.lang, c.want, text)
		}
		if c.board == "europe" && strings.Contains(text, T(c.lang, "bonus.longest")) {
			t.Errorf("%s %s: the text sheet still calls the bonus %q:\n%s", c.board, c.lang, T(c.lang, "bonus.longest"), text)
		}
		fs := &engine.FinalScore{Players: []engine.PlayerScore{*ps}, Ranking: []int{0}}
		sc := FinalScene(c.lang, &engine.PublicView{Board: b, Owners: make([]int8, len(b.Tracks))}, fs, namedPlayers("Alice"), false)
		if len(sc.Players[0].Bonuses) != 1 || sc.Players[0].Bonuses[0].Name != c.want {
			t.Errorf("%s %s: the picture's bonuses %+v, want %q", c.board, c.lang, sc.Players[0].Bonuses, c.want)
		}
	}
}
