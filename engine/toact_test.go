package engine

import "testing"

// TestToAct: the game waits during setup for the first seat still choosing
// its tickets (through every step: Mega Europe has two), whoever else
// chose already; then for the current seat, which alone has legal actions;
// once the game is over, for nobody.
func TestToAct(t *testing.T) {
	g := newGame(t, "europe", "mega", 3)
	if len(g.variant.Setup) < 2 {
		t.Fatal("mega europe should choose its first tickets in two steps")
	}
	// Seat 3 chooses first: the game still waits for seat 1.
	for range len(g.variant.Setup) {
		_, hi := g.KeepRange(2)
		mustPlay(t, g, 2, KeepTickets(seq(hi)...))
	}
	for _, want := range []int{0, 1} {
		for step := range len(g.variant.Setup) {
			if got := g.ToAct(); got != want {
				t.Fatalf("setup step %d: seat %d to act, want %d", step, got, want)
			}
			_, hi := g.KeepRange(want)
			mustPlay(t, g, want, KeepTickets(seq(hi)...))
		}
	}
	if g.Phase() != PhaseTurn {
		t.Fatalf("every seat chose, phase %v", g.Phase())
	}
	pick := newRNG(11)
	var buf []Action
	for steps := 0; g.Phase() != PhaseOver; steps++ {
		if steps > 5000 {
			t.Fatal("no end after 5000 actions")
		}
		seat := g.ToAct()
		if seat != g.Current() {
			t.Fatalf("phase %v: seat %d to act, seat %d current", g.Phase(), seat, g.Current())
		}
		for s := range g.NumPlayers() {
			if n := len(g.LegalActions(s, nil)); (n > 0) != (s == seat) {
				t.Fatalf("phase %v: seat %d has %d legal actions, seat %d to act", g.Phase(), s, n, seat)
			}
		}
		buf = g.LegalActions(seat, buf[:0])
		mustPlay(t, g, seat, buf[pick.intn(len(buf))])
	}
	if got := g.ToAct(); got != -1 {
		t.Fatalf("game over: seat %d to act, want -1 (nobody)", got)
	}
}
