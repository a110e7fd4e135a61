package local

import (
	"strings"
	"testing"

	"conductor/present"
)

// A name typed wrong is answered with the name meant, in the player's
// language: a city, a route, a colour, a card, a command, an option.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	tr := typed(t, Setup{Seats: []string{"you", "easy"}, Map: "europe"},
		"a,b",
		"/claim Pariss Frankfrut",
		"/claim Paris - Zurch",
		"/station Pariss",
		"/claim Paris Frankfurt color=bleu",
		"/draw blak",
		"/claimm Paris Frankfurt",
		"/claim Paris Frankfurt colr=blue",
		"/ttr rulse",
	)
	for line, want := range map[string]string{
		"/claim Pariss Frankfrut":           `Did you mean Paris – Frankfurt?`,
		"/claim Paris - Zurch":              `Did you mean Paris – Zurich?`,
		"/station Pariss":                   `Did you mean Paris?`,
		"/claim Paris Frankfurt color=bleu": `Did you mean blue?`,
		"/draw blak":                        `Did you mean black?`,
		"/claimm Paris Frankfurt":           `There is no command /claimm. Did you mean /claim?`,
		"/claim Paris Frankfurt colr=blue":  `/claim has no option colr. Did you mean color?`,
		"/ttr rulse":                        `Did you mean /ttr rules?`,
	} {
		if a := answerTo(t, tr, line); !strings.Contains(a, want) {
			t.Errorf("%s: %q, want %q", line, a, want)
		}
	}

	tr = typed(t, Setup{Seats: []string{"moi", "easy"}, Map: "europe", Lang: "fr"},
		"a,b",
		"/prendre Pariss Frankfurt",
		"/prendre Paris Frankfurt couleur=bleux",
		"/prendree Paris Frankfurt",
	)
	for line, want := range map[string]string{
		"/prendre Pariss Frankfurt":              "Vouliez-vous dire Paris – Frankfurt\u202f?",
		"/prendre Paris Frankfurt couleur=bleux": "Vouliez-vous dire bleu\u202f?",
		"/prendree Paris Frankfurt":              "Vouliez-vous dire /prendre\u202f?",
	} {
		if a := answerTo(t, strings.ReplaceAll(tr, "moi> ", "you> "), line); !strings.Contains(a, want) {
			t.Errorf("%s: %q, want %q", line, a, want)
		}
	}
	// Nothing is suggested when nothing is close.
	tr = typed(t, Setup{Seats: []string{"you", "easy"}, Map: "usa"}, "a,b", "/claim Xyzzy Plugh")
	if a := answerTo(t, tr, "/claim Xyzzy Plugh"); strings.Contains(a, "Did you mean") || !strings.Contains(a, `I can't find the route "Xyzzy Plugh"`) {
		t.Errorf("a name close to nothing: %q", a)
	}
}

// The shared texts a terminal player meets are said in the terminal's
// words, in every language: no list to pick from as you type, no board
// message, no button to click to choose tickets.
func TestTheTerminalSaysItsOwnWords(t *testing.T) {
	term := NewTerminal(strings.NewReader(""), nil)
	for _, lang := range present.Languages {
		term.Locale = lang
		for _, w := range ownWords {
			var kv []any
			values := map[string]string{}
			for _, name := range []string{"route", "example", "city", "color", "card", "topics"} {
				kv = append(kv, name, "X"+name)
				values[name] = "X" + name
			}
			shared := present.T(lang, w.from, kv...)
			said := term.reword("⛔ " + shared + "\nnext line")
			if said == "⛔ "+shared+"\nnext line" {
				t.Errorf("%s %s: not reworded: %q", lang, w.from, shared)
				continue
			}
			if !strings.HasPrefix(said, "⛔ ") || !strings.HasSuffix(said, "\nnext line") {
				t.Errorf("%s %s: the text around the message changed: %q", lang, w.from, said)
			}
			want := present.T(lang, w.to, kv...)
			if w.add != nil {
				want = present.T(lang, w.to, append(w.add(term, values), kv...)...)
			}
			if strings.TrimSuffix(strings.TrimPrefix(said, "⛔ "), "\nnext line") != want {
				t.Errorf("%s %s: %q, want %q", lang, w.from, said, want)
			}
		}
	}
}

// What has no use at a terminal says so, and what to do instead: the
// seats are chosen on the command line, a server's records and turn DMs
// are Discord's; the rules say how to type a topic; everything private is
// shown here, so /hand dm shows the hand.
func TestWhatTheTerminalDoesNotDo(t *testing.T) {
	t.Parallel()
	tr := typed(t, Setup{Seats: []string{"you", "easy"}, Map: "usa"}, "a,b", "/ttr join", "/ttr notify", "/ttr rules", "/hand dm")
	for line, want := range map[string]string{
		"/ttr join":   "/ttr join has no use in the terminal: the seats, the board and the language are chosen when it starts, e.g. conductor play --new",
		"/ttr notify": "/ttr notify is for Discord servers; here /score and /log tell the game.",
		"/ttr rules":  "Topics (/ttr rules and one of them, e.g. /ttr rules Scoring): Overview, Train cards",
		"/hand dm":    "you — hand",
	} {
		if a := answerTo(t, tr, line); !strings.Contains(a, want) {
			t.Errorf("%s: %q, want %q", line, a, want)
		}
	}
	if strings.Contains(tr, "DMs") {
		t.Errorf("the terminal speaks of DMs:\n%s", tr)
	}
}
