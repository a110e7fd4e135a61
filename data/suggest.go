package data

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold lowercases a name and strips accents and punctuation, so that
// "zurich", "Zürich" and "ZURICH" compare equal.
func Fold(s string) string {
	var sb strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			sb.WriteRune(unicode.ToLower(r))
		case r == 'ß':
			sb.WriteString("ss")
		}
	}
	return sb.String()
}

// FindCity resolves a name typed by a person: exact, then accent- and
// case-insensitive, then a unique prefix.
func (b *Board) FindCity(name string) (CityID, bool) {
	if id, ok := b.byName[name]; ok {
		return id, true
	}
	f := Fold(name)
	if f == "" {
		return 0, false
	}
	found, n := CityID(0), 0
	for i, c := range b.Cities {
		cf := Fold(c.Name)
		if cf == f {
			return CityID(i), true
		}
		if strings.HasPrefix(cf, f) {
			found, n = CityID(i), n+1
		}
	}
	return found, n == 1
}

// Suggest returns the node name closest to a misspelt one, or "" when none is close.
func (b *Board) Suggest(name string) string {
	names := make([]string, len(b.Cities))
	for i, c := range b.Cities {
		names[i] = c.Name
	}
	return Nearest(name, names)
}

// Nearest returns the one of names closest to a misspelt name, compared
// folded (so "zurich" is "Zürich"), or "" when none is close enough to be
// what was meant: at most two letters off, or a third of the name.
func Nearest(name string, names []string) string {
	f := Fold(name)
	best, bestD := "", 1<<30
	for _, n := range names {
		if d := editDistance(f, Fold(n)); d < bestD {
			best, bestD = n, d
		}
	}
	if f != "" && bestD <= max(2, len([]rune(f))/3) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
