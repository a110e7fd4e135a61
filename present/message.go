package present

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// The catalogue format. A message is a string with {name} placeholders:
//
//	"ev.claim": "🚂 {player} claimed {route} with {cards}: +{points}"
//
// or, where a number decides the grammar, an object giving, for each
// counted placeholder, its phrase in every plural form the language has
// (CLDR's names: zero, one, two, few, many, other):
//
//	"ev.tickets_kept": {"n": {"one": "🎫 {player} kept {n} ticket",
//	                          "other": "🎫 {player} kept {n} tickets"}}
//
// With one count the phrase is the whole message. With several, "text" is
// the sentence and each {count} in it becomes that count's phrase:
//
//	"hand.footer": {"text": "{trains} · {score} so far",
//	  "trains": {"one": "{trains} train", "other": "{trains} trains"},
//	  "score": {"one": "{score} point", "other": "{score} points"}}
//
// Inside a phrase, placeholders take their plain values (the count itself
// is its number). A language lists exactly the forms its plural rule
// gives whole numbers: English, Italian and German one and other, French
// one (0 and 1) and other.

// message is a catalogue entry.
type message struct {
	text   string  // the sentence, with {name} placeholders
	counts []count // the counted placeholders, if any
}

// count is a counted placeholder: its name and its phrase per plural form.
type count struct {
	name  string
	forms map[plural.Form]string
}

var (
	placeholderRE     = regexp.MustCompile(`\{[a-z_]+\}`)
	placeholderNameRE = regexp.MustCompile(`^[a-z_]+$`)
)

// parseCatalog reads a catalogue strictly: an object whose values are
// strings or plural objects, no key given twice (encoding/json would keep
// the last one silently).
func parseCatalog(src []byte) (map[string]*message, error) {
	out := map[string]*message{}
	err := eachMember(src, func(key string, raw json.RawMessage) error {
		if _, dup := out[key]; dup {
			return fmt.Errorf("key %q appears twice", key)
		}
		m, err := parseMessage(raw)
		if err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		out[key] = m
		return nil
	})
	return out, err
}

// eachMember calls f for each member of a JSON object, in order,
// duplicates included.
func eachMember(src []byte, f func(key string, raw json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(src))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("want an object, got %v (%v)", tok, err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		if err := f(key, raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if _, err := dec.Token(); err == nil {
		return errors.New("text after the object")
	}
	return nil
}

func parseMessage(raw json.RawMessage) (*message, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return &message{text: s}, nil
	}
	m := &message{}
	hasText := false
	err := eachMember(raw, func(key string, v json.RawMessage) error {
		if key == "text" {
			if hasText {
				return errors.New(`"text" appears twice`)
			}
			hasText = true
			if err := json.Unmarshal(v, &m.text); err != nil {
				return errors.New(`"text" must be a string`)
			}
			return nil
		}
		if !placeholderNameRE.MatchString(key) {
			return fmt.Errorf("%q is neither \"text\" nor a placeholder name", key)
		}
		if slices.ContainsFunc(m.counts, func(c count) bool { return c.name == key }) {
			return fmt.Errorf("count %q appears twice", key)
		}
		c := count{name: key, forms: map[plural.Form]string{}}
		err := eachMember(v, func(form string, p json.RawMessage) error {
			f, ok := parseForm(form)
			if !ok {
				return fmt.Errorf("%q: %q is not a plural form (zero, one, two, few, many, other)", key, form)
			}
			if _, dup := c.forms[f]; dup {
				return fmt.Errorf("%q: form %q appears twice", key, form)
			}
			var phrase string
			if err := json.Unmarshal(p, &phrase); err != nil {
				return fmt.Errorf("%q: form %q must be a string", key, form)
			}
			c.forms[f] = phrase
			return nil
		})
		if err != nil {
			return err
		}
		m.counts = append(m.counts, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("want a string or an object of plural forms: %w", err)
	}
	switch {
	case len(m.counts) == 0:
		return nil, errors.New("a plural object needs at least one counted placeholder")
	case !hasText && len(m.counts) > 1:
		return nil, errors.New(`a message with several counts needs a "text" that places them`)
	case !hasText:
		m.text = "{" + m.counts[0].name + "}"
	}
	return m, nil
}

// countNamed is the counted placeholder of that name, or nil.
func (m *message) countNamed(name string) *count {
	for i := range m.counts {
		if m.counts[i].name == name {
			return &m.counts[i]
		}
	}
	return nil
}

// render fills the message in a language: arg gives a placeholder's value
// (false: none, the placeholder stays), show writes a value (nil:
// fmt.Sprint). A counted placeholder becomes the phrase of the plural form
// its number takes ("other" when the value is not a number).
func (m *message) render(tag language.Tag, arg func(name string) (any, bool), show func(any) string) string {
	return m.renderWith(tag, arg, show, nil)
}

// renderWith is render with the message's own words passed through tmpl
// first (nil: as written), before any value is filled in: what tmpl does
// to the catalogue's text never touches a value, such as a player's name.
func (m *message) renderWith(tag language.Tag, arg func(name string) (any, bool), show func(any) string, tmpl func(string) string) string {
	if tmpl == nil {
		tmpl = func(s string) string { return s }
	}
	if show == nil {
		show = func(v any) string { return fmt.Sprint(v) }
	}
	plain := func(name string) (string, bool) {
		v, ok := arg(name)
		if !ok {
			return "", false
		}
		return show(v), true
	}
	if len(m.counts) == 0 {
		return fill(tmpl(m.text), plain)
	}
	return fill(tmpl(m.text), func(name string) (string, bool) {
		c := m.countNamed(name)
		if c == nil {
			return plain(name)
		}
		form := plural.Other
		if v, ok := arg(name); ok {
			if n, ok := countOf(v); ok {
				form = formOf(tag, n)
			}
		}
		phrase, ok := c.forms[form]
		if !ok {
			phrase = c.forms[plural.Other]
		}
		return fill(tmpl(phrase), plain), true
	})
}

// fill replaces each {name} placeholder of template with value(name);
// placeholders without a value stay as they are.
func fill(template string, value func(name string) (string, bool)) string {
	var sb strings.Builder
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(template[open:], '}')
		if end < 0 {
			break
		}
		end += open
		sb.WriteString(template[:open])
		if v, ok := value(template[open+1 : end]); ok {
			sb.WriteString(v)
		} else {
			sb.WriteString(template[open : end+1])
		}
		template = template[end+1:]
	}
	sb.WriteString(template)
	return sb.String()
}

// placeholders are the distinct {names} of a message, in its text and all
// its phrases, sorted.
func (m *message) placeholders() []string {
	var out []string
	add := func(s string) {
		for _, p := range placeholderRE.FindAllString(s, -1) {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	add(m.text)
	for _, c := range m.counts {
		for _, p := range c.forms {
			add(p)
		}
	}
	sort.Strings(out)
	return out
}

// checkCatalog lists what breaks the format's rules in a catalogue: plural
// forms the language does not have or lacks, counts never shown, and,
// for a translation, placeholders that differ from the English message's.
func checkCatalog(c, en *catalog) []string {
	var problems []string
	fs := formsOf(c.tag)
	keys := make([]string, 0, len(c.messages))
	for k := range c.messages {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		m := c.messages[key]
		for _, cn := range m.counts {
			if !strings.Contains(m.text, "{"+cn.name+"}") {
				problems = append(problems, fmt.Sprintf("%q: the text never shows the count {%s}", key, cn.name))
			}
			for _, f := range fs.forms {
				if _, ok := cn.forms[f]; !ok {
					problems = append(problems, fmt.Sprintf("%q: {%s} lacks the %q form %s needs", key, cn.name, formNames[f], c.lang))
				}
			}
			for f, phrase := range cn.forms {
				if !slices.Contains(fs.forms, f) {
					problems = append(problems, fmt.Sprintf("%q: {%s} has a %q form, which %s never uses", key, cn.name, formNames[f], c.lang))
					continue
				}
				if _, one := fs.single[f]; !one && !strings.Contains(phrase, "{"+cn.name+"}") {
					problems = append(problems, fmt.Sprintf("%q: {%s}'s %q form stands for several numbers in %s, so it must show {%s}", key, cn.name, formNames[f], c.lang, cn.name))
				}
			}
		}
		if c == en {
			continue
		}
		source, ok := en.messages[key]
		if !ok {
			continue // a localised command name, or a stray key the tests report
		}
		want, got := source.placeholders(), m.placeholders()
		for _, p := range want {
			if !slices.Contains(got, p) {
				problems = append(problems, fmt.Sprintf("%q: lacks %s, which the English message has", key, p))
			}
		}
		for _, p := range got {
			if !slices.Contains(want, p) {
				problems = append(problems, fmt.Sprintf("%q: has %s, which the English message lacks (nobody fills it)", key, p))
			}
		}
	}
	return problems
}
