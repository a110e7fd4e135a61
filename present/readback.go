package present

import (
	"regexp"
	"strings"
	"sync"
)

// Reading a message back: where a text holds a catalogue message, and
// what its placeholders were filled with. A transport that says some
// things in its own words (the terminal: no list to pick from as you
// type, no board message to scroll back to) finds the shared message in
// what it is about to show and puts its own in its place, with the same
// values, in the same language (local/words.go).

// Found is one place a message stands in a text: text[Start:End], and
// the value each placeholder holds there.
type Found struct {
	Start, End int
	Values     map[string]string
}

// sentinel marks a placeholder in a message rendered to be read back; no
// catalogue text holds it.
const sentinel = "\x00"

// readers caches the compiled pattern of each language's message.
var readers sync.Map // lang + "\x00" + key -> *reader

type reader struct {
	re    *regexp.Regexp
	names []string // the placeholder each group captures, in order
}

// FindMessage returns every place text holds the message key as written
// in the language of loc (its commands written as the terminal types
// them, as T writes them), each with its placeholders' values; a
// placeholder stands for anything on one line. A message with plural
// forms is never found: its numbers would have to be read back too.
func FindMessage(loc, key, text string) []Found {
	r := readerOf(loc, key)
	if r == nil {
		return nil
	}
	var out []Found
	for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
		f := Found{Start: m[0], End: m[1], Values: map[string]string{}}
		for i, name := range r.names {
			if a, b := m[2+2*i], m[3+2*i]; a >= 0 {
				if _, seen := f.Values[name]; !seen {
					f.Values[name] = text[a:b]
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// readerOf builds (once) the pattern that reads the message back: the
// message rendered with a sentinel for each placeholder, its words
// quoted, each sentinel a group.
func readerOf(loc, key string) *reader {
	lang := Lang(loc)
	id := lang + sentinel + key
	if r, ok := readers.Load(id); ok {
		return r.(*reader)
	}
	var r *reader
	if _, m := find(lang, key); m != nil && len(m.counts) == 0 {
		var kv []any
		for _, p := range m.placeholders() {
			name := strings.Trim(p, "{}")
			kv = append(kv, name, sentinel+name+sentinel)
		}
		parts := strings.Split(T(lang, key, kv...), sentinel)
		// parts alternate: words, a name, words, a name, ..., words.
		var re strings.Builder
		r = &reader{}
		for i, part := range parts {
			if i%2 == 0 {
				re.WriteString(regexp.QuoteMeta(part))
				continue
			}
			r.names = append(r.names, part)
			if i == len(parts)-2 && parts[i+1] == "" {
				re.WriteString(`([^\n]*)`) // the message ends with it: the rest of the line
			} else {
				re.WriteString(`([^\n]*?)`)
			}
		}
		r.re = regexp.MustCompile(re.String())
	}
	readers.Store(id, r)
	return r
}
