package engine

import (
	"math/bits"
	"slices"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// ticketHungryGame plays a game in which seats often draw tickets and keep
// as few as they may, calling check after every action, so that tickets go
// back under the decks often and the decks cycle.
func ticketHungryGame(t *testing.T, board, variant string, seed uint64, check func(g *Game)) {
	t.Helper()
	g, err := New(Config{Board: testkit.Board(t, board), Variant: variant, Players: 3, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	pick := newRNG(seed)
	var buf []Action
	for steps := 0; g.Phase() != PhaseOver && steps < 2000; steps++ {
		s := g.ToAct()
		buf = g.LegalActions(s, buf[:0])
		a := buf[pick.intn(len(buf))]
		for _, b := range buf {
			if b.Kind == ActDrawTickets && pick.intn(2) == 0 {
				a = b
				break
			}
		}
		if g.Phase() == PhaseSetup || g.Phase() == PhaseKeepTickets {
			// The fewest tickets allowed, so that most go back.
			for _, b := range buf {
				if b.Kind == ActKeep && (a.Kind != ActKeep || bits.OnesCount64(b.Keep) < bits.OnesCount64(a.Keep)) {
					a = b
				}
			}
		}
		mustPlay(t, g, s, a)
		check(g)
	}
}

// TestGivenBackTicketsAreWhereTheSeatKnows: a ticket a seat's view lists as
// given back is where the view says: out of the game (in no deck and no
// hand) or in its deck below every ticket drawn since. The list grows as
// tickets go back and forgets them once the deals could have reached them.
func TestGivenBackTicketsAreWhereTheSeatKnows(t *testing.T) {
	for _, c := range []struct {
		board, variant      string
		wantBoxed, wantDeck bool
	}{
		{"usa", "", false, true},
		{"europe", "classic", true, true},
		{"europe", "mega", true, true},
		{"marklin", "", false, true},
	} {
		boxed, inDeck, forgotten := 0, 0, 0
		for seed := range uint64(4) {
			last := make([][]ReturnedTicket, 3)
			ticketHungryGame(t, c.board, c.variant, seed+1, func(g *Game) {
				for seat := range 3 {
					v := g.View(seat)
					for _, r := range v.Returned {
						pile := g.tickets[g.pileOf(r.Ticket)]
						at := slices.Index(pile, r.Ticket)
						for i := range g.players {
							p := &g.players[i]
							if slices.Contains(p.Tickets, r.Ticket) || slices.Contains(p.Pending, r.Ticket) {
								t.Fatalf("%s %s: seat %d's view says it gave back %d, which seat %d holds", c.board, c.variant, seat, r.Ticket, i)
							}
						}
						if r.Boxed {
							if at >= 0 {
								t.Fatalf("%s %s: ticket %d, out of the game, is in a deck", c.board, c.variant, r.Ticket)
							}
							boxed++
							continue
						}
						if at < 0 {
							t.Fatalf("%s %s: ticket %d, given back by seat %d, is in no deck", c.board, c.variant, r.Ticket, seat)
						}
						inDeck++
					}
					for _, r := range last[seat] {
						if !slices.Contains(v.Returned, r) {
							forgotten++
						}
					}
					last[seat] = v.Returned
					// Only the seat that gave a ticket back knows where it is.
					for other := seat + 1; other < 3; other++ {
						for _, r := range g.View(other).Returned {
							if slices.ContainsFunc(v.Returned, func(q ReturnedTicket) bool { return q.Ticket == r.Ticket }) {
								t.Fatalf("%s: seats %d and %d both list ticket %d as given back", c.board, seat, other, r.Ticket)
							}
						}
					}
				}
			})
		}
		if (boxed > 0) != c.wantBoxed || (inDeck > 0) != c.wantDeck {
			t.Errorf("%s %s: %d sightings out of the game, %d in a deck; want some: %v, %v", c.board, c.variant, boxed, inDeck, c.wantBoxed, c.wantDeck)
		}
		if c.board != "marklin" && forgotten == 0 {
			t.Errorf("%s %s: no ticket given back was ever forgotten; the decks should cycle in these games", c.board, c.variant)
		}
		t.Logf("%s %s: %d sightings out of the game, %d in a deck, %d forgotten", c.board, c.variant, boxed, inDeck, forgotten)
	}
}

// TestDeterminizeKnowsWhatTheSeatGaveBack: a determinised game never deals
// a ticket the seat gave back to another seat; it keeps those in the decks
// under their decks and those out of the game out of it.
func TestDeterminizeKnowsWhatTheSeatGaveBack(t *testing.T) {
	for _, c := range []struct{ board, variant string }{{"usa", ""}, {"europe", "classic"}} {
		checked := 0
		ticketHungryGame(t, c.board, c.variant, 9, func(g *Game) {
			if g.Phase() != PhaseTurn || checked >= 20 {
				return
			}
			v := g.View(g.Current())
			if len(v.Returned) == 0 {
				return
			}
			checked++
			for _, odds := range []TicketOdds{nil, func(int, data.TicketID) float64 { return 1 }} {
				d, err := DeterminizeWeighted(v, uint64(checked), odds)
				if err != nil {
					t.Fatalf("%s: %v", c.board, err)
				}
				for _, r := range v.Returned {
					for s := range d.players {
						if slices.Contains(d.players[s].Tickets, r.Ticket) {
							t.Fatalf("%s: the determinised game deals ticket %d, which seat %d gave back, to seat %d", c.board, r.Ticket, v.Seat, s)
						}
					}
					pile := d.tickets[d.pileOf(r.Ticket)]
					if in := slices.Contains(pile, r.Ticket); in == r.Boxed {
						t.Fatalf("%s: ticket %d (out of the game: %v) in its deck: %v", c.board, r.Ticket, r.Boxed, in)
					}
				}
				if d.View(v.Seat).TicketDecks != v.TicketDecks {
					t.Fatalf("%s: deck counts %v, want %v", c.board, d.View(v.Seat).TicketDecks, v.TicketDecks)
				}
			}
		})
		if checked == 0 {
			t.Errorf("%s: no position with tickets given back", c.board)
		}
	}
}
