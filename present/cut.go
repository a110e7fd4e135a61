package present

import (
	"strings"
	"unicode/utf8"
)

// Discord counts its limits (a choice's 100, a message's 2,000) in
// characters, not bytes, and refuses text that is not UTF-8: so every cut
// here counts runes and never splits one ("→" is 3 bytes, 🚂 is 4).

// Ellipsis marks where a text was cut.
const Ellipsis = "…"

// Prefix keeps the first n characters of s, unmarked: for what people type,
// cut before it is matched.
func Prefix(s string, n int) string {
	if len(s) <= n { // bytes ≥ runes: short enough
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// Cut keeps s within n characters, ending with "…" when it cuts.
func Cut(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return Prefix(s, n-1) + Ellipsis
}

// Tail keeps the end of s within n characters (the latest lines matter most):
// "…" and a line break, then the last lines that fit, starting at a line
// when one begins in the part kept.
func Tail(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	const mark = Ellipsis + "\n"
	keep := n - utf8.RuneCountInString(mark)
	if keep <= 0 {
		return Prefix(mark, n)
	}
	// Step back keep runes from the end.
	start := len(s)
	for range keep {
		_, size := utf8.DecodeLastRuneInString(s[:start])
		start -= size
	}
	tail := s[start:]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i+1 < len(tail) {
		tail = tail[i+1:]
	}
	return mark + tail
}
