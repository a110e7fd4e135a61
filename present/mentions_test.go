package present

import (
	"strings"
	"testing"

	"conductor/engine"
)

// Commands in texts are Discord's mentions once the commands' ids are
// known, and read as typed in the reader's language before (and in the
// terminal).
func TestCommandsInTexts(t *testing.T) {
	t.Cleanup(func() { SetCommandIDs(nil) })
	if got := T("fr", "game.none"); !strings.Contains(got, "/rail nouvelle") || strings.Contains(got, "</") {
		t.Errorf("without ids: %q", got)
	}
	if got := T("de", "help.join"); !strings.HasPrefix(got, "/zug beitreten · /zug verlassen") {
		t.Errorf("without ids: %q", got)
	}
	SetCommandIDs(map[string]string{"ttr": "11", "claim": "22"})
	if got := T("fr", "help.join"); !strings.HasPrefix(got, "</ttr join:11> · </ttr leave:11>") {
		t.Errorf("with ids: %q", got)
	}
	if got := T("en", "help.claim"); !strings.HasPrefix(got, "</claim:22> — ") {
		t.Errorf("with ids: %q", got)
	}
	// A command whose id is unknown reads as typed.
	if got := T("fr", "help.board"); !strings.HasPrefix(got, "/plateau — ") {
		t.Errorf("an unknown id: %q", got)
	}
	// A player's name is never read as a command.
	if got := T("en", "seat.left", "player", "</ttr join>", "level", "normal"); !strings.HasPrefix(got, "</ttr join> left") {
		t.Errorf("a name became a command: %q", got)
	}
	if got, want := CommandText("fr", "ttr", "rules"), "/rail règles"; got != want {
		t.Errorf("CommandText = %q, want %q", got, want)
	}
}

// Numbers as each language writes them, negatives with a true minus.
func TestNumbers(t *testing.T) {
	for _, c := range []struct{ lang, want string }{{"en", "29.0"}, {"fr", "29,0"}, {"de", "29,0"}} {
		if got := Decimal(c.lang, 29, 1); got != c.want {
			t.Errorf("Decimal(%s) = %q, want %q", c.lang, got, c.want)
		}
	}
	if got := Number("fr", -1440); got != "−1\u00a0440" {
		t.Errorf("Number(fr, -1440) = %q", got)
	}
	if got := T("en", "hand.tickets", "done", 0, "n", 2, "points", -7); !strings.Contains(got, "−7") || strings.Contains(got, "-7") {
		t.Errorf("a negative in a message: %q", got)
	}
}

// Bots are named as bots, in the table's language.
func TestPlayerNames(t *testing.T) {
	for _, c := range []struct {
		lang string
		p    Player
		want string
	}{
		{"en", Player{Name: "Alice"}, "Alice"},
		{"fr", Player{Name: "Vera", Bot: true, Level: "hard"}, "Vera (difficile)"},
		{"de", Player{Name: "Vera (hard)", Bot: true, Level: "hard"}, "Vera (schwer)"},
		{"en", Player{Name: "bob", Bot: true, Level: "normal", For: "bob"}, "normal bot for bob"},
		{"fr", Player{Name: "bob", Bot: true, Level: "normal", For: "bob"}, "bot normal pour bob"},
	} {
		if got := PlayerName(c.lang, c.p); got != c.want {
			t.Errorf("PlayerName(%s, %+v) = %q, want %q", c.lang, c.p, got, c.want)
		}
	}
	if got := PlayerLabel("en", Player{Name: "Vera", Bot: true, Level: "hard"}); got != "🤖 Vera (hard)" {
		t.Errorf("PlayerLabel = %q", got)
	}
}

// Each language's letters tell every kind of card apart.
func TestLettersAreDistinct(t *testing.T) {
	for _, lang := range Languages {
		seen := map[string]string{}
		l := Letters(lang)
		for c := engine.Card(1); c < engine.NumCards; c++ {
			if l[c] == "" {
				t.Errorf("%s: no letter for %s", lang, c)
			}
			if other, dup := seen[l[c]]; dup {
				t.Errorf("%s: %s and %s share the letter %q", lang, c, other, l[c])
			}
			seen[l[c]] = c.String()
		}
	}
}
