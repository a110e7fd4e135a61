package ai

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// fastExpert is an expert with few worlds and the fast rollout policy, for
// tests that play many moves. It searches from the first turn (the level
// itself searches only near the end), so that the tests exercise its
// search everywhere. Its four worlds come in two rounds, so that the
// verdict between rounds (which drops the clearly worse candidates)
// plays its part as in the level's search; what these tests check (legal
// moves, the same move from the same view, nothing read from the hidden
// state) holds for any number of worlds.
func fastExpert(seed uint64) *expert {
	e := newExpert(seed)
	e.maxWorlds, e.round = 4, 2
	e.endTrains = 1 << 30
	e.hardRoll = false
	e.deadline = 0 // the time cap would make a loaded machine's choices differ
	return e
}

// hardRollExpert is an expert with very few worlds (two, each played out
// with hard for every candidate, the dearest playouts there are), from
// the first turn.
func hardRollExpert(seed uint64) *expert {
	e := newExpert(seed)
	e.maxWorlds, e.round = 2, 2
	e.endTrains = 1 << 30
	e.deadline = 0 // the time cap would make a loaded machine's choices differ
	return e
}

// TestExpertNeverReadsHiddenState: in positions met in games on every
// edition at every table size (2 to 5 seats), the expert chooses the same
// move when the hidden state (the opponents' hands and tickets) is
// rewritten: it searches only worlds built from its own view.
func TestExpertNeverReadsHiddenState(t *testing.T) {
	// One position in hardRollEvery is searched with hard playouts too
	// (fewer under the race detector): at least 40 positions, so at least
	// 40/hardRollEvery of them.
	hardRollEvery := 4 + 4*btoi(raceEnabled)
	positions, deviations, hardRolls := 0, 0, 0
	sizes := map[int]int{}
	for _, id := range []string{"usa", "europe", "marklin"} {
		for players := 2; players <= 5; players++ {
			b := testkit.Board(t, id)
			levels := repeatLevel("hard", players)
			levels[1] = "dest"
			m, err := newMatch(b, "", levels, uint64(players))
			if err != nil {
				t.Fatal(err)
			}
			step := 0
			m.Before = func(d match.Decision) error {
				g, seat, v, legal := m.Game, d.Seat, d.View, d.Legal
				step++
				keep := g.Phase() == engine.PhaseKeepTickets && g.Current() == seat
				if (step%(9*players) != 0 || g.Phase() != engine.PhaseTurn) && !keep {
					return nil
				}
				sizes[players]++
				positions++
				other := g.Clone()
				scramble(other, seat)
				w := other.View(seat)
				if !reflect.DeepEqual(v, w) || hiddenEqual(g, other, seat) {
					t.Fatal("scramble broke the view or changed nothing")
				}
				x, y := fastExpert(9), fastExpert(9)
				ax, ay := x.Choose(v, legal), y.Choose(w, other.LegalActions(seat, nil))
				if !ax.Equal(ay) {
					t.Fatalf("%s: %s with the real hidden state, %s with another", id,
						engine.FormatAction(b, ax), engine.FormatAction(b, ay))
				}
				if positions%hardRollEvery == 0 {
					// The same with hard playing the worlds out.
					x, y := hardRollExpert(9), hardRollExpert(9)
					hx, hy := x.Choose(v, legal), y.Choose(w, other.LegalActions(seat, nil))
					if !hx.Equal(hy) {
						t.Fatalf("%s (hard playouts): %s with the real hidden state, %s with another", id,
							engine.FormatAction(b, hx), engine.FormatAction(b, hy))
					}
					hardRolls++
				}
				if !ax.Equal(newPlannerBot(hardOptions).Choose(v, legal)) {
					deviations++
				}
				return nil
			}
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if positions < 40 || hardRolls < 40/hardRollEvery || len(sizes) != 4 {
		t.Fatalf("only %d positions compared (%d with hard playouts), by table size %v", positions, hardRolls, sizes)
	}
	t.Logf("%d positions (by table size %v), the expert left hard's move in %d", positions, sizes, deviations)
}

// TestExpertPlaysLegalGames: the expert finishes games on every edition
// and variant, with 2 to 5 players, choosing only legal actions.
func TestExpertPlaysLegalGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games with the expert")
	}
	players := 2
	for _, b := range testkit.Catalog().Boards() {
		for _, v := range b.Variants {
			levels := repeatLevel("normal", players)
			levels[0] = "expert"
			m, err := newMatch(b, v.ID, levels, uint64(players))
			if err != nil {
				t.Fatal(err)
			}
			m.Bots[0] = fastExpert(uint64(players))
			if err := m.Play(context.Background()); err != nil {
				t.Fatalf("%s/%s with %d players: %v", b.ID, v.ID, players, err)
			}
			players = players%5 + 1
			if players == 1 {
				players = 2
			}
		}
	}
}

// TestExpertIsDeterministic: the same seed and view give the same move.
func TestExpertIsDeterministic(t *testing.T) {
	n := 0
	for _, d := range collectDecisions(t, "europe")[40:60] {
		if d.view.Phase != engine.PhaseTurn {
			continue
		}
		a, b := fastExpert(4).Choose(d.view, d.legal), fastExpert(4).Choose(d.view, d.legal)
		if !a.Equal(b) {
			t.Fatalf("two choices for one view: %+v and %+v", a, b)
		}
		if n++; n%4 != 1 {
			continue
		}
		a, b = hardRollExpert(4).Choose(d.view, d.legal), hardRollExpert(4).Choose(d.view, d.legal)
		if !a.Equal(b) {
			t.Fatalf("two choices for one view (hard playouts): %+v and %+v", a, b)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// With contest set, a turn's candidates end with the claims the other
// seats' inferred tickets want most.
func TestContestedClaimsJoinTheCandidates(t *testing.T) {
	found := 0
	for _, d := range collectDecisions(t, "usa")[60:] {
		if d.view.Phase != engine.PhaseTurn {
			continue
		}
		e := newExpert(1)
		base := e.hard.Choose(d.view, d.legal)
		plain := e.candidates(d.view, d.legal, base)
		e.contest = 2
		more := e.candidates(d.view, d.legal, base)
		extra := e.contested(&d.view, d.legal)
		for _, a := range extra {
			if a.Kind != engine.ActClaim || e.reader.demand[a.Track] <= 0.05 {
				t.Fatalf("contested %s (demand %v)", engine.FormatAction(d.view.Board, a), e.reader.demand[a.Track])
			}
			if !slices.ContainsFunc(more, func(b engine.Action) bool { return sameMove(a, b) }) {
				t.Fatalf("contested %s is not among the candidates", engine.FormatAction(d.view.Board, a))
			}
		}
		if len(extra) > 0 && len(more) > len(plain) {
			found++
		}
	}
	if found < 5 {
		t.Fatalf("contested claims added in only %d positions", found)
	}
}

// With departZ set, a candidate whose mean beats hard's move by the margin
// is played only when the paired difference clears it by that many
// standard errors; without, the mean is enough.
func TestDepartureWantsItsStandardErrors(t *testing.T) {
	hard := []float64{0, 1, 0, 1, 0, 1, 0, 1}
	noisy := []float64{1, 0, 1, 0, 1, 0, 1, 1} // +0.125 a world, differences ±1
	clear := []float64{0.2, 1.2, 0.2, 1.2, 0.2, 1.2, 0.2, 1.2}
	e := newExpert(1)
	if !e.departs(noisy, hard) || !e.departs(clear, hard) {
		t.Fatal("without departZ, a mean above the margin should be played")
	}
	e.departZ = 1
	if e.departs(noisy, hard) {
		t.Fatal("with departZ 1, +0.125 ± 0.35 should not be played")
	}
	if !e.departs(clear, hard) {
		t.Fatal("with departZ 1, +0.2 ± 0 should be played")
	}
}

// With allKeeps set, the expert searches a choice of drawn tickets however
// many trains are left; without, it keeps as hard does until the end
// nears.
func TestAllKeepsSearchesEarlyTicketChoices(t *testing.T) {
	searched := 0
	for _, d := range collectDecisions(t, "usa") {
		if d.view.Phase != engine.PhaseKeepTickets || len(d.legal) < 2 {
			continue
		}
		fewest := fewestTrains(&d.view)
		if fewest <= 15 {
			continue
		}
		e := newExpert(1)
		e.maxWorlds, e.round, e.deadline = 4, 4, 0
		e.Choose(d.view, d.legal)
		if e.stats.Searches != 0 {
			t.Fatalf("turn %d: searched a keep at %d trains without allKeeps", d.view.Turn, fewest)
		}
		e.allKeeps = true
		e.Choose(d.view, d.legal)
		if e.stats.Searches != 1 {
			t.Fatalf("turn %d: %d searches of a keep at %d trains with allKeeps, want 1", d.view.Turn, e.stats.Searches, fewest)
		}
		searched++
	}
	if searched == 0 {
		t.Fatal("no early ticket choice met")
	}
}

// The second card of a draw is searched like the first once the end
// nears (some seat down to endTrains), and left to hard before; with
// secondDraw off, never.
func TestSecondDrawSearchedNearTheEnd(t *testing.T) {
	early, late := 0, 0
	for _, d := range collectDecisions(t, "usa") {
		if d.view.Phase != engine.PhaseSecondDraw || len(d.legal) < 2 {
			continue
		}
		e := newExpert(1)
		e.maxWorlds, e.round, e.deadline = 4, 4, 0
		e.Choose(d.view, d.legal)
		fewest := fewestTrains(&d.view)
		nearEnd := fewest <= e.endTrains
		want := 0
		if nearEnd {
			want = 1
		}
		if e.stats.Searches != want {
			t.Fatalf("turn %d, %d trains at the fewest: %d searches of the second card, want %d", d.view.Turn, fewest, e.stats.Searches, want)
		}
		if nearEnd {
			late++
			off := newExpert(1)
			off.maxWorlds, off.round, off.deadline, off.secondDraw = 4, 4, 0, false
			if a := off.Choose(d.view, d.legal); off.stats.Searches != 0 || !a.Equal(off.hard.Choose(d.view, d.legal)) {
				t.Fatalf("turn %d: with secondDraw off, the second card was searched or not hard's", d.view.Turn)
			}
		} else {
			early++
		}
	}
	if early == 0 || late == 0 {
		t.Fatalf("second draws met: %d before the end nears, %d after; want some of each", early, late)
	}
}

// A turn's candidates hold the draw of tickets with the fewest long ones
// and, on Märklin, the passenger trip collecting the most goods (hard's
// bestTrip): moves hard seldom makes before its last turns, which the
// search finds winning near the end.
func TestTicketDrawAndRichestTripJoinTheCandidates(t *testing.T) {
	for _, board := range []string{"usa", "marklin"} {
		draws, trips := 0, 0
		for _, d := range collectDecisions(t, board) {
			if d.view.Phase != engine.PhaseTurn {
				continue
			}
			e := newExpert(1)
			cands := e.candidates(d.view, d.legal, e.hard.Choose(d.view, d.legal))
			has := func(a engine.Action) bool {
				return slices.ContainsFunc(cands, func(b engine.Action) bool { return sameMove(a, b) })
			}
			short, found := engine.Action{}, false
			for _, a := range d.legal {
				if a.Kind == engine.ActDrawTickets && (!found || a.Long < short.Long) {
					short, found = a, true
				}
			}
			if found {
				if !has(short) {
					t.Fatalf("%s turn %d: no draw of %d long tickets among the candidates", board, d.view.Turn, short.Long)
				}
				draws++
			}
			if trip, goods, ok := bestTrip(read(&d.view), d.legal); ok && goods > 0 {
				if !has(trip) {
					t.Fatalf("%s turn %d: the trip of %d goods is not among the candidates", board, d.view.Turn, goods)
				}
				trips++
			}
		}
		if draws < 10 || board == "marklin" && trips < 3 {
			t.Fatalf("%s: only %d positions with a ticket draw and %d with a trip", board, draws, trips)
		}
	}
}

// On a board with a longest path bonus, the claim that lengthens the
// seat's longest path most is among a turn's candidates; on Märklin, which
// has none, no such claim is looked for.
func TestPathLengtheningClaimJoinsTheCandidates(t *testing.T) {
	lengthened := 0
	for _, d := range collectDecisions(t, "usa") {
		if d.view.Phase != engine.PhaseTurn {
			continue
		}
		e := newExpert(1)
		cands := e.candidates(d.view, d.legal, e.hard.Choose(d.view, d.legal))
		var own []data.TrackID
		for tr, o := range d.view.Owners {
			if int(o) == d.view.Seat {
				own = append(own, data.TrackID(tr))
			}
		}
		var ps engine.PathSearch
		longestWith := func(tr data.TrackID) int {
			l, _ := ps.Longest(d.view.Board, append(slices.Clone(own), tr))
			return l
		}
		before, _ := ps.Longest(d.view.Board, own)
		best := before
		for _, a := range d.legal {
			if a.Kind == engine.ActClaim {
				best = max(best, longestWith(a.Track))
			}
		}
		if best == before {
			continue
		}
		lengthened++
		if !slices.ContainsFunc(cands, func(a engine.Action) bool { return a.Kind == engine.ActClaim && longestWith(a.Track) == best }) {
			t.Fatalf("usa turn %d: no claim lengthening the longest path from %d to %d among %d candidates", d.view.Turn, before, best, len(cands))
		}
	}
	if lengthened < 10 {
		t.Fatalf("usa: a claim lengthened the longest path in only %d positions", lengthened)
	}
	for _, d := range collectDecisions(t, "marklin") {
		e := newExpert(1)
		if a, ok := e.pathLengthening(&d.view, d.legal); ok {
			t.Fatalf("marklin turn %d: %s lengthens a longest path Märklin does not score", d.view.Turn, engine.FormatAction(d.view.Board, a))
		}
	}
}

// At a full table (4 and 5 seats, on a board without a most-tickets
// bonus) the expert's unsearched moves are tableHard's and its playouts
// play its own seat with the same knobs (ownRoller), the other seats as
// hard; elsewhere, and with tableKnobs off, everything is hard's.
func TestTableKnobsAtFullTables(t *testing.T) {
	differ := 0
	for _, id := range []string{"usa", "europe", "marklin"} {
		for players := 3; players <= 5; players++ {
			b := testkit.Board(t, id)
			m, err := newMatch(b, "", repeatLevel("hard", players), uint64(players))
			if err != nil {
				t.Fatal(err)
			}
			full := players >= 4 && id != "marklin"
			step, playouts := 0, 0
			m.Before = func(d match.Decision) error {
				v, legal := d.View, d.Legal
				step++
				if v.Phase != engine.PhaseTurn || fewestTrains(&v) <= 15 || step%5 != 0 {
					return nil
				}
				if fullTable(v.Board, len(v.Players)) != full {
					t.Fatalf("%s, %d seats: fullTable %v, want %v", id, players, !full, full)
				}
				e := newExpert(1)
				want := e.hard.Choose(v, legal)
				if full {
					want = e.tableHard.Choose(v, legal)
					if !want.Equal(e.hard.Choose(v, legal)) {
						differ++
					}
				}
				if a := e.Choose(v, legal); !a.Equal(want) {
					t.Fatalf("%s, %d seats, turn %d: %s, want %s", id, players, v.Turn,
						engine.FormatAction(b, a), engine.FormatAction(b, want))
				}
				off := newExpert(1)
				off.tableKnobs = false
				if a := off.Choose(v, legal); !a.Equal(off.hard.Choose(v, legal)) {
					t.Fatalf("%s, %d seats, turn %d: with tableKnobs off, not hard's move", id, players, v.Turn)
				}
				if playouts < 2 {
					playouts++
					// One playout from this position: who planned the seat.
					world, err := engine.Determinize(v, uint64(step))
					if err != nil {
						t.Fatal(err)
					}
					e.prepare(&v)
					e.playout(world, v.Seat, legal[0], 1)
					own, byRoller := e.ownRoller.keep.made > 0, len(e.roller.keep.seats) > v.Seat && e.roller.keep.seats[v.Seat].ok
					if own != full || byRoller == full {
						t.Fatalf("%s, %d seats: own seat planned by the table roller %v, by the roller %v; full table %v",
							id, players, own, byRoller, full)
					}
				}
				return nil
			}
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
			if playouts == 0 {
				t.Fatalf("%s, %d seats: no mid-game position met", id, players)
			}
		}
	}
	if differ == 0 {
		t.Fatal("tableHard never moved otherwise than hard at a full table: the test tells nothing")
	}
	t.Logf("at full tables tableHard moved otherwise than hard %d times", differ)
}
