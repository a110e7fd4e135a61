package commands

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A choice's name is cut to Discord's 100 characters without splitting one:
// a seat whose player's name puts "→" across byte 100 stays valid UTF-8 and
// keeps its 100 characters.
func TestAutocompleteCutsNamesOnCharacters(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	long := strings.Repeat("→", 120) // 360 bytes
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.do(&Request{Type: CommandRequest, User: "u2", UserName: long, Name: "ttr", Sub: "join"})
	ac := w.do(&Request{Type: AutocompleteRequest, User: "u1", Name: "ttr", Sub: "kick", Focused: "seat", Options: map[string]string{"seat": ""}})
	if len(ac.choices) != 2 {
		t.Fatalf("choices %+v", ac.choices)
	}
	name := ac.choices[1].Name
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) != maxChoiceLen || !strings.HasSuffix(name, "→…") {
		t.Fatalf("seat 2's choice %q (%d characters, %d bytes): want 100 whole characters ending in …",
			name, utf8.RuneCountInString(name), len(name))
	}
}
