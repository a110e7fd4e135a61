package engine

import (
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

func TestDeckSizes(t *testing.T) {
	for id, want := range map[string]int{"usa": 110, "europe": 110, "marklin": 118} {
		g, _ := New(Config{Board: testkit.Board(t, id), Players: 5, Seed: 1})
		if err := checkInvariants(g); err != nil {
			t.Fatal(err)
		}
		total := len(g.deck) + len(g.discard)
		for _, c := range g.faceUp {
			if c != NoCard {
				total++
			}
		}
		for i := range g.players {
			if n := g.players[i].Hand.Total(); n != 4 {
				t.Errorf("%s: seat %d starts with %d cards, want 4", id, i, n)
			}
			total += g.players[i].Hand.Total()
			if g.players[i].Trains != 45 {
				t.Errorf("%s: %d trains", id, g.players[i].Trains)
			}
		}
		if total != want {
			t.Errorf("%s: %d cards, want %d", id, total, want)
		}
	}
}

func TestDrawTwoCards(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.faceUp = []Card{ColorCard(data.Red), ColorCard(data.Blue), ColorCard(data.Green), ColorCard(data.Black), ColorCard(data.White)}
	topDeck(g, ColorCard(data.Yellow), ColorCard(data.Orange))
	before := g.players[0].Hand
	ev := mustPlay(t, g, 0, Draw(0))
	if g.Phase() != PhaseSecondDraw || g.Current() != 0 {
		t.Fatalf("after one card: phase %v seat %d", g.Phase(), g.Current())
	}
	if g.faceUp[0] != ColorCard(data.Yellow) || hasEvent(ev, EvFaceUp) == nil {
		t.Fatalf("slot 1 was not refilled from the deck: %v", g.faceUp)
	}
	mustPlay(t, g, 0, Draw(DeckSlot))
	if g.Current() != 1 || g.Phase() != PhaseTurn {
		t.Fatal("the turn did not pass after two cards")
	}
	after := g.players[0].Hand
	if after[ColorCard(data.Red)] != before[ColorCard(data.Red)]+1 || after[ColorCard(data.Orange)] != before[ColorCard(data.Orange)]+1 {
		t.Fatalf("hand %v -> %v", before, after)
	}
}

func TestFaceUpLocomotiveEndsTheDraw(t *testing.T) {
	g := started(t, "europe", "classic", 3)
	g.faceUp = []Card{Locomotive, ColorCard(data.Blue), ColorCard(data.Green), ColorCard(data.Black), ColorCard(data.White)}
	topDeck(g, ColorCard(data.Red))
	mustPlay(t, g, 0, Draw(0))
	if g.Current() != 1 {
		t.Fatal("taking a face-up locomotive must end the turn")
	}
}

func TestFaceUpLocomotiveNotAsSecondCard(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.faceUp = []Card{ColorCard(data.Red), Locomotive, ColorCard(data.Green), ColorCard(data.Black), ColorCard(data.White)}
	topDeck(g, Locomotive) // the replacement is a locomotive too
	mustPlay(t, g, 0, Draw(0))
	e := refused(t, g, 0, Draw(1), ErrNotAllowed)
	wantRefusal(t, e, "draw.loco_second")    // a locomotive is only a first card
	refused(t, g, 0, Draw(0), ErrNotAllowed) // the replacement locomotive
	mustPlay(t, g, 0, Draw(2))
}

func TestBlindLocomotiveCountsAsOneCard(t *testing.T) {
	g := started(t, "usa", "", 2)
	topDeck(g, Locomotive, ColorCard(data.Red))
	ev := mustPlay(t, g, 0, Draw(DeckSlot))
	if g.Phase() != PhaseSecondDraw {
		t.Fatal("a blind locomotive counts as one card: a second draw must follow")
	}
	for _, e := range ev {
		if !e.Private && e.Card == Locomotive {
			t.Fatal("a blind draw must not reveal the card publicly")
		}
	}
	if e := hasEvent(ev, EvDrawnCard); e == nil || !e.Private || e.Card != Locomotive {
		t.Fatalf("the drawer is told privately what they drew: %+v", ev)
	}
	mustPlay(t, g, 0, Draw(DeckSlot))
}

func TestThreeFaceUpLocomotivesFlush(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	g.faceUp = []Card{ColorCard(data.Red), Locomotive, Locomotive, ColorCard(data.Black), ColorCard(data.White)}
	// Taking red turns up a third locomotive: all five go, five new come.
	topDeck(g, Locomotive, ColorCard(data.Blue), ColorCard(data.Blue), ColorCard(data.Green), ColorCard(data.Green), ColorCard(data.Yellow))
	discards := len(g.discard)
	ev := mustPlay(t, g, 0, Draw(0))
	if hasEvent(ev, EvFlush) == nil {
		t.Fatalf("no flush: %v", kinds(ev))
	}
	want := []Card{ColorCard(data.Blue), ColorCard(data.Blue), ColorCard(data.Green), ColorCard(data.Green), ColorCard(data.Yellow)}
	for i := range want {
		if g.faceUp[i] != want[i] {
			t.Fatalf("display %v, want %v", g.faceUp, want)
		}
	}
	if len(g.discard) != discards+5 {
		t.Fatalf("the five flushed cards go to the discards: %d -> %d", discards, len(g.discard))
	}
}

func TestFlushAtMostThreeTimesInARow(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.discard = g.discard[:0]
	// Only locomotives and three reds left to turn up: every display has three locomotives.
	g.deck = g.deck[:0]
	for range 8 {
		g.deck = append(g.deck, ColorCard(data.Red))
	}
	for range 20 {
		g.deck = append(g.deck, Locomotive) // on top
	}
	g.faceUp = []Card{ColorCard(data.Red), Locomotive, Locomotive, ColorCard(data.Black), ColorCard(data.White)}
	topDeck(g, Locomotive)
	ev := mustPlay(t, g, 0, Draw(0))
	flushes := 0
	for _, e := range ev {
		if e.Kind == EvFlush {
			flushes++
		}
	}
	if flushes != 3 {
		t.Fatalf("%d flushes in a row, want the limit of 3", flushes)
	}
	if n := countCards(g.faceUp, Locomotive); n < 3 {
		t.Fatalf("after the limit the display stays as it is, with its locomotives: %v", g.faceUp)
	}
}

func TestDiscardsReshuffledWhenDeckRunsOut(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.discard = append(g.discard, g.deck...)
	g.deck = g.deck[:1]
	g.discard = g.discard[1:]
	n := len(g.discard)
	mustPlay(t, g, 0, Draw(DeckSlot))
	ev := mustPlay(t, g, 0, Draw(DeckSlot))
	if e := hasEvent(ev, EvReshuffle); e == nil || e.Count != n {
		t.Fatalf("want a reshuffle of %d discards: %v", n, kinds(ev))
	}
	if len(g.discard) != 0 || len(g.deck) != n-1 {
		t.Fatalf("deck %d discards %d", len(g.deck), len(g.discard))
	}
}

func TestNoCardsAnywhereCannotDraw(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.deck, g.discard = g.deck[:0], g.discard[:0]
	g.faceUp = []Card{NoCard, NoCard, NoCard, NoCard, NoCard}
	refused(t, g, 0, Draw(DeckSlot), ErrNotAvailable)
	refused(t, g, 0, Draw(2), ErrNotAvailable)
	for _, a := range g.LegalActions(0, nil) {
		if a.Kind == ActDraw {
			t.Fatal("a draw is offered with no card anywhere")
		}
	}
	// With one face-up card left, the draw ends after it.
	g.faceUp[3] = ColorCard(data.Red)
	mustPlay(t, g, 0, Draw(3))
	if g.Current() != 1 {
		t.Fatal("with nothing left to draw, the turn ends after one card")
	}
}

func TestPassOnlyWithNoLegalAction(t *testing.T) {
	g := started(t, "usa", "", 2)
	refused(t, g, 0, Action{Kind: ActPass}, ErrNotAllowed)
	g.deck, g.discard = g.deck[:0], g.discard[:0]
	g.faceUp = []Card{NoCard, NoCard, NoCard, NoCard, NoCard}
	g.tickets[0] = nil
	hand(g, 0, nil)
	acts := g.LegalActions(0, nil)
	if len(acts) != 1 || acts[0].Kind != ActPass {
		t.Fatalf("legal actions %v, want only pass", acts)
	}
	mustPlay(t, g, 0, Action{Kind: ActPass})
	if g.Current() != 1 {
		t.Fatal("pass ends the turn")
	}
}

func TestRoundOfPassesEndsTheGame(t *testing.T) {
	g := started(t, "usa", "", 2)
	g.deck, g.discard = g.deck[:0], g.discard[:0]
	g.faceUp = []Card{NoCard, NoCard, NoCard, NoCard, NoCard}
	g.tickets[0] = nil
	hand(g, 0, nil)
	hand(g, 1, nil)
	mustPlay(t, g, 0, Action{Kind: ActPass})
	mustPlay(t, g, 1, Action{Kind: ActPass})
	if g.Phase() != PhaseOver || g.Final() == nil {
		t.Fatal("a whole round of passes must end the game")
	}
}

func TestOnlyTheCurrentPlayerActs(t *testing.T) {
	g := started(t, "usa", "", 3)
	refused(t, g, 1, Draw(DeckSlot), ErrNotYourTurn)
	refused(t, g, 7, Draw(DeckSlot), ErrBadAction)
}

func countCards(cs []Card, c Card) int {
	n := 0
	for _, x := range cs {
		if x == c {
			n++
		}
	}
	return n
}

// A face-up slot left empty because the deck and the discards were both
// exhausted is refilled as soon as cards come back: a claim's payment goes
// to the discards, which become the new deck, and the slot is turned up.
func TestEmptyFaceUpSlotRefilledWhenCardsComeBack(t *testing.T) {
	for _, rev := range []int{Revision1, LatestRevision} {
		g, err := New(Config{Board: testkit.Board(t, "usa"), Players: 2, Seed: 42, Revision: rev})
		if err != nil {
			t.Fatal(err)
		}
		for s := range 2 {
			mustPlay(t, g, s, KeepTickets(0, 1))
		}
		g.deck, g.discard = g.deck[:0], g.discard[:0]
		g.faceUp = []Card{ColorCard(data.Red), ColorCard(data.Red), ColorCard(data.Blue), ColorCard(data.Green), ColorCard(data.White)}
		mustPlay(t, g, 0, Draw(0))
		mustPlay(t, g, 0, Draw(1))
		if g.faceUp[0] != NoCard || g.faceUp[1] != NoCard {
			t.Fatal("setup: nothing to refill the taken slots with")
		}
		b := g.Board()
		hand(g, 1, map[Card]int{ColorCard(data.Yellow): 6})
		ev := mustPlay(t, g, 1, Claim(testkit.Track(t, b, "Helena", "Seattle", data.Yellow), data.Yellow, 0))
		switch rev {
		case Revision1:
			if g.faceUp[0] != NoCard || len(g.discard) != 6 {
				t.Fatalf("revision 1 keeps the slot empty until a draw reshuffles: face-up %v, discards %d", g.faceUp, len(g.discard))
			}
		default:
			if g.faceUp[0] != ColorCard(data.Yellow) || g.faceUp[1] != ColorCard(data.Yellow) {
				t.Fatalf("the empty slots are refilled from the reshuffled discards: %v", g.faceUp)
			}
			if len(g.deck)+len(g.discard) != 4 || hasEvent(ev, EvReshuffle) == nil || hasEvent(ev, EvFaceUp) == nil {
				t.Fatalf("deck %d, discards %d, events %v", len(g.deck), len(g.discard), kinds(ev))
			}
		}
	}
}
