package present

import (
	"strings"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit"
)

// The status line tells, in one line, each seat's points and trains left,
// whose turn it is, who holds the longest path (all who share it) on a
// board that scores one, and the last round; nothing before the game
// starts or after it ends.
func TestStatusLine(t *testing.T) {
	b := testkit.Board(t, "usa")
	owners := make([]int8, len(b.Tracks))
	for i := range owners {
		owners[i] = -1
	}
	own := func(seat int8, a, z string) { owners[testkit.AnyTrack(t, b, a, z)] = seat }
	own(0, "Seattle", "Portland")       // 1
	own(0, "Portland", "San Francisco") // 5: alice's path is 6
	own(1, "Duluth", "Omaha")           // 2
	own(1, "Omaha", "Kansas City")      // 1
	v := &engine.PublicView{Board: b, Phase: engine.PhaseTurn, Current: 1, Owners: owners,
		Players: []engine.PublicPlayer{{Score: 11, Trains: 39}, {Score: 3, Trains: 1}}}
	players := []Player{{Name: "alice"}, {Name: "Vera", Bot: true, Level: "hard"}}
	got := StatusLine("en", v, players)
	want := "🔴 alice 11 pts · 39 trains | ▶ 🔵 🤖 Vera 3 pts · 1 train | longest path: alice (6 trains)"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}

	// Vera's path: Denver – Omaha (4) – Kansas City (1) – Saint Louis (2);
	// Duluth – Omaha is a branch off it.
	own(1, "Kansas City", "Saint Louis")
	own(1, "Denver", "Omaha")
	v.LastRound, v.Current = true, 0
	got = StatusLine("fr", v, players)
	want = "▶ 🔴 alice 11 pts · 39 wagons | 🔵 🤖 Vera 3 pts · 1 wagon | plus long chemin\u00a0: 🤖 Vera (7 wagons) | 🚨 dernier tour"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}

	// Helena – Seattle (6) – Portland – San Francisco.
	own(0, "Seattle", "Helena")
	if got := StatusLine("en", v, players); !strings.Contains(got, "longest path: alice (12 trains)") {
		t.Errorf("a longer path: %q", got)
	}
	m := testkit.Board(t, "marklin")
	mv := &engine.PublicView{Board: m, Phase: engine.PhaseTurn, Owners: make([]int8, len(m.Tracks)), Players: v.Players}
	if got := StatusLine("de", mv, players); strings.Contains(got, "Strecke") {
		t.Errorf("Märklin scores no longest path: %q", got)
	}
	for _, phase := range []engine.Phase{engine.PhaseSetup, engine.PhaseOver} {
		v.Phase = phase
		if got := StatusLine("en", v, players); got != "" {
			t.Errorf("phase %v: %q", phase, got)
		}
	}
}

func TestLongestHoldersShareATie(t *testing.T) {
	b := testkit.Board(t, "usa")
	owners := make([]int8, len(b.Tracks))
	for i := range owners {
		owners[i] = -1
	}
	owners[testkit.AnyTrack(t, b, "Duluth", "Omaha")] = 0
	owners[testkit.AnyTrack(t, b, "Atlanta", "Raleigh")] = 1
	v := &engine.PublicView{Board: b, Owners: owners, Players: make([]engine.PublicPlayer, 3)}
	n, holders := longestHolders(v)
	if n != 2 || len(holders) != 2 || holders[0] != 0 || holders[1] != 1 {
		t.Errorf("got %d %v, want 2 [0 1]", n, holders)
	}
}

// A message is read back from a text, with its placeholders' values, in
// the language it was written in; one with plural forms is not looked for.
func TestFindMessage(t *testing.T) {
	text := "⛔ " + T("fr", "claim.bad_route", "route", "Pariss Wien", "example", "Paris – Wien") + "\nplus"
	found := FindMessage("fr", "claim.bad_route", text)
	if len(found) != 1 || found[0].Values["route"] != "Pariss Wien" || found[0].Values["example"] != "Paris – Wien" ||
		text[found[0].End:] != "\nplus" || text[:found[0].Start] != "⛔ " {
		t.Fatalf("got %+v in %q", found, text)
	}
	if f := FindMessage("en", "claim.bad_route", text); len(f) != 0 {
		t.Errorf("the English message found in French: %+v", f)
	}
	if f := FindMessage("en", "board.cooldown", T("en", "board.cooldown", "seconds", 5)); f != nil {
		t.Errorf("a message with plural forms was read back: %+v", f)
	}
	// A command in the message reads as the terminal types it.
	text = T("fr", "term.how", "deck", "pioche")
	if f := FindMessage("fr", "term.how", "x "+text); len(f) != 1 || f[0].Values["deck"] != "pioche" {
		t.Errorf("%q: %+v", text, f)
	}
}

// BenchmarkStatusLine: the line of a late position of a five-player USA
// game (every track owned, each seat's path searched), as a board under
// the table's lock builds it.
func BenchmarkStatusLine(b *testing.B) {
	board := testkit.Board(b, "usa")
	owners := make([]int8, len(board.Tracks))
	for i := range owners {
		owners[i] = int8(i % 5)
	}
	v := &engine.PublicView{Board: board, Phase: engine.PhaseTurn, Owners: owners, Players: make([]engine.PublicPlayer, 5)}
	players := []Player{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "Vera", Bot: true, Level: "hard"}}
	b.ReportAllocs()
	for b.Loop() {
		StatusLine("en", v, players)
	}
}

// The status line parts again into one short line a seat, then the longest path and the last
// round, for a layout that reads at 400 pixels.
func TestSplitStatus(t *testing.T) {
	line := "🔴 alice 11 pts · 39 trains | ▶ 🔵 🤖 Vera 3 pts · 1 train | longest path: alice (6 trains) | 🚨 last round"
	got := SplitStatus(line)
	want := []string{"🔴 alice 11 pts · 39 trains", "▶ 🔵 🤖 Vera 3 pts · 1 train", "longest path: alice (6 trains)", "🚨 last round"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q", got)
	}
	if SplitStatus("") != nil {
		t.Error("no status, no lines")
	}
	for _, l := range got {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("%q: %d characters, too long for one line at 400 px", l, n)
		}
	}
}
