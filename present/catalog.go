package present

import (
	"embed"
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// The message catalogues: one JSON object of key -> message per language,
// English the source. This file is the whole catalogue API (Languages, T,
// Lookup, Lang), so that a change of format touches nothing else; the
// format itself is read and checked in message.go, plural rules come from
// plural.go.

//go:embed locales/*.json
var localeFiles embed.FS

// Languages are the locales Conductor speaks; others fall back to English.
var Languages = []string{"en", "fr", "it", "de"}

// catalogs maps a language to its messages, loaded and checked once at
// start: a catalogue that breaks its rules (a missing plural form, a
// placeholder the English text has and a translation lacks) stops the
// program here rather than printing a broken sentence later.
var catalogs = mustLoadCatalogs()

// catalog is one language's messages.
type catalog struct {
	lang     string
	tag      language.Tag
	messages map[string]*message
}

func mustLoadCatalogs() map[string]*catalog {
	cats, err := loadCatalogs(func(lang string) ([]byte, error) {
		return localeFiles.ReadFile("locales/" + lang + ".json")
	})
	if err != nil {
		panic(err)
	}
	return cats
}

// loadCatalogs reads every language's catalogue with read and checks them
// together (translations are checked against English).
func loadCatalogs(read func(lang string) ([]byte, error)) (map[string]*catalog, error) {
	out := map[string]*catalog{}
	var problems []string
	for _, lang := range Languages {
		src, err := read(lang)
		if err != nil {
			return nil, err
		}
		msgs, err := parseCatalog(src)
		if err != nil {
			return nil, fmt.Errorf("locales/%s.json: %w", lang, err)
		}
		out[lang] = &catalog{lang: lang, tag: language.MustParse(lang), messages: msgs}
	}
	for _, lang := range Languages {
		for _, p := range checkCatalog(out[lang], out["en"]) {
			problems = append(problems, fmt.Sprintf("locales/%s.json: %s", lang, p))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("message catalogues:\n  %s", strings.Join(problems, "\n  "))
	}
	return out, nil
}

// Lang reduces a Discord locale ("fr", "en-US", "de") to a language we speak.
func Lang(locale string) string {
	l, _, _ := strings.Cut(strings.ToLower(locale), "-")
	if _, ok := catalogs[l]; ok {
		return l
	}
	return "en"
}

// Lookup is a key's text in exactly the language of locale, without
// falling back to English (slash command names exist only where
// translated). A message with plural forms gives its "other" forms, its
// placeholders unfilled.
func Lookup(locale, key string) (string, bool) {
	c := catalogs[Lang(locale)]
	m, ok := c.messages[key]
	if !ok {
		return "", false
	}
	return m.render(c.tag, func(string) (any, bool) { return nil, false }, nil), true
}

// T translates a message key into a locale, filling {name} placeholders
// from key/value pairs: T("fr", "turn", "player", "Alice"). A message
// with plural forms picks, for each counted placeholder, the form the
// language's plural rule gives its number: T("en", "ev.tickets_kept",
// "player", "Alice", "n", 1) says "1 ticket", with 2 "2 tickets".
func T(locale string, key string, kv ...any) string {
	c, m := find(locale, key)
	if m == nil {
		return key
	}
	arg := func(name string) (any, bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == name {
				return kv[i+1], true
			}
		}
		return nil, false
	}
	return m.renderWith(c.tag, arg, showValue(locale), func(s string) string { return renderCommands(locale, s) })
}

// find is a key's message in the language of locale, or in English when
// that language lacks it; the catalogue it comes from decides the plural
// rules. It returns a nil message for an unknown key.
func find(locale, key string) (*catalog, *message) {
	c := catalogs[Lang(locale)]
	if m, ok := c.messages[key]; ok {
		return c, m
	}
	en := catalogs["en"]
	return en, en.messages[key]
}
