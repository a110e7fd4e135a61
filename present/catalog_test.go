package present

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
)

// translatedLanguages are the locales translated from English, the source.
var translatedLanguages = []string{"fr", "it", "de"}

// sameAsEnglish lists the values that may equal the English text (or, for
// a .name key, the canonical English name), because the official rulebook
// or the language itself uses the same word. Values made only of
// placeholders, emoji and punctuation need no entry.
var sameAsEnglish = map[string]map[string]string{
	"fr": {
		"card.locomotive":              "French rules: « cartes Locomotive »",
		"card.locomotive+4":            "French Märklin rules: « cartes Locomotive +4 »",
		"card.orange":                  "French colour name is orange",
		"rules.title.ferries":          "French rules: « Ferries »; Europe is spelled alike",
		"rules.title.tunnels":          "French rules: « Tunnels »; Europe is spelled alike",
		"opt.claim.route.name":         "French rules: « prendre une Route »",
		"opt.claim.locomotives.name":   "same French word",
		"opt.station.locomotives.name": "same French word",
		"bonus.express":                "French rules: « la carte bonus European Express »",
		"variant.europe.1912":          "French rules: « Europe 1912 »",
		"variant.europe.mega":          "French rules: « Mega Europe »",
		"variant.europe.bigcities":     "French rules: « Big Cities of Europe »",
		"variant.usa.base":             "a place name",
		"variant.usa.1910":             "the expansion's name",
		"variant.marklin.standard":     "a brand name",
		"picture.points":               "French abbreviation of points: « pts »",
		"picture.final.total":          "same French word",
		"picture.final.routes":         "French rules: « Routes »",
		"picture.bot":                  "the badge of a bot player, the same word",
		"time.minutes":                 "same French word",
		"bot.level.normal":             "same French word",
		"bot.level.expert":             "same French word",
		"letter.red":                   "R for rouge",
		"letter.blue":                  "B for bleu",
		"letter.orange":                "O for orange",
		"letter.locomotive":            "L for Locomotive",
		"letter.locomotive+4":          "L+4 for Locomotive +4",
		"web.setup_bots":               "the page's heading over the bots: the same French word",
	},
	"it": {
		"cmd.ttr.name":             "the Italian edition is sold as Ticket to Ride",
		"edition.usa":              "the Italian edition is sold as Ticket to Ride",
		"edition.marklin":          "the Italian edition is sold as Ticket to Ride",
		"bonus.express":            "Italian rules: « carta bonus European Express »",
		"variant.usa.base":         "a place name",
		"variant.usa.1910":         "the expansion's name",
		"variant.marklin.standard": "a brand name",
		"picture.bot":              "the badge of a bot player, the same word",
		"letter.red":               "R for rosso",
		"letter.blue":              "B for blu",
		"letter.locomotive":        "L for locomotiva",
		"letter.locomotive+4":      "L+4 for locomotiva +4",
	},
	"de": {
		"month.4":                  "German month name April",
		"month.8":                  "German month name August",
		"month.9":                  "German month name September",
		"month.11":                 "German month name November",
		"card.orange":              "German colour name is orange",
		"cmd.hand.name":            "German word for a hand of cards is Hand",
		"variant.usa.base":         "a place name",
		"variant.usa.1910":         "the expansion's name",
		"variant.marklin.standard": "a brand name",
		"picture.bot":              "the badge of a bot player, the same word",
		"bot.level.normal":         "same German word",
		"web.setup_bots":           "the page's heading over the bots: the same German word",
		"letter.red":               "R for rot",
		"letter.blue":              "B for blau",
		"letter.white":             "W for weiß",
		"letter.orange":            "O for orange",
		"letter.locomotive":        "L for Lokomotive",
		"letter.locomotive+4":      "L+4 for Lokomotive +4",
	},
}

var (
	placeholderPattern = placeholderRE
	// discordNamePattern is Discord's rule for command and option names.
	discordNamePattern = regexp.MustCompile(`^[-_\p{L}\p{N}]{1,32}$`)
)

// readCatalog parses locales/<lang>.json as the program does (strictly:
// no key given twice, every value a string or plural forms).
func readCatalog(t *testing.T, lang string) map[string]*message {
	t.Helper()
	src, err := os.ReadFile("locales/" + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := parseCatalog(src)
	if err != nil {
		t.Fatalf("%s.json: %v", lang, err)
	}
	return msgs
}

// readTexts is a catalogue's plain messages, key -> text; it fails the
// test for a key that ought to be plain (command names and descriptions)
// but has plural forms.
func readTexts(t *testing.T, lang string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for key, m := range readCatalog(t, lang) {
		if len(m.counts) > 0 {
			if strings.HasPrefix(key, "cmd.") || strings.HasPrefix(key, "opt.") {
				t.Errorf("%s.json %q: slash command texts cannot have plural forms", lang, key)
			}
			continue
		}
		out[key] = m.text
	}
	return out
}

// rendered is a message with every placeholder set to value: what a
// reader sees, whatever its forms.
func rendered(lang string, m *message, value any) string {
	return m.render(catalogs[lang].tag, func(string) (any, bool) { return value, true }, nil)
}

// isCommandText reports whether a key is a slash command or option field.
func isCommandText(key, field string) bool {
	return (strings.HasPrefix(key, "cmd.") || strings.HasPrefix(key, "opt.")) && strings.HasSuffix(key, "."+field)
}

func TestI18nKeysMatchEnglish(t *testing.T) {
	en := readCatalog(t, "en")
	for key := range en {
		if isCommandText(key, "name") {
			t.Errorf("en.json: %q: English names are the canonical ones in the code, not catalog entries", key)
		}
	}
	for _, lang := range translatedLanguages {
		cat := readCatalog(t, lang)
		for key := range en {
			if _, ok := cat[key]; !ok {
				t.Errorf("%s.json: missing %q", lang, key)
			}
			if isCommandText(key, "desc") {
				name := strings.TrimSuffix(key, ".desc") + ".name"
				if _, ok := cat[name]; !ok {
					t.Errorf("%s.json: missing %q (localised name for %q)", lang, name, key)
				}
			}
		}
		for key := range cat {
			if _, ok := en[key]; ok {
				continue
			}
			if isCommandText(key, "name") {
				if _, ok := en[strings.TrimSuffix(key, ".name")+".desc"]; ok {
					continue
				}
			}
			t.Errorf("%s.json: %q is not an English key", lang, key)
		}
	}
}

// symbols lists a text's emoji and other pictographs (Unicode So), sorted.
func symbols(s string) []string {
	var out []string
	for _, r := range s {
		if unicode.Is(unicode.So, r) {
			out = append(out, string(r))
		}
	}
	sort.Strings(out)
	return out
}

func TestI18nPlaceholdersMarkdownAndEmoji(t *testing.T) {
	en := readCatalog(t, "en")
	for _, lang := range translatedLanguages {
		cat := readCatalog(t, lang)
		for key, source := range en {
			m, ok := cat[key]
			if !ok {
				continue // reported by TestI18nKeysMatchEnglish
			}
			if w, g := source.placeholders(), m.placeholders(); fmt.Sprint(w) != fmt.Sprint(g) {
				t.Errorf("%s.json %q: placeholders %v, English has %v", lang, key, g, w)
			}
			for _, n := range []int{1, 5} {
				want, got := rendered("en", source, n), rendered(lang, m, n)
				if w, g := strings.Count(want, "**"), strings.Count(got, "**"); w != g {
					t.Errorf("%s.json %q: %d bold markers, English has %d", lang, key, g, w)
				}
				if w, g := symbols(want), symbols(got); fmt.Sprint(w) != fmt.Sprint(g) {
					t.Errorf("%s.json %q: emoji %v, English has %v", lang, key, g, w)
				}
			}
		}
	}
}

// nameParent is the level a command or option name must be unique in:
// "cmd" for top-level commands, "opt.claim" for /claim's options,
// "opt.ttr" for /ttr's subcommands, "opt.ttr.new" for their options.
func nameParent(key string) string {
	path := strings.TrimSuffix(key, ".name")
	return path[:strings.LastIndex(path, ".")]
}

func TestI18nCommandNames(t *testing.T) {
	en := readTexts(t, "en")
	// The English names are the last part of each key; check them too.
	canonical := map[string]string{}
	for key := range en {
		if isCommandText(key, "desc") {
			path := strings.TrimSuffix(key, ".desc")
			canonical[path+".name"] = path[strings.LastIndex(path, ".")+1:]
		}
	}
	check := func(lang string, names map[string]string) {
		seen := map[string]string{} // parent + "/" + name -> key
		for key, name := range names {
			if !discordNamePattern.MatchString(name) || strings.ToLower(name) != name {
				t.Errorf("%s %q: name %q breaks Discord's rule (1-32 lowercase letters, digits, - or _)", lang, key, name)
			}
			slot := nameParent(key) + "/" + name
			if other, dup := seen[slot]; dup {
				t.Errorf("%s: %q and %q are both named %q among the same siblings", lang, key, other, name)
			}
			seen[slot] = key
		}
	}
	check("en", canonical)
	if len(canonical) == 0 {
		t.Fatal("en.json has no command descriptions")
	}
	for _, lang := range translatedLanguages {
		names := map[string]string{}
		for key, value := range readTexts(t, lang) {
			if isCommandText(key, "name") {
				names[key] = value
			}
		}
		check(lang, names)
	}
}

func TestI18nNameParents(t *testing.T) {
	for key, want := range map[string]string{
		"cmd.claim.name":              "cmd",
		"opt.claim.route.name":        "opt.claim",
		"opt.ttr.new.name":            "opt.ttr",
		"opt.ttr.new.map.name":        "opt.ttr.new",
		"opt.ttr.forget.confirm.name": "opt.ttr.forget",
	} {
		if got := nameParent(key); got != want {
			t.Errorf("nameParent(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestI18nDescriptionLengths(t *testing.T) {
	for _, lang := range append([]string{"en"}, translatedLanguages...) {
		for key, desc := range readTexts(t, lang) {
			if !isCommandText(key, "desc") {
				continue
			}
			// Discord counts UTF-16 code units; none of these need more.
			if n := len(utf16.Encode([]rune(desc))); n < 1 || n > 100 {
				t.Errorf("%s.json %q: description is %d characters, Discord allows 1-100", lang, key, n)
			}
		}
	}
}

// hasWords reports whether a text says anything beyond its placeholders,
// emoji and punctuation.
func hasWords(s string) bool {
	return strings.IndexFunc(placeholderPattern.ReplaceAllString(s, ""), unicode.IsLetter) >= 0
}

func TestI18nTranslated(t *testing.T) {
	en := readCatalog(t, "en")
	for _, lang := range translatedLanguages {
		cat := readCatalog(t, lang)
		allowed := sameAsEnglish[lang]
		for key, m := range cat {
			value := rendered(lang, m, 5)
			source, ok := en[key]
			english := ""
			if ok {
				english = rendered("en", source, 5)
			}
			if isCommandText(key, "name") {
				path := strings.TrimSuffix(key, ".name")
				english, ok = path[strings.LastIndex(path, ".")+1:], true
			}
			if !ok {
				continue // reported by TestI18nKeysMatchEnglish
			}
			_, listed := allowed[key]
			same := value == english && hasWords(value)
			switch {
			case same && !listed:
				t.Errorf("%s.json %q is still English: %q", lang, key, value)
			case listed && value != english:
				t.Errorf("%s.json %q is allow-listed as equal to English but reads %q (English %q): drop it from sameAsEnglish", lang, key, value, english)
			}
		}
		for key := range allowed {
			if _, ok := cat[key]; !ok {
				t.Errorf("sameAsEnglish[%q] lists %q, which %s.json lacks", lang, key, lang)
			}
		}
	}
}

func TestI18nTranslateUsesCatalog(t *testing.T) {
	for _, lang := range translatedLanguages {
		for key, value := range readTexts(t, lang) {
			// Commands are written as Discord's mentions, "</ttr join>":
			// without their ids they read as typed, "/rail rejoindre".
			if got, want := T(lang, key), renderCommands(lang, value); got != want {
				t.Errorf("T(%q, %q) = %q, want the catalog's %q", lang, key, got, want)
			}
		}
		// Discord sends regional locales such as "fr" but also "de-DE".
		key := "game.over"
		if got, want := T(lang+"-XX", key), T(lang, key); got != want {
			t.Errorf("T(%q, %q) = %q, want %q", lang+"-XX", key, got, want)
		}
	}
}

// TestFrenchTypography: French puts a no-break space before ":" (U+00A0)
// and a narrow one before ";", "!" and "?" (U+202F), and no-break spaces
// inside « »: never a plain space, which lets a line break there, and
// never none.
func TestFrenchTypography(t *testing.T) {
	checked := 0
	for key, m := range readCatalog(t, "fr") {
		for _, text := range append([]string{m.text}, func() []string {
			var out []string
			for _, c := range m.counts {
				for _, p := range c.forms {
					out = append(out, p)
				}
			}
			return out
		}()...) {
			r := []rune(text)
			for i, c := range r {
				switch c {
				case ':', ';', '!', '?', '»':
				case '«':
					if i+1 < len(r) && r[i+1] != '\u00a0' {
						t.Errorf("fr %q: « without a no-break space after it: %q", key, text)
					}
					continue
				default:
					continue
				}
				checked++
				prev, next := ' ', ' '
				if i > 0 {
					prev = r[i-1]
				}
				if i+1 < len(r) {
					next = r[i+1]
				}
				if c == ':' && next != ' ' && next != '\n' && i+1 < len(r) {
					continue // not punctuation: "mp:True", "https://"
				}
				want := '\u202f'
				if c == ':' || c == '»' {
					want = '\u00a0'
				}
				if prev != want && !(c == '?' && prev == '!') && !(c == '!' && prev == '?') {
					t.Errorf("fr %q: %q before %q in %q, want U+%04X", key, prev, c, text, want)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d marks checked", checked)
	}
}
