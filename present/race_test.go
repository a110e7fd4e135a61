package present

import (
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
)

// The race told as it happens, over every recorded game and in every
// language: each seat is told once that it is down to 5 trains or fewer,
// when it gets there, and never once the last round has begun; the
// longest path is told each time it passes to other hands, and only then.
// At least one game hears of the end before it comes.
func TestTheRaceIsToldAsItHappens(t *testing.T) {
	cat := testkit.Catalog()
	warnedBeforeTheEnd := 0
	for _, rg := range recorded.All(t) {
		for _, loc := range Languages {
			warned := map[int]bool{}
			var holders []int
			lastRound := false
			players := []Player{{Name: "Ada"}, {Name: "Bo"}, {Name: "Cy"}, {Name: "Di"}, {Name: "Ed"}}
			_, err := rg.Replay(cat, func(g *engine.Game, _ engine.Move, ev []engine.Event) {
				v := g.Public()
				lines := RaceLines(loc, &v, players, ev)
				low := T(loc, "race.trains_low", "player", "X", "n", 3)
				lowStart := low[:strings.Index(low, "X")]
				for seat, p := range v.Players {
					told := 0
					for _, l := range lines {
						if strings.HasPrefix(l, lowStart+"**"+players[seat].Name+"**") {
							told++
						}
					}
					due := p.Trains <= trainsWarning && !warned[seat] && !v.LastRound && claimedBy(ev, seat)
					if (told == 1) != due || told > 1 {
						t.Fatalf("%s %s, turn %d: seat %d at %d trains (last round %v) told %d times: %q", rg.Name, loc, v.Turn, seat, p.Trains, v.LastRound, told, lines)
					}
					if p.Trains <= trainsWarning && claimedBy(ev, seat) {
						warned[seat] = true // told now, or it jumped past
					}
					if told == 1 && !lastRound {
						warnedBeforeTheEnd++
					}
				}
				lastRound = v.LastRound
				if v.Board.Rules.LongestPathBonus > 0 && claimedBy(ev, v.LastMoveSeat) {
					_, now := longestHolders(&v)
					changed := !equalInts(now, holders)
					longest := T(loc, "race.longest", "players", "X", "length", 2)
					longestStart := longest[:strings.Index(longest, "X")]
					saidLongest := false
					for _, l := range lines {
						saidLongest = saidLongest || strings.HasPrefix(l, longestStart)
					}
					if saidLongest != changed {
						t.Fatalf("%s %s, turn %d: the longest path went from %v to %v, told: %v (%q)", rg.Name, loc, v.Turn, holders, now, saidLongest, lines)
					}
					holders = now
				}
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if warnedBeforeTheEnd == 0 {
		t.Fatal("no game heard of its end before it came")
	}
}

func claimedBy(ev []engine.Event, seat int) bool {
	for _, e := range ev {
		if e.Kind == engine.EvClaim && e.Seat == seat {
			return true
		}
	}
	return false
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A shared score on the final sheet says which tie-break settled it, with
// both players' counts, or that none did; in every language.
func TestTheTieBreakIsSaid(t *testing.T) {
	cat := testkit.Catalog()
	usa, err := cat.Board("usa")
	if err != nil {
		t.Fatal(err)
	}
	eu, err := cat.Board("europe")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ada", "Bo", "Cy"}
	for _, loc := range Languages {
		// USA: tickets first, then the longest path.
		fs := &engine.FinalScore{Players: []engine.PlayerScore{
			{Total: 18, CompletedTickets: 2, LongestPath: 9},
			{Total: 18, CompletedTickets: 2, LongestPath: 12},
			{Total: 30},
		}, Ranking: []int{2, 1, 0}, Places: []int{3, 2, 1}}
		lines := TieBreakLines(loc, usa, fs, names)
		want := T(loc, "final.tie", "a", "**Bo**", "b", "**Ada**", "points", 18, "why", T(loc, "final.tie.longest", "n", 12, "m", 9))
		if len(lines) != 1 || lines[0] != want {
			t.Errorf("%s: %q, want %q", loc, lines, want)
		}
		// Europe, tied on everything: the place is shared.
		fs = &engine.FinalScore{Players: []engine.PlayerScore{{Total: 40}, {Total: 40}}, Ranking: []int{0, 1}, Places: []int{1, 1}}
		lines = TieBreakLines(loc, eu, fs, names)
		if want := T(loc, "final.tie_shared", "a", "**Ada**", "b", "**Bo**", "points", 40); len(lines) != 1 || lines[0] != want {
			t.Errorf("%s: %q, want %q", loc, lines, want)
		}
		// No tie, nothing said.
		fs = &engine.FinalScore{Players: []engine.PlayerScore{{Total: 41}, {Total: 40}}, Ranking: []int{0, 1}, Places: []int{1, 2}}
		if lines := TieBreakLines(loc, eu, fs, names); len(lines) != 0 {
			t.Errorf("%s: %q for no tie", loc, lines)
		}
	}
	// The engine's ranking and the line agree on a real tie-break.
	p, q := engine.PlayerScore{CompletedTickets: 3}, engine.PlayerScore{CompletedTickets: 2}
	if rule, first, ok := engine.DecidingTieBreak(eu, &p, &q); !ok || !first || rule != data.TieTickets {
		t.Errorf("DecidingTieBreak = %v %v %v", rule, first, ok)
	}
}
