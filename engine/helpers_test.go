package engine

import (
	"errors"
	"reflect"
	"testing"

	"conductor/internal/testkit"
)

// started returns a game past the initial ticket choice (everyone keeps as
// many tickets as allowed), on seat 0's first turn.
func started(t testing.TB, id, variant string, players int) *Game {
	t.Helper()
	g, err := New(Config{Board: testkit.Board(t, id), Variant: variant, Players: players, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	for g.Phase() == PhaseSetup {
		for s := range players {
			if g.SetupDone(s) {
				continue
			}
			if mix, n := g.NeedsMix(s); mix {
				mustPlay(t, g, s, Action{Kind: ActDrawTickets, Long: n / 2})
				continue
			}
			_, hi := g.KeepRange(s)
			mustPlay(t, g, s, KeepTickets(seq(hi)...))
		}
	}
	return g
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func mustPlay(t testing.TB, g *Game, seat int, a Action) []Event {
	t.Helper()
	ev, err := g.Apply(seat, a)
	if err != nil {
		t.Fatalf("%s by seat %d: %v", FormatAction(g.board, a), seat+1, err)
	}
	return ev
}

// refused asserts an action is refused with the given code and changes nothing.
func refused(t testing.TB, g *Game, seat int, a Action, code ErrorCode) *Error {
	t.Helper()
	before := FormatState(g)
	_, err := g.Apply(seat, a)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s by seat %d: got %v, want a refusal", FormatAction(g.board, a), seat+1, err)
	}
	if e.Code != code {
		t.Fatalf("%s: error code %d (%v), want %d", FormatAction(g.board, a), e.Code, e, code)
	}
	if after := FormatState(g); after != before {
		t.Fatalf("a refused action changed the game:\n%s\n%s", before, after)
	}
	return e
}

// FormatState summarises everything mutable, to detect changes.
func FormatState(g *Game) string {
	c := g.Clone()
	c.log = nil
	return stateKey(c)
}

func stateKey(g *Game) string {
	s := ""
	for _, p := range g.players {
		s += formatAny(p.Hand, p.Tickets, p.Pending, p.Trains, p.Stations, p.Score, p.PassengersLeft, p.Goods)
	}
	return s + formatAny(g.phase, g.current, g.deck, g.discard, g.faceUp, g.tickets, g.owner, g.station, g.passenger, g.goods, g.tunnel.revealed, g.finalTurns)
}

// hand sets a seat's hand exactly (rule tests do not need conservation).
func hand(g *Game, seat int, cards map[Card]int) {
	g.players[seat].Hand = Hand{}
	for c, n := range cards {
		g.players[seat].Hand[c] = n
	}
}

// topDeck puts cards on top of the deck, the first listed drawn first.
func topDeck(g *Game, cards ...Card) {
	for i := len(cards) - 1; i >= 0; i-- {
		g.deck = append(g.deck, cards[i])
	}
}

func kinds(ev []Event) []EventKind {
	var k []EventKind
	for _, e := range ev {
		k = append(k, e.Kind)
	}
	return k
}

func hasEvent(ev []Event, k EventKind) *Event {
	for i := range ev {
		if ev[i].Kind == k {
			return &ev[i]
		}
	}
	return nil
}

// wantRefusal checks a refusal's key and arguments.
func wantRefusal(t testing.TB, e *Error, key string, args ...Arg) {
	t.Helper()
	if e.Key != key || !reflect.DeepEqual(e.Args, args) {
		t.Fatalf("refusal %q %#v, want %q %#v", e.Key, e.Args, key, args)
	}
}

// argValue is the value of a refusal's argument name.
func argValue(e *Error, name string) (any, bool) {
	for _, a := range e.Args {
		if a.Name == name {
			return a.Value, true
		}
	}
	return nil, false
}
