package engine

import (
	"slices"
	"strings"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

func newGame(t testing.TB, id, variant string, players int) *Game {
	t.Helper()
	g, err := New(Config{Board: testkit.Board(t, id), Variant: variant, Players: players, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func longCount(g *Game, ts []data.TicketID) int {
	n := 0
	for _, id := range ts {
		if g.board.Tickets[id].Long {
			n++
		}
	}
	return n
}

func TestInitialTicketsChosenByAllAtOnce(t *testing.T) {
	g := newGame(t, "usa", "", 3)
	if g.Phase() != PhaseSetup {
		t.Fatal("the game starts with the ticket choice")
	}
	// Any order, and nobody plays a turn before everyone has chosen.
	refused(t, g, 0, Draw(DeckSlot), ErrWrongPhase)
	mustPlay(t, g, 2, KeepTickets(0, 1))
	refused(t, g, 2, KeepTickets(0, 1), ErrWrongPhase)
	mustPlay(t, g, 0, KeepTickets(0, 1, 2))
	if g.Phase() != PhaseSetup {
		t.Fatal("the game began before the last player chose")
	}
	ev := mustPlay(t, g, 1, KeepTickets(1, 2))
	if g.Phase() != PhaseTurn || g.Current() != 0 || hasEvent(ev, EvTurn) == nil {
		t.Fatal("the first turn starts once everyone has chosen")
	}
}

// TestViewWhileOthersChooseTickets: a seat that has chosen its tickets can
// look at its hand while the others still choose (the view once panicked,
// reading a setup step past the last).
func TestViewWhileOthersChooseTickets(t *testing.T) {
	for _, c := range []struct{ board, variant string }{{"usa", ""}, {"europe", "mega"}} {
		g := newGame(t, c.board, c.variant, 2)
		for range len(g.variant.Setup) {
			_, hi := g.KeepRange(0)
			mustPlay(t, g, 0, KeepTickets(seq(hi)...))
		}
		if !g.SetupDone(0) || g.Phase() != PhaseSetup {
			t.Fatalf("%s: seat 1 has chosen, seat 2 has not: want setup still on", c.board)
		}
		v := g.View(0)
		if len(v.Tickets) == 0 || len(v.Pending) != 0 || v.KeepMin != 0 || v.KeepMax != 0 {
			t.Errorf("%s: the view of a seat done choosing: %d tickets, %d pending, keep %d..%d", c.board, len(v.Tickets), len(v.Pending), v.KeepMin, v.KeepMax)
		}
	}
}

func TestUSAInitialTicketsThreeKeepTwo(t *testing.T) {
	g := newGame(t, "usa", "", 2)
	if n := len(g.players[0].Pending); n != 3 {
		t.Fatalf("dealt %d, want 3", n)
	}
	deck := len(g.tickets[0])
	refused(t, g, 0, KeepTickets(0), ErrNotAllowed)
	returned := []data.TicketID{g.players[0].Pending[2], g.players[1].Pending[2]}
	mustPlay(t, g, 0, KeepTickets(0, 1))
	mustPlay(t, g, 1, KeepTickets(0, 1))
	if bottom := g.tickets[0][:2]; len(g.tickets[0]) != deck+2 || !slices.Contains(bottom, returned[0]) || !slices.Contains(bottom, returned[1]) {
		t.Fatal("the tickets not kept go under the deck")
	}
}

func TestTicketDrawKeepAtLeastOne(t *testing.T) {
	g := started(t, "usa", "", 2)
	ev := mustPlay(t, g, 0, Action{Kind: ActDrawTickets})
	if g.Phase() != PhaseKeepTickets || len(g.players[0].Pending) != 3 {
		t.Fatalf("phase %v pending %d", g.Phase(), len(g.players[0].Pending))
	}
	if e := hasEvent(ev, EvTicketsOffered); e == nil || !e.Private {
		t.Fatal("the tickets drawn are shown privately")
	}
	refused(t, g, 0, KeepTickets(), ErrNotAllowed)
	refused(t, g, 0, Draw(DeckSlot), ErrWrongPhase)
	refused(t, g, 1, KeepTickets(0), ErrNotYourTurn)
	pend := append([]data.TicketID(nil), g.players[0].Pending...)
	held := len(g.players[0].Tickets)
	mustPlay(t, g, 0, KeepTickets(1))
	if len(g.players[0].Tickets) != held+1 || g.players[0].Tickets[held] != pend[1] {
		t.Fatal("the kept ticket joins the hand")
	}
	bottom := g.tickets[0][:2]
	if !(bottom[0] == pend[0] || bottom[1] == pend[0]) || !(bottom[0] == pend[2] || bottom[1] == pend[2]) {
		t.Fatal("the others go under the deck")
	}
	if g.Current() != 1 {
		t.Fatal("the turn ends after keeping")
	}
}

func TestTicketDrawWithFewLeft(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.tickets[0] = g.tickets[0][:2]
	mustPlay(t, g, 0, Action{Kind: ActDrawTickets})
	if len(g.players[0].Pending) != 2 {
		t.Fatal("with fewer tickets than three, draw what is left")
	}
	mustPlay(t, g, 0, KeepTickets(0))
	g.tickets[0] = nil
	refused(t, g, 1, Action{Kind: ActDrawTickets}, ErrNotAvailable)
}

func TestEuropeClassicSetup(t *testing.T) {
	for _, v := range []string{"classic", "1912"} {
		g := newGame(t, "europe", v, 5)
		for s := range 5 {
			p := g.players[s].Pending
			if len(p) != 4 || longCount(g, p) != 1 {
				t.Fatalf("%s: dealt %d tickets, %d long; want 1 long + 3 regular", v, len(p), longCount(g, p))
			}
			for _, id := range p {
				if g.board.Tickets[id].Deck != map[string]string{"classic": "europe", "1912": "1912"}[v] {
					t.Fatalf("%s: ticket from deck %s", v, g.board.Tickets[id].Deck)
				}
			}
		}
		if len(g.tickets[1]) != 1 {
			t.Fatalf("unused long tickets stay out of the game: %d", len(g.tickets[1]))
		}
		deck := len(g.tickets[0])
		refused(t, g, 0, KeepTickets(3), ErrNotAllowed)
		mustPlay(t, g, 0, KeepTickets(0, 3)) // the long one may go
		if len(g.tickets[0]) != deck {
			t.Fatal("classic: discarded tickets go back in the box, not under the deck")
		}
	}
}

func TestMegaEuropeSetup(t *testing.T) {
	g := newGame(t, "europe", "mega", 3)
	p := &g.players[0]
	if len(p.Pending) != 2 || longCount(g, p.Pending) != 2 {
		t.Fatal("mega: first 2 long tickets")
	}
	refused(t, g, 0, KeepTickets(0, 1), ErrNotAllowed) // not both
	mustPlay(t, g, 0, KeepTickets(0))
	if len(p.Pending) != 5 || longCount(g, p.Pending) != 0 {
		t.Fatal("mega: then 5 regular tickets")
	}
	refused(t, g, 0, KeepTickets(0), ErrNotAllowed)
	deck := len(g.tickets[0])
	mustPlay(t, g, 0, KeepTickets(0, 1))
	if len(g.tickets[0]) != deck {
		t.Fatal("mega: returned regular tickets wait for the other players")
	}
	// Without a long ticket, keep at least 3 regular ones.
	mustPlay(t, g, 1, KeepTickets())
	refused(t, g, 1, KeepTickets(0, 1), ErrNotAllowed)
	mustPlay(t, g, 1, KeepTickets(0, 1, 2))
	if got := len(g.players[1].Tickets); got != 3 {
		t.Fatalf("kept %d", got)
	}
	mustPlay(t, g, 2, KeepTickets(1))
	mustPlay(t, g, 2, KeepTickets(0, 1, 2, 3, 4))
	// Seats 2 and 3 were dealt 5 each since; 3+2 came back.
	if want := deck - 10 + 3 + 2; len(g.tickets[0]) != want || g.Phase() != PhaseTurn {
		t.Fatalf("mega: the 5 returned regular tickets go under the deck when setup ends: %d, want %d", len(g.tickets[0]), want)
	}
	// Both decks are in play.
	decks := map[string]bool{}
	for _, id := range append(g.tickets[0], g.tickets[1]...) {
		decks[g.board.Tickets[id].Deck] = true
	}
	if !decks["europe"] || !decks["1912"] {
		t.Fatalf("mega uses both decks: %v", decks)
	}
}

func TestBigCitiesSetup(t *testing.T) {
	g := newGame(t, "europe", "bigcities", 2)
	for _, id := range append(append([]data.TicketID(nil), g.tickets[0]...), g.players[0].Pending...) {
		if tk := g.board.Tickets[id]; !tk.BigCities || tk.Long {
			t.Fatal("big cities: only Big Cities tickets, no long ones")
		}
	}
	if len(g.players[0].Pending) != 5 {
		t.Fatal("big cities: 5 tickets each")
	}
	refused(t, g, 0, KeepTickets(0), ErrNotAllowed)
	deck := len(g.tickets[0])
	mustPlay(t, g, 0, KeepTickets(0, 1))
	mustPlay(t, g, 1, KeepTickets(0, 1))
	if len(g.tickets[0]) != deck+3+3 {
		t.Fatal("big cities: discards go under the deck")
	}
	mustPlay(t, g, 0, Action{Kind: ActDrawTickets})
	if len(g.players[0].Pending) != 4 {
		t.Fatal("big cities: draw 4 during the game")
	}
}

// "All discarded Regular Tickets are shuffled and go at the bottom of the
// Deck": the tickets every player returned are shuffled together, so one
// player's returns are not stacked as a block under another's.
func TestSetupReturnsShuffledTogether(t *testing.T) {
	for _, variant := range []string{"mega", "bigcities"} {
		mixed := 0
		for seed := range uint64(20) {
			g, err := New(Config{Board: testkit.Board(t, "europe"), Variant: variant, Players: 2, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			returned := map[data.TicketID]int{}
			for seat := range 2 {
				if variant == "mega" {
					mustPlay(t, g, seat, KeepTickets())
				}
				for _, id := range g.players[seat].Pending[3:] {
					returned[id] = seat
				}
				mustPlay(t, g, seat, KeepTickets(0, 1, 2))
			}
			bottom := g.tickets[0][:len(returned)]
			for _, id := range bottom {
				if _, ok := returned[id]; !ok {
					t.Fatalf("%s seed %d: ticket %d at the bottom was not returned", variant, seed, id)
				}
			}
			// Count the changes of player along the bottom: two blocks make one.
			changes := 0
			for i := 1; i < len(bottom); i++ {
				if returned[bottom[i]] != returned[bottom[i-1]] {
					changes++
				}
			}
			if changes > 1 {
				mixed++
			}
		}
		if mixed == 0 {
			t.Fatalf("%s: in 20 games the returned tickets always stayed in blocks by player", variant)
		}
	}
}

// Games started under the first revision replay as they were played: each
// player's returns went under the deck at once.
func TestRevision1SetupReturnsByPlayer(t *testing.T) {
	g, err := New(Config{Board: testkit.Board(t, "europe"), Variant: "bigcities", Players: 2, Seed: 7, Revision: Revision1})
	if err != nil {
		t.Fatal(err)
	}
	deck := len(g.tickets[0])
	mustPlay(t, g, 0, KeepTickets(0, 1))
	if len(g.tickets[0]) != deck+3 {
		t.Fatal("revision 1: returns go under the deck at once")
	}
}

func TestBonusTicketsOptionRefusedWithoutBonusTickets(t *testing.T) {
	_, err := New(Config{Board: testkit.Board(t, "europe"), Variant: "classic", Players: 2, Seed: 1, BonusTickets: true})
	if err == nil || !strings.Contains(err.Error(), "no bonus tickets") || !strings.Contains(err.Error(), "deck file") {
		t.Fatalf("want a refusal naming the missing bonus tickets and the deck file, got %v", err)
	}
}

func TestBonusTicketsOptionUsesTheData(t *testing.T) {
	b := *testkit.Board(t, "europe")
	b.Tickets = append([]data.Ticket(nil), b.Tickets...)
	b.Tickets = append(b.Tickets, data.Ticket{ID: data.TicketID(len(b.Tickets)), A: 0, B: 1, Points: 9, Deck: "bonus"})
	with, _ := New(Config{Board: &b, Variant: "classic", Players: 2, Seed: 1, BonusTickets: true})
	without, _ := New(Config{Board: &b, Variant: "classic", Players: 2, Seed: 1})
	if len(with.tickets[0]) != len(without.tickets[0])+1 {
		t.Fatal("bonus tickets join the regular deck when the option is on")
	}
}

func TestLastRoundEveryoneOneMoreTurn(t *testing.T) {
	g := started(t, "usa", "", 3)
	tr := findTrack(t, g.board, 1, data.Gray, true)
	g.players[1].Trains = 3
	hand(g, 1, map[Card]int{Locomotive: 5})
	mustPlay(t, g, 0, Draw(DeckSlot))
	mustPlay(t, g, 0, Draw(DeckSlot))
	ev := mustPlay(t, g, 1, Claim(tr, data.Gray, 1)) // 2 trains left
	if e := hasEvent(ev, EvLastRound); e == nil || e.Seat != 1 {
		t.Fatal("two trains left starts the last round")
	}
	for _, s := range []int{2, 0, 1} {
		if g.Phase() == PhaseOver || g.Current() != s {
			t.Fatalf("seat %d should still play (phase %v, current %d)", s, g.Phase(), g.Current())
		}
		mustPlay(t, g, s, Draw(DeckSlot))
		mustPlay(t, g, s, Draw(DeckSlot))
	}
	if g.Phase() != PhaseOver || g.Final() == nil {
		t.Fatal("the game ends after the player who triggered it plays once more")
	}
	refused(t, g, 2, Draw(DeckSlot), ErrGameOver)
}
