package engine

import (
	"testing"
)

// TestShownCardsAreInTheHand: the cards the table saw a player take face up
// and not play since are always in its hand; they come and go with face-up
// draws and payments, and a determinised game deals them to their holders.
func TestShownCardsAreInTheHand(t *testing.T) {
	for _, board := range []string{"usa", "europe", "marklin"} {
		g := started(t, board, "", 3)
		pick := newRNG(11)
		var buf []Action
		grew, shrank, determinised := 0, 0, 0
		for steps := 0; g.Phase() != PhaseOver && steps < 3000; steps++ {
			s := g.Current()
			buf = g.LegalActions(s, buf[:0])
			a := buf[pick.intn(len(buf))]
			for _, b := range buf {
				if (b.Kind == ActClaim || b.Kind == ActDraw && b.Slot != DeckSlot) && pick.intn(2) == 0 {
					a = b
					break
				}
			}
			before := g.Public().Players[s].Shown.Total()
			mustPlay(t, g, s, a)
			after := g.Public().Players[s].Shown.Total()
			switch {
			case after > before:
				grew++
			case after < before:
				shrank++
			}
			for i, p := range g.Public().Players {
				for c, k := range p.Shown {
					if k > g.players[i].Hand[c] || k < 0 {
						t.Fatalf("%s: seat %d was seen with %d %v, holds %d", board, i, k, Card(c), g.players[i].Hand[c])
					}
				}
			}
			if (g.Phase() == PhaseTurn || g.Phase() == PhaseSecondDraw) && steps%25 == 0 {
				v := g.View(g.Current())
				d, err := Determinize(v, uint64(steps))
				if err != nil {
					t.Fatalf("%s: %v", board, err)
				}
				for i, p := range v.Players {
					for c, k := range p.Shown {
						if d.players[i].Hand[c] < k {
							t.Fatalf("%s: the determinised seat %d holds %d %v, was seen taking %d", board, i, d.players[i].Hand[c], Card(c), k)
						}
					}
					if d.players[i].Hand.Total() != p.Cards {
						t.Fatalf("%s: the determinised seat %d holds %d cards, want %d", board, i, d.players[i].Hand.Total(), p.Cards)
					}
				}
				determinised++
			}
		}
		if grew == 0 || shrank == 0 || determinised == 0 {
			t.Errorf("%s: shown cards grew %d times, shrank %d, %d games determinised: want some of each", board, grew, shrank, determinised)
		}
	}
}
