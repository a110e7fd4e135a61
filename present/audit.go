package present

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// EnglishIn lists the English phrases of the catalogues that text holds
// although the catalogue of lang never says them: English left on a table
// that speaks another language. A phrase is a stretch of an English
// message between its placeholders (and commands), long enough to be
// telling: two words, or one of six letters or more. Tests audit what a
// table shows with it.
func EnglishIn(lang, text string) []string {
	phrases := englishPhrases(Lang(lang))
	lower := strings.ToLower(mentionRE.ReplaceAllString(text, " "))
	var out []string
	for _, p := range phrases {
		if i := strings.Index(lower, p); i >= 0 && wordAt(lower, i, len(p)) {
			out = append(out, p)
		}
	}
	return out
}

// wordAt: the match at i, n bytes long, is not inside a longer word.
func wordAt(s string, i, n int) bool {
	before, after := rune(' '), rune(' ')
	if i > 0 {
		before = lastRune(s[:i])
	}
	if i+n < len(s) {
		after = []rune(s[i+n:])[0]
	}
	return !unicode.IsLetter(before) && !unicode.IsLetter(after)
}

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

var (
	phrasesOnce sync.Map // lang -> func() []string
	pieceCut    = regexp.MustCompile(`\{[a-z_]+\}|</[a-z_ -]+>|\n|\*\*|[()"“”„«»:;!?…·—–]`)
)

// englishPhrases are the telling English phrases lang never uses,
// lowercased.
func englishPhrases(lang string) []string {
	f, _ := phrasesOnce.LoadOrStore(lang, sync.OnceValue(func() []string {
		if lang == "en" {
			return nil
		}
		var own strings.Builder
		for _, m := range catalogs[lang].messages {
			for _, p := range m.pieces() {
				own.WriteString(strings.ToLower(p))
				own.WriteByte('\n')
			}
		}
		known := own.String()
		seen := map[string]bool{}
		var out []string
		for _, m := range catalogs["en"].messages {
			for _, p := range m.pieces() {
				p = strings.ToLower(strings.TrimFunc(p, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
				if seen[p] || !telling(p) || strings.Contains(known, p) {
					continue
				}
				seen[p] = true
				out = append(out, p)
			}
		}
		return out
	}))
	return f.(func() []string)()
}

// pieces are a message's stretches of words: its text and every plural
// phrase cut at placeholders, commands and punctuation.
func (m *message) pieces() []string {
	texts := []string{m.text}
	for _, c := range m.counts {
		for _, p := range c.forms {
			texts = append(texts, p)
		}
	}
	var out []string
	for _, t := range texts {
		out = append(out, pieceCut.Split(t, -1)...)
	}
	return out
}

// mentionRE matches Discord's mentions of commands, members and channels:
// a client shows each in its reader's language (a command's canonical
// name is only its key).
var mentionRE = regexp.MustCompile(`</[^>]*:\d+>|<[@#][!&]?\d+>`)

// telling: two words or more, or a word of six letters or more.
func telling(p string) bool {
	words := strings.FieldsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) })
	letters := 0
	for _, w := range words {
		letters += len([]rune(w))
	}
	return (len(words) >= 2 && letters >= 6) || (len(words) == 1 && letters >= 6)
}
