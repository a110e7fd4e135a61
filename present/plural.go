package present

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Plural rules are CLDR's, as golang.org/x/text carries them: which form a
// number takes in a language ("one" for 0 and 1 in French, for 1 alone in
// English, Italian and German). Counts in messages are whole numbers, so
// only the integer rules matter here.

// formNames are CLDR's names of the plural forms, as catalogues write them.
var formNames = map[plural.Form]string{
	plural.Zero: "zero", plural.One: "one", plural.Two: "two",
	plural.Few: "few", plural.Many: "many", plural.Other: "other",
}

// parseForm reads a CLDR form name.
func parseForm(name string) (plural.Form, bool) {
	for f, n := range formNames {
		if n == name {
			return f, true
		}
	}
	return 0, false
}

// formOf is the plural form of the whole number n in a language.
func formOf(tag language.Tag, n int) plural.Form {
	if n < 0 {
		n = -n
	}
	return plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)
}

// formSet is what a language's plural rule does with whole numbers: the
// forms they take (a catalogue must give each of them) and, per form, the
// one number it stands for when it stands for exactly one ("one" is 1 in
// English; in French it is 0 and 1, so a French "one" form must show the
// number).
type formSet struct {
	forms  []plural.Form
	single map[plural.Form]int
}

var formSets sync.Map // language.Tag -> *formSet

// formsOf samples the rule on 0..1000 and on powers of ten up to a
// billion, far beyond any count of a game.
func formsOf(tag language.Tag) *formSet {
	if fs, ok := formSets.Load(tag); ok {
		return fs.(*formSet)
	}
	numbers := map[plural.Form][]int{}
	sample := func(n int) {
		f := formOf(tag, n)
		if len(numbers[f]) < 2 {
			numbers[f] = append(numbers[f], n)
		}
	}
	for n := 0; n <= 1000; n++ {
		sample(n)
	}
	for n := 10_000; n <= 1_000_000_000; n *= 10 {
		sample(n)
	}
	fs := &formSet{single: map[plural.Form]int{}}
	for _, f := range []plural.Form{plural.Zero, plural.One, plural.Two, plural.Few, plural.Many, plural.Other} {
		if ns, ok := numbers[f]; ok {
			fs.forms = append(fs.forms, f)
			if len(ns) == 1 {
				fs.single[f] = ns[0]
			}
		}
	}
	formSets.Store(tag, fs)
	return fs
}

// countOf reads a count from a message argument: any integer, or a
// string holding one, signed or not ("+3", "−2", as score lines show
// points). Anything else is not a count.
func countOf(v any) (int, bool) {
	switch v := v.(type) {
	case int:
		return v, true
	case int8:
		return int(v), true
	case int16:
		return int(v), true
	case int32:
		return int(v), true
	case int64:
		if v > math.MaxInt32 || v < math.MinInt32 {
			return 0, false
		}
		return int(v), true
	case uint8:
		return int(v), true
	case uint16:
		return int(v), true
	case uint32:
		return int(v), true
	case uint:
		if v > math.MaxInt32 {
			return 0, false
		}
		return int(v), true
	case uint64:
		if v > math.MaxInt32 {
			return 0, false
		}
		return int(v), true
	case string:
		s := v
		for _, sign := range []string{"+", "−", "-"} {
			if rest, ok := strings.CutPrefix(s, sign); ok {
				s = rest
				break
			}
		}
		if s == "" || strings.Trim(s, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false
		}
		return n, true
	}
	return 0, false
}
