package engine

import (
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// The station cost table: 1, 2 then 3 cards of one colour, locomotives wild.
func TestStationCostTable(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	b := g.board
	cities := []string{"Sarajevo", "Wien", "Paris"}
	for i, name := range cities {
		cost := i + 1
		if g.StationCost(0) != cost {
			t.Fatalf("station %d costs %d, want %d", i+1, g.StationCost(0), cost)
		}
		hand(g, 0, map[Card]int{ColorCard(data.Red): cost - 1, Locomotive: 1})
		if i > 0 {
			// Mixed colours do not pay.
			hand(g, 0, map[Card]int{ColorCard(data.Red): 1, ColorCard(data.Blue): 1})
			if cost == 2 {
				refused(t, g, 0, Action{Kind: ActStation, City: testkit.City(t, b, name), Color: data.Red}, ErrCannotAfford)
			}
			hand(g, 0, map[Card]int{ColorCard(data.Red): cost - 1, Locomotive: 1})
		}
		mustPlay(t, g, 0, Action{Kind: ActStation, City: testkit.City(t, b, name), Color: data.Red, Locos: 1})
		if g.StationAt(testkit.City(t, b, name)) != 0 || g.players[0].Hand.Total() != 0 {
			t.Fatalf("station %d not built or not paid: %v", i+1, g.players[0].Hand)
		}
		mustPlay(t, g, 1, Draw(DeckSlot))
		mustPlay(t, g, 1, Draw(DeckSlot))
	}
	hand(g, 0, map[Card]int{Locomotive: 5})
	e := refused(t, g, 0, Action{Kind: ActStation, City: testkit.City(t, b, "Roma"), Locos: 3}, ErrNotAvailable)
	wantRefusal(t, e, "station.all_built", Arg{"stations", 3})
}

func TestStationOnlyOnCityWithoutOne(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	wien := testkit.City(t, g.board, "Wien")
	hand(g, 0, map[Card]int{Locomotive: 3})
	hand(g, 1, map[Card]int{Locomotive: 3})
	mustPlay(t, g, 0, Action{Kind: ActStation, City: wien, Locos: 1})
	if g.Current() != 1 {
		t.Fatal("a station is the whole turn: one per turn")
	}
	refused(t, g, 1, Action{Kind: ActStation, City: wien, Locos: 1}, ErrNotAvailable)
}

// Tunnel example 1: two green cards played, the reveal shows a green card
// and a locomotive: two more green cards (or locomotives) are needed.
func TestTunnelExample1ExtraCards(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 3, Locomotive: 1})
	topDeck(g, ColorCard(data.Green), Locomotive, ColorCard(data.Red))
	ev := mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	r := hasEvent(ev, EvTunnelReveal)
	if r == nil || r.Count != 2 || len(r.Cards) != 3 || r.Private {
		t.Fatalf("reveal %+v", r)
	}
	if g.Phase() != PhaseTunnel || g.Owner(tr) != -1 {
		t.Fatal("the claim waits for the extra cards")
	}
	refused(t, g, 0, Action{Kind: ActTunnelPay, Locos: 0}, ErrCannotAfford) // one green left only
	refused(t, g, 0, Draw(DeckSlot), ErrWrongPhase)
	discards := len(g.discard)
	mustPlay(t, g, 0, Action{Kind: ActTunnelPay, Locos: 1})
	if g.Owner(tr) != 0 || g.players[0].Hand.Total() != 0 {
		t.Fatalf("owner %d, hand %v", g.Owner(tr), g.players[0].Hand)
	}
	if len(g.discard) != discards+3+4 {
		t.Fatalf("the revealed cards and the payment are discarded: %d -> %d", discards, len(g.discard))
	}
}

// Tunnel example 2: nothing revealed matches: the tunnel is claimed at once.
func TestTunnelExample2NoExtraCards(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 2})
	topDeck(g, ColorCard(data.Red), ColorCard(data.Blue), ColorCard(data.Yellow))
	mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	if g.Owner(tr) != 0 || g.Current() != 1 {
		t.Fatal("no match: the tunnel is claimed and the turn ends")
	}
}

// Tunnel example 3: a tunnel claimed with locomotives only is raised by
// revealed locomotives alone, and the extra cards must be locomotives.
func TestTunnelExample3LocomotivesOnly(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{Locomotive: 3, ColorCard(data.Green): 2})
	topDeck(g, ColorCard(data.Green), Locomotive, ColorCard(data.Green))
	ev := mustPlay(t, g, 0, Claim(tr, data.Gray, 2))
	if r := hasEvent(ev, EvTunnelReveal); r == nil || r.Count != 1 {
		t.Fatalf("only the revealed locomotive counts: %+v", r)
	}
	refused(t, g, 0, Action{Kind: ActTunnelPay, Locos: 0}, ErrNotAllowed)
	mustPlay(t, g, 0, Action{Kind: ActTunnelPay, Locos: 1})
	if g.Owner(tr) != 0 || g.players[0].Hand[Locomotive] != 0 || g.players[0].Hand[ColorCard(data.Green)] != 2 {
		t.Fatalf("hand %v", g.players[0].Hand)
	}
}

func TestTunnelGiveUpTakesCardsBack(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 2})
	topDeck(g, ColorCard(data.Green), ColorCard(data.Red), ColorCard(data.Blue))
	mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	discards := len(g.discard)
	mustPlay(t, g, 0, Action{Kind: ActTunnelCancel})
	if g.Owner(tr) != -1 || g.players[0].Hand[ColorCard(data.Green)] != 2 || g.Current() != 1 {
		t.Fatal("giving up keeps the cards and ends the turn")
	}
	if len(g.discard) != discards+3 {
		t.Fatal("the revealed cards are discarded")
	}
}

func TestTunnelWithFewCardsRevealsWhatExists(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 2})
	g.deck = []Card{ColorCard(data.Red)}
	g.discard = nil
	ev := mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	if r := hasEvent(ev, EvTunnelReveal); r == nil || len(r.Cards) != 1 {
		t.Fatalf("one card left: reveal one: %+v", r)
	}
	if g.Owner(tr) != 0 {
		t.Fatal("claimed")
	}
	g = started(t, "europe", "classic", 2)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 2})
	g.deck, g.discard = nil, nil
	mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	if g.Owner(tr) != 0 {
		t.Fatal("no card to reveal: the tunnel is claimed without risk")
	}
}

// Smyrna–Palermo: 2 locomotives and 4 cards of one colour.
func TestFerrySmyrnaPalermo(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Palermo", "Smyrna", data.Gray)
	hand(g, 0, map[Card]int{ColorCard(data.Blue): 5, Locomotive: 1})
	e := refused(t, g, 0, Claim(tr, data.Blue, 1), ErrNotAllowed)
	wantRefusal(t, e, "pay.ferry", Arg{"what", tr}, Arg{"locos", CardsNeeded{Locos: 2}})
	hand(g, 0, map[Card]int{ColorCard(data.Blue): 4, Locomotive: 2})
	mustPlay(t, g, 0, Claim(tr, data.Blue, 2))
	if g.Owner(tr) != 0 || g.players[0].Score != 15 {
		t.Fatalf("ferry of 6: owner %d score %d", g.Owner(tr), g.players[0].Score)
	}
}

func TestTunnelRevealHiddenUntilItHappens(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	if g.Public().Tunnel != nil {
		t.Fatal("no tunnel pending")
	}
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 4})
	topDeck(g, ColorCard(data.Green), ColorCard(data.Red), ColorCard(data.Blue))
	mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	v := g.Public()
	if v.Tunnel == nil || len(v.Tunnel.Revealed) != 3 || v.Tunnel.Extra != 1 {
		t.Fatalf("the reveal is public once made: %+v", v.Tunnel)
	}
}

// A tunnel given up is public until the seat's next move: every view shows
// it (bots do not try it again at once with the same hand), and a
// snapshot keeps it.
func TestTunnelGivenUpShownUntilTheSeatsNextMove(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Venezia", "Zurich", data.Green)
	hand(g, 0, map[Card]int{ColorCard(data.Green): 2})
	topDeck(g, ColorCard(data.Green), ColorCard(data.Red), ColorCard(data.Blue))
	if p := g.View(1).Players[0]; p.GaveUpTunnel {
		t.Fatal("nothing given up yet")
	}
	mustPlay(t, g, 0, Claim(tr, data.Green, 0))
	mustPlay(t, g, 0, Action{Kind: ActTunnelCancel})
	shows := func(when string, want bool) {
		t.Helper()
		for seat := range 2 {
			if p := g.View(seat).Players[0]; p.GaveUpTunnel != want || want && p.GaveUp != tr {
				t.Errorf("%s, seat %d's view: gave up %v (%d), want %v (%d)", when, seat+1, p.GaveUpTunnel, p.GaveUp, want, tr)
			}
			var v PlayerView
			g.ViewInto(seat, &v)
			if p := v.Players[0]; p.GaveUpTunnel != want || want && p.GaveUp != tr {
				t.Errorf("%s, seat %d's ViewInto: gave up %v (%d), want %v", when, seat+1, p.GaveUpTunnel, p.GaveUp, want)
			}
		}
	}
	shows("given up", true)
	r, err := Restore(g.cfg, g.MarshalState(), g.Log())
	if err != nil {
		t.Fatal(err)
	}
	if p := r.View(1).Players[0]; !p.GaveUpTunnel || p.GaveUp != tr {
		t.Errorf("restored from a snapshot: gave up %v (%d), want %d", p.GaveUpTunnel, p.GaveUp, tr)
	}
	mustPlay(t, g, 1, Draw(DeckSlot))
	mustPlay(t, g, 1, Draw(DeckSlot))
	shows("after the other seat's turn", true)
	mustPlay(t, g, 0, Draw(DeckSlot))
	shows("after its own next move", false)
}
