package engine

import (
	"reflect"
	"slices"
	"testing"

	"conductor/data"
)

// midGame plays random turns from a started game until turn n.
func midGame(t testing.TB, id, variant string, players, turns int) *Game {
	t.Helper()
	g := started(t, id, variant, players)
	pick := newRNG(7)
	var buf []Action
	for g.Phase() != PhaseOver && g.Turn() < turns {
		s := g.Current()
		buf = g.LegalActions(s, buf[:0])
		// Prefer claims so that the board fills up.
		a := buf[pick.intn(len(buf))]
		for _, b := range buf {
			if b.Kind == ActClaim && pick.intn(3) == 0 {
				a = b
				break
			}
		}
		mustPlay(t, g, s, a)
	}
	return g
}

// TestDeterminizeKeepsTheSeatsView: what the seat sees, it sees again in
// the determinised game, and the game plays on to its end.
func TestDeterminizeKeepsTheSeatsView(t *testing.T) {
	for _, c := range []struct{ board, variant string }{{"usa", ""}, {"europe", ""}, {"marklin", ""}} {
		g := midGame(t, c.board, c.variant, 3, 30)
		if g.Phase() == PhaseOver {
			t.Fatalf("%s: game over already", c.board)
		}
		for seat := range 3 {
			v := g.View(seat)
			d, err := Determinize(v, 5)
			if err != nil {
				t.Fatalf("%s seat %d: %v", c.board, seat, err)
			}
			dv := d.View(seat)
			dv.LastMoveSeat, dv.LastMoveTracks, dv.LastMoveCities = v.LastMoveSeat, v.LastMoveTracks, v.LastMoveCities
			if !reflect.DeepEqual(dv, v) {
				t.Fatalf("%s seat %d: view changed:\n%+v\n%+v", c.board, seat, v, dv)
			}
			if ok, left := d.LastRound(); ok {
				if gl, gleft := g.LastRound(); !gl || left != gleft {
					t.Errorf("%s: last round %d turns, want %d", c.board, left, gleft)
				}
			}
			// The hidden part differs from the real game's (with this many
			// cards, a match would be a bug copying the real state).
			other := (seat + 1) % 3
			if d.Player(other).Hand == g.Player(other).Hand && reflect.DeepEqual(d.deck, g.deck) {
				t.Errorf("%s: the hidden state was copied, not resampled", c.board)
			}
			var buf []Action
			pick := newRNG(11)
			for steps := 0; d.Phase() != PhaseOver; steps++ {
				if steps > 3000 {
					t.Fatalf("%s: no end", c.board)
				}
				s := d.Current()
				buf = d.LegalActions(s, buf[:0])
				mustPlay(t, d, s, buf[pick.intn(len(buf))])
				if err := checkInvariants(d); err != nil {
					t.Fatalf("%s: %v", c.board, err)
				}
			}
		}
	}
}

// TestDeterminizeReadsOnlyTheView: two games that differ only in what a
// seat cannot see give the same determinisations for that seat.
func TestDeterminizeReadsOnlyTheView(t *testing.T) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		g := midGame(t, board, "", 2, 20)
		v := g.View(0)
		// Another hidden state behind the same view.
		alt, err := Determinize(v, 99)
		if err != nil {
			t.Fatal(err)
		}
		if alt.Player(1).Hand == g.Player(1).Hand && reflect.DeepEqual(alt.deck, g.deck) {
			t.Fatalf("%s: the alternative hidden state is the real one", board)
		}
		for seed := range uint64(5) {
			a, err1 := Determinize(v, seed)
			b, err2 := Determinize(alt.View(0), seed)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if stateKey(a) != stateKey(b) {
				t.Fatalf("%s seed %d: determinisations differ with the hidden state", board, seed)
			}
		}
	}
}

// CloneInto gives the same game as Clone, and reusing the copy for another
// game leaves earlier copies (and the original) as they were.
func TestCloneIntoIsAnIndependentCopy(t *testing.T) {
	a := midGame(t, "europe", "", 3, 25)
	b := midGame(t, "usa", "", 2, 12)
	want := FormatState(a)
	var dst Game
	a.CloneInto(&dst)
	if got := FormatState(&dst); got != want {
		t.Fatal("CloneInto differs from the game")
	}
	kept := dst.Clone()
	var buf []Action
	for range 10 {
		buf = dst.LegalActions(dst.Current(), buf[:0])
		mustPlay(t, &dst, dst.Current(), buf[0])
	}
	b.CloneInto(&dst)
	if FormatState(a) != want || FormatState(kept) != want || len(kept.Log()) != len(a.Log()) {
		t.Fatal("reusing a copy changed the original or an earlier copy")
	}
	if FormatState(&dst) != FormatState(b) {
		t.Fatal("CloneInto into a used game differs from the game")
	}
}

// TestDeterminizeWeightedDealsByOdds: the other seats' tickets follow the
// odds (a heavily favoured ticket is almost always held, a ticket of zero
// odds never while others are left), each seat keeps its public counts and
// the seat's own view is unchanged.
func TestDeterminizeWeightedDealsByOdds(t *testing.T) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		g := midGame(t, board, "", 3, 24)
		v := g.View(0)
		// A ticket seat 0 has not seen, of the short pile.
		own := map[data.TicketID]bool{}
		for _, ts := range v.Tickets {
			own[ts.Ticket] = true
		}
		var favoured, shunned data.TicketID = -1, -1
		for _, tk := range g.Board().Tickets {
			if own[tk.ID] || tk.Long || tk.Deck == "bonus" {
				continue
			}
			if favoured < 0 {
				favoured = tk.ID
			} else if shunned < 0 {
				shunned = tk.ID
			}
		}
		odds := func(seat int, tk data.TicketID) float64 {
			switch {
			case tk == favoured && seat == 2:
				return 1e6
			case tk == shunned:
				return 0
			}
			return 1
		}
		heldFavoured := 0
		for seed := range uint64(40) {
			d, err := DeterminizeWeighted(v, seed, odds)
			if err != nil {
				t.Fatalf("%s: %v", board, err)
			}
			dv := d.View(0)
			dv.LastMoveSeat, dv.LastMoveTracks, dv.LastMoveCities = v.LastMoveSeat, v.LastMoveTracks, v.LastMoveCities
			if !reflect.DeepEqual(dv, v) {
				t.Fatalf("%s: the seat's view changed", board)
			}
			if slices.Contains(d.Player(2).Tickets, favoured) {
				heldFavoured++
			}
			for s := 1; s < 3; s++ {
				if slices.Contains(d.Player(s).Tickets, shunned) {
					t.Fatalf("%s seed %d: seat %d holds a ticket of zero odds", board, seed, s)
				}
			}
		}
		if heldFavoured < 39 {
			t.Errorf("%s: the favoured ticket was held by seat 2 in %d of 40 deals", board, heldFavoured)
		}
		// Without odds it deals exactly as Determinize.
		a, _ := Determinize(v, 3)
		b, _ := DeterminizeWeighted(v, 3, nil)
		if stateKey(a) != stateKey(b) {
			t.Fatalf("%s: nil odds deal differently from Determinize", board)
		}
	}
}

// TestDeterminizeDuringSetup: a seat choosing its initial tickets gets
// worlds where it holds the same offer and every other seat stands where
// the view shows it (chosen, choosing, or, on Märklin, about to announce
// its mix); every ticket is somewhere once the setup is over, and the
// world plays on to its end.
func TestDeterminizeDuringSetup(t *testing.T) {
	for _, c := range []struct{ board, variant string }{{"usa", ""}, {"europe", ""}, {"europe", "1912"}, {"europe", "bigcities"}, {"marklin", ""}} {
		g := newGame(t, c.board, c.variant, 4)
		// Seat 1 has chosen, seat 2 was dealt its offer, seat 3 has done
		// nothing yet; seat 0, the one determinising, holds its offer.
		for s := range 3 {
			if mix, n := g.NeedsMix(s); mix {
				mustPlay(t, g, s, Action{Kind: ActDrawTickets, Long: n / 2})
			}
		}
		lo, _ := g.KeepRange(1)
		mustPlay(t, g, 1, KeepTickets(seq(lo)...))
		v := g.View(0)
		name := c.board + "/" + c.variant
		for seed := range uint64(6) {
			d, err := Determinize(v, seed)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			dv := d.View(0)
			dv.LastMoveSeat, dv.LastMoveTracks, dv.LastMoveCities = v.LastMoveSeat, v.LastMoveTracks, v.LastMoveCities
			if !reflect.DeepEqual(dv, v) {
				t.Fatalf("%s: view changed:\n%+v\n%+v", name, v, dv)
			}
			for s := range 4 {
				if m, _ := d.NeedsMix(s); m != (s == 3 && c.board == "marklin") {
					t.Errorf("%s seat %d: needs its mix %v", name, s+1, m)
				}
			}
			// Play the setup out; then every ticket is in a deck, a hand or
			// the box, once.
			var buf []Action
			pick := newRNG(seed)
			checked := false
			for steps := 0; d.Phase() != PhaseOver; steps++ {
				if steps > 4000 {
					t.Fatalf("%s: no end", name)
				}
				s := d.ToAct()
				buf = d.LegalActions(s, buf[:0])
				mustPlay(t, d, s, buf[pick.intn(len(buf))])
				if err := checkInvariants(d); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if d.Phase() != PhaseSetup && !checked {
					checked = true
					if n, want := placedTickets(d), setupLeaves(d); n != want {
						t.Fatalf("%s: %d tickets placed after the setup, want %d", name, n, want)
					}
				}
			}
		}
	}
}

// Determinize refuses a seat with no initial tickets to choose (chosen
// already, or its Märklin mix not announced) and a setup of two steps.
func TestDeterminizeRefusesOtherSetups(t *testing.T) {
	g := newGame(t, "usa", "", 3)
	lo, _ := g.KeepRange(1)
	mustPlay(t, g, 1, KeepTickets(seq(lo)...))
	if _, err := Determinize(g.View(1), 1); err == nil {
		t.Error("a seat that has chosen its tickets got a world")
	}
	if _, err := Determinize(newGame(t, "marklin", "", 3).View(0), 1); err == nil {
		t.Error("a Märklin seat yet to announce its mix got a world")
	}
	if _, err := Determinize(newGame(t, "europe", "mega", 3).View(0), 1); err == nil {
		t.Error("a seat in Mega Europe's two-step setup got a world")
	}
}

// placedTickets counts the tickets in the decks and the hands.
func placedTickets(g *Game) int {
	seen := make(map[data.TicketID]bool)
	for _, t := range slices.Concat(g.tickets[0], g.tickets[1]) {
		seen[t] = true
	}
	n := len(g.tickets[0]) + len(g.tickets[1])
	for i := range g.players {
		for _, t := range slices.Concat(g.players[i].Tickets, g.players[i].Pending) {
			seen[t] = true
		}
		n += len(g.players[i].Tickets) + len(g.players[i].Pending)
	}
	if len(seen) != n {
		return -n // a ticket in two places
	}
	return n
}

// setupLeaves is how many tickets are in play after the setup: all the
// variant's but those put in the box.
func setupLeaves(g *Game) int {
	n := ticketUniverse(g.board, g.variant, false)
	if st := g.variant.Setup[0]; st.Discard == data.DiscardBox {
		for i := range g.players {
			n -= st.Dealt() - len(g.players[i].Tickets)
		}
	}
	return n
}
