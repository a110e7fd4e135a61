package present

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

// The message catalogues: one JSON object of key -> text per language,
// English the source. This file is the whole catalogue API (Languages, T,
// Lookup, Lang), so that a change of format touches nothing else.

//go:embed locales/*.json
var localeFiles embed.FS

// Languages are the locales Conductor speaks; others fall back to English.
var Languages = []string{"en", "fr", "it", "de"}

// catalogs maps a language to its messages, loaded once at start.
var catalogs = loadCatalogs()

func loadCatalogs() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, lang := range Languages {
		src, err := localeFiles.ReadFile("locales/" + lang + ".json")
		if err != nil {
			panic(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(src, &m); err != nil {
			panic(fmt.Sprintf("locales/%s.json: %v", lang, err))
		}
		out[lang] = m
	}
	return out
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
// translated).
func Lookup(locale, key string) (string, bool) {
	s, ok := catalogs[Lang(locale)][key]
	return s, ok
}

// T translates a message key into a locale, filling {name} placeholders
// from key/value pairs: T("fr", "turn", "player", "Alice").
func T(locale, key string, kv ...any) string {
	m := catalogs[Lang(locale)]
	s, ok := m[key]
	if !ok {
		if s, ok = catalogs["en"][key]; !ok {
			return key
		}
	}
	if len(kv) == 0 {
		return s
	}
	pairs := make([]string, 0, len(kv))
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, "{"+fmt.Sprint(kv[i])+"}", fmt.Sprint(kv[i+1]))
	}
	return strings.NewReplacer(pairs...).Replace(s)
}
