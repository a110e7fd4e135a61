package present

import (
	"regexp"
	"strings"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit"
)

// nameStuck finds grammar glued to a name: a letter or an apostrophe
// touching a name placeholder ("{player}'s", "d'{player}", "{player}s").
var nameStuck = regexp.MustCompile(`[\pL\pN'’]\{(player|name|by)\}|\{(player|name|by)\}[\pL\pN'’]`)

// nameElided finds words a name would have to merge with: French elides
// "de Alice" into "d'Alice", so a name never follows them.
var nameElided = map[string]*regexp.Regexp{
	"fr": regexp.MustCompile(`(?i)(^|[^\pL])(de|que|le|la|je|ne|se|ce|jusque|lorsque|puisque) \{(player|name|by)\}`),
	"it": regexp.MustCompile(`(?i)(^|[^\pL])(lo|la|dello|della|allo|alla) \{(player|name|by)\}`),
}

// TestNamesStandAlone: no message glues grammar to a player's name, so
// any name reads right, even one such as "you".
func TestNamesStandAlone(t *testing.T) {
	for _, lang := range Languages {
		for key, m := range catalogs[lang].messages {
			pieces := []string{m.text}
			for _, cn := range m.counts {
				for _, p := range cn.forms {
					pieces = append(pieces, p)
				}
			}
			for _, p := range pieces {
				if s := nameStuck.FindString(p); s != "" {
					t.Errorf("%s %q: %q glues grammar to a name", lang, key, s)
				}
				if re := nameElided[lang]; re != nil && re.MatchString(p) {
					t.Errorf("%s %q: %q puts a name where the language would elide or merge it", lang, key, re.FindString(p))
				}
			}
		}
	}
	// A player named "you" in every English message.
	broken := regexp.MustCompile(`\byou('s| has| is| was| wins| asks| tries| plays| takes)\b`)
	for key, m := range catalogs["en"].messages {
		var kv []any
		for _, p := range m.placeholders() {
			name := strings.Trim(p, "{}")
			if name == "player" || name == "name" || name == "by" {
				kv = append(kv, name, "you")
			} else {
				kv = append(kv, name, 2)
			}
		}
		if got := T("en", key, kv...); broken.MatchString(got) {
			t.Errorf("en %q with a player named you: %q", key, got)
		}
	}
	if got, want := T("en", "hand.title", "player", "you"), "you — hand"; got != want {
		t.Errorf("hand.title = %q, want %q", got, want)
	}
}

func TestEscapeMarkdown(t *testing.T) {
	for name, want := range map[string]string{
		"Alice":         "Alice",
		"Jean-Luc":      "Jean-Luc",
		"*you*":         `\*you\*`,
		"__init__":      `\_\_init\_\_`,
		"~~gone~~":      `\~\~gone\~\~`,
		"||secret||":    `\|\|secret\|\|`,
		"`rm -rf`":      "\\`rm -rf\\`",
		"[x](http://y)": `\[x\](http://y)`,
		`back\slash`:    `back\\slash`,
		"> quoted":      `\> quoted`,
		"# Title":       `\# Title`,
		"- item":        `\- item`,
	} {
		got := EscapeMarkdown(name)
		if got != want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", name, got, want)
		}
		if back := StripMarkdown(got); back != name {
			t.Errorf("StripMarkdown(%q) = %q, want the name %q back", got, back, name)
		}
	}
	if got, want := StripMarkdown("🚂 **Alice** took `x` and __y__"), "🚂 Alice took x and y"; got != want {
		t.Errorf("StripMarkdown = %q, want %q", got, want)
	}
}

// TestNamesEscapedInText: the texts present builds escape names, and the
// picture shows them as typed.
func TestNamesEscapedInText(t *testing.T) {
	const name = "*you*_|~`"
	esc := EscapeMarkdown(name)
	lines := Narrate("en", nil, func(int) string { return name }, []engine.Event{{Kind: engine.EvPass, Seat: 0}})
	if len(lines) != 1 || !strings.Contains(lines[0], "**"+esc+"**") {
		t.Fatalf("Narrate = %q, want the name escaped as %q", lines, esc)
	}
	if got := plainText(lines[0]); !strings.Contains(got, name) {
		t.Errorf("the picture's line %q lacks the name as typed %q", got, name)
	}
	fs := &engine.FinalScore{Players: []engine.PlayerScore{{Total: 50}, {Total: 40}}, Ranking: []int{0, 1}}
	for _, l := range Ranking("en", fs, []string{name, "Bob"}) {
		if strings.Contains(l, "Bob") {
			continue
		}
		if !strings.Contains(l, esc) {
			t.Errorf("Ranking line %q lacks the escaped name %q", l, esc)
		}
	}
	title, _ := PlayerSheet("en", testkit.Board(t, "usa"), 0, name, &fs.Players[0])
	if !strings.Contains(title, esc) {
		t.Errorf("PlayerSheet title %q lacks the escaped name %q", title, esc)
	}
}
