package present

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// cutInputs put multi-byte characters (2, 3 and 4 bytes) across every byte
// position a byte-counting cut would land on.
var cutInputs = []string{
	"",
	"abc",
	strings.Repeat("→", 60),        // 180 bytes, 60 characters
	strings.Repeat("a", 99) + "→b", // "→" straddles byte 100
	strings.Repeat("🚂", 30) + " Zürich → Wien", // 4-byte emoji first
	"Saarbrücken → Frankreich (grün)\nMünchen → Österreich 🚂\nline three →→→\n",
	strings.Repeat("ä\n", 70),
}

func TestCutsStayUTF8AndWithinCharacters(t *testing.T) {
	for _, s := range cutInputs {
		for n := 0; n <= utf8.RuneCountInString(s)+2; n++ {
			for name, cut := range map[string]func(string, int) string{"Prefix": Prefix, "Cut": Cut, "Tail": Tail} {
				got := cut(s, n)
				if !utf8.ValidString(got) {
					t.Fatalf("%s(%q, %d) = %q: not UTF-8", name, s, n, got)
				}
				if c := utf8.RuneCountInString(got); c > n {
					t.Fatalf("%s(%q, %d) = %q: %d characters", name, s, n, got, c)
				}
				if utf8.RuneCountInString(s) <= n && got != s {
					t.Fatalf("%s(%q, %d) = %q: cut a text that fits", name, s, n, got)
				}
			}
		}
	}
}

func TestCutKeepsTheStartAndMarksIt(t *testing.T) {
	s := strings.Repeat("a", 99) + "→b" // 101 characters, 103 bytes
	if got := Prefix(s, 100); got != strings.Repeat("a", 99)+"→" {
		t.Fatalf("Prefix = %q: want the first 100 characters", got)
	}
	if got := Cut(s, 100); got != strings.Repeat("a", 99)+Ellipsis {
		t.Fatalf("Cut = %q", got)
	}
	// 100 characters of 3 bytes each fit a 100-character limit whole.
	arrows := strings.Repeat("→", 100)
	if Cut(arrows, 100) != arrows || Prefix(arrows, 100) != arrows {
		t.Fatal("a text of 100 characters (300 bytes) was cut at 100")
	}
}

func TestTailKeepsWholeLatestLines(t *testing.T) {
	s := "first → line\nsecond 🚂 line\nthird → line"
	got := Tail(s, 30)
	if got != "…\nsecond 🚂 line\nthird → line" {
		t.Fatalf("Tail = %q: want the last whole lines after a mark", got)
	}
	// One long line: its end, cut on a character.
	long := strings.Repeat("🚂", 50)
	if got := Tail(long, 10); got != "…\n"+strings.Repeat("🚂", 8) {
		t.Fatalf("Tail = %q", got)
	}
}
