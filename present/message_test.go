package present

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
)

// agreementCounts are the numbers every message is rendered with: zero
// and one (the same French form, not the same English one), two, five.
var agreementCounts = []int{0, 1, 2, 5}

// TestEveryMessageAgreesWithItsCounts renders every message of every
// language with its placeholders set to 0, 1, 2 and 5: nothing stays
// unfilled, and each counted placeholder shows the phrase of the plural
// form CLDR gives that number in that language, never another form's.
func TestEveryMessageAgreesWithItsCounts(t *testing.T) {
	checked := 0
	for _, lang := range Languages {
		c := catalogs[lang]
		for key, m := range c.messages {
			for _, n := range agreementCounts {
				var kv []any
				for _, p := range m.placeholders() {
					kv = append(kv, strings.Trim(p, "{}"), n)
				}
				got := T(lang, key, kv...)
				if left := placeholderRE.FindString(got); left != "" {
					t.Errorf("%s %q with %d: %s left unfilled in %q", lang, key, n, left, got)
				}
				value := func(string) (string, bool) { return strconv.Itoa(n), true }
				for _, cn := range m.counts {
					form := plural.Cardinal.MatchPlural(c.tag, n, 0, 0, 0, 0)
					want := renderCommands(lang, fill(cn.forms[form], value))
					if !containsPhrase(got, want) {
						t.Errorf("%s %q with {%s}=%d: %q lacks the %q form %q", lang, key, cn.name, n, got, formNames[form], want)
					}
					for f, other := range cn.forms {
						if o := renderCommands(lang, fill(other, value)); f != form && o != want && containsPhrase(got, o) {
							t.Errorf("%s %q with {%s}=%d: %q shows the %q form %q, not the %q one", lang, key, cn.name, n, got, formNames[f], o, formNames[form])
						}
					}
					checked++
				}
			}
		}
	}
	if checked < 4*len(agreementCounts)*40 {
		t.Errorf("only %d counted phrases checked: the catalogues lost their plural forms", checked)
	}
}

// containsPhrase reports whether phrase occurs in s as whole words: "5
// ticket" is not in "5 tickets".
func containsPhrase(s, phrase string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(phrase):])
		first, _ := utf8.DecodeRuneInString(phrase)
		last, _ := utf8.DecodeLastRuneInString(phrase)
		if !(isWordRune(before) && isWordRune(first)) && !(isWordRune(after) && isWordRune(last)) {
			return true
		}
		from = i + 1
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// words are the lowercased words of a text, placeholders left out.
func words(s string) []string {
	s = placeholderRE.ReplaceAllString(s, " ")
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// TestNoNumberBeforeAnInflectedWord finds counts written as plain text:
// a placeholder that is a count somewhere in the catalogue, followed
// within two words by a word the catalogue inflects by number elsewhere
// ("{n} more cards" when "card"/"cards" are plural forms). Such a message
// must give plural forms too. The inflected words come from the
// catalogue's own forms.
func TestNoNumberBeforeAnInflectedWord(t *testing.T) {
	for _, lang := range Languages {
		c := catalogs[lang]
		counted, inflected := map[string]bool{}, map[string]bool{}
		for _, m := range c.messages {
			for _, cn := range m.counts {
				counted[cn.name] = true
				for f, phrase := range cn.forms {
					for g, other := range cn.forms {
						if f == g {
							continue
						}
						for _, w := range words(phrase) {
							if !slices.Contains(words(other), w) {
								inflected[w] = true
							}
						}
					}
				}
			}
		}
		if len(inflected) < 10 {
			t.Fatalf("%s: only %d inflected words %v: the scan is broken", lang, len(inflected), inflected)
		}
		for key, m := range c.messages {
			pieces := []string{m.text}
			for _, cn := range m.counts {
				for _, p := range cn.forms {
					pieces = append(pieces, p)
				}
			}
			for _, piece := range pieces {
				for _, loc := range placeholderRE.FindAllStringIndex(piece, -1) {
					name := piece[loc[0]+1 : loc[1]-1]
					if !counted[name] || m.countNamed(name) != nil {
						continue
					}
					next := strings.Fields(piece[loc[1]:])
					for i := 0; i < 2 && i < len(next); i++ {
						w := words(next[i])
						if len(w) == 0 || !startsWithLetter(next[i]) {
							break
						}
						if inflected[w[0]] {
							t.Errorf("%s %q: {%s} %s… reads as a count before %q, which has plural forms elsewhere: give this message plural forms", lang, key, name, strings.Join(next[:i+1], " "), w[0])
						}
					}
				}
			}
		}
	}
}

func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

func TestPluralFormsPerLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, key string
		n         int
		want      string
	}{
		{"en", "ev.tickets_kept", 0, "🎫 **A** kept 0 tickets"},
		{"en", "ev.tickets_kept", 1, "🎫 **A** kept 1 ticket"},
		{"en", "ev.tickets_kept", 2, "🎫 **A** kept 2 tickets"},
		{"fr", "ev.tickets_kept", 0, "🎫 **A** a gardé 0 carte Destination"},
		{"fr", "ev.tickets_kept", 1, "🎫 **A** a gardé 1 carte Destination"},
		{"fr", "ev.tickets_kept", 2, "🎫 **A** a gardé 2 cartes Destination"},
		{"it", "ev.tickets_kept", 0, "🎫 **A** ha tenuto 0 Biglietti"},
		{"it", "ev.tickets_kept", 1, "🎫 **A** ha tenuto 1 Biglietto"},
		{"de", "ev.tickets_kept", 1, "🎫 **A** hat 1 Zielkarte behalten"},
		{"de", "ev.tickets_kept", 5, "🎫 **A** hat 5 Zielkarten behalten"},
		{"fr", "ev.last_round", 1, "Il ne reste que 1 wagon à **A**\u00a0: chacun joue un dernier tour\u202f!"},
		{"fr", "ev.last_round", 2, "Il ne reste que 2 wagons à **A**\u00a0: chacun joue un dernier tour\u202f!"},
		{"it", "ev.last_round", 1, "A **A** resta 1 vagone: ognuno gioca un ultimo turno!"},
		{"de", "ev.tunnel", 1, "⛰️ **A** hat R versucht: aufgedeckt C — 1 weitere Karte nötig"},
		{"en", "ev.tunnel", 1, "⛰️ **A** tried R: revealed C — 1 more card needed"},
	} {
		if got := T(c.lang, c.key, "player", "**A**", "route", "R", "cards", "C", "n", c.n); got != c.want {
			t.Errorf("T(%s, %s, n=%d) = %q, want %q", c.lang, c.key, c.n, got, c.want)
		}
	}
	// Several counts in one message, each choosing its own form.
	got := T("en", "hand.footer", "trains", 1, "stations", 3, "score", 0)
	if want := "1 train · 3 stations left · 0 points so far"; got != want {
		t.Errorf("hand.footer = %q, want %q", got, want)
	}
	// Counts given as text, signed, as score lines write points.
	for v, want := range map[any]string{"+1": "+1 point", "−1": "−1 point", "-3": "-3 points", 1: "1 point", int64(2): "2 points", "x": "x points"} {
		if got := T("en", "final.winner", "player", "A", "points", v); !strings.HasSuffix(got, want+"!") {
			t.Errorf("final.winner with points %#v = %q, want it to end in %q", v, got, want+"!")
		}
	}
	// A missing count takes the "other" form and stays visible.
	if got := T("en", "ev.reshuffle"); !strings.Contains(got, "({n} cards)") {
		t.Errorf("ev.reshuffle without n = %q", got)
	}
}

func TestCountOf(t *testing.T) {
	for v, want := range map[any]int{3: 3, int8(-2): -2, uint(7): 7, "12": 12, "+4": 4, "−5": 5, "-6": 6} {
		if got, ok := countOf(v); !ok || (got != want && got != -want) {
			t.Errorf("countOf(%#v) = %d, %v; want %d", v, got, ok, want)
		}
	}
	for _, v := range []any{"", "+", "1.5", "abc", "++2", "+-2", 2.0, nil, []int{1}} {
		if n, ok := countOf(v); ok {
			t.Errorf("countOf(%#v) = %d, a count; want none", v, n)
		}
	}
}

// TestPluralRulesFromCLDR pins what the catalogues rely on from x/text:
// French puts 0 in "one", the other languages do not.
func TestPluralRulesFromCLDR(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "one=[1] other", "fr": "one=[0 1] other", "it": "one=[1] other", "de": "one=[1] other",
	} {
		fs := formsOf(catalogs[lang].tag)
		var parts []string
		for _, f := range fs.forms {
			p := formNames[f]
			if f == plural.One {
				var ns []int
				for n := 0; n <= 100; n++ {
					if formOf(catalogs[lang].tag, n) == f {
						ns = append(ns, n)
					}
				}
				p += fmt.Sprint("=", ns)
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("%s: forms %q, want %q", lang, got, want)
		}
	}
}

// TestCatalogueChecks feeds broken catalogues to the loader: each must be
// refused with a message that names the problem.
func TestCatalogueChecks(t *testing.T) {
	good := map[string]string{
		"en": `{"a": {"n": {"one": "{n} ticket", "other": "{n} tickets"}}, "b": "{p} plays"}`,
		"fr": `{"a": {"n": {"one": "{n} billet", "other": "{n} billets"}}, "b": "{p} joue"}`,
		"it": `{"a": {"n": {"one": "{n} biglietto", "other": "{n} biglietti"}}, "b": "{p} gioca"}`,
		"de": `{"a": {"n": {"one": "{n} Karte", "other": "{n} Karten"}}, "b": "{p} spielt"}`,
	}
	load := func(change map[string]string) error {
		_, err := loadCatalogs(func(lang string) ([]byte, error) {
			if s, ok := change[lang]; ok {
				return []byte(s), nil
			}
			return []byte(good[lang]), nil
		})
		return err
	}
	if err := load(nil); err != nil {
		t.Fatalf("the good catalogues are refused: %v", err)
	}
	for _, c := range []struct {
		name   string
		change map[string]string
		want   string
	}{
		{"French lacks other", map[string]string{"fr": `{"a": {"n": {"one": "{n} billet"}}, "b": "{p} joue"}`}, `lacks the "other" form fr needs`},
		{"English lacks one", map[string]string{"en": `{"a": {"n": {"other": "{n} tickets"}}, "b": "{p} plays"}`}, `lacks the "one" form en needs`},
		{"German has two", map[string]string{"de": `{"a": {"n": {"one": "{n} Karte", "two": "{n} Karten", "other": "{n} Karten"}}, "b": "{p} spielt"}`}, `has a "two" form, which de never uses`},
		{"French one hides the number", map[string]string{"fr": `{"a": {"n": {"one": "un billet", "other": "{n} billets"}}, "b": "{p} joue"}`}, `stands for several numbers in fr, so it must show {n}`},
		{"translation lacks a placeholder", map[string]string{"it": `{"a": {"n": {"one": "{n} biglietto", "other": "{n} biglietti"}}, "b": "gioca"}`}, `lacks {p}, which the English message has`},
		{"translation adds a placeholder", map[string]string{"de": `{"a": {"n": {"one": "{n} Karte", "other": "{n} Karten"}}, "b": "{p} spielt {q}"}`}, `has {q}, which the English message lacks`},
		{"count never shown", map[string]string{"en": `{"a": {"text": "tickets", "n": {"one": "{n} ticket", "other": "{n} tickets"}}, "b": "{p} plays"}`}, `never shows the count {n}`},
		{"two counts, no text", map[string]string{"en": `{"a": {"n": {"one": "{n} x", "other": "{n} xs"}, "m": {"one": "{m} y", "other": "{m} ys"}}, "b": "{p} plays"}`}, `needs a "text"`},
		{"unknown form", map[string]string{"en": `{"a": {"n": {"single": "{n} ticket", "other": "{n} tickets"}}, "b": "{p} plays"}`}, `"single" is not a plural form`},
		{"duplicate key", map[string]string{"fr": `{"a": "x", "a": "y", "b": "{p} joue"}`}, `key "a" appears twice`},
		{"not a message", map[string]string{"it": `{"a": 3, "b": "{p} gioca"}`}, `want a string or an object of plural forms`},
	} {
		err := load(c.change)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
