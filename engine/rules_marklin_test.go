package engine

import (
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

func TestMarklinLocomotive4OnlyOnLongRoutes(t *testing.T) {
	g := started(t, "marklin", "", 2)
	short := findTrack(t, g.board, 3, data.Gray, true)
	long := findTrack(t, g.board, 4, data.Gray, true)
	hand(g, 0, map[Card]int{Locomotive4: 4, ColorCard(data.Red): 4})
	refused(t, g, 0, Action{Kind: ActClaim, Track: short, Color: data.Red, Locos4: 1}, ErrNotAllowed)
	c := g.board.Tracks[long].Color
	if c == data.Gray {
		c = data.Red
	}
	hand(g, 0, map[Card]int{Locomotive4: 2, ColorCard(c): 2})
	mustPlay(t, g, 0, Action{Kind: ActClaim, Track: long, Color: c, Locos4: 2})
	if g.Owner(long) != 0 {
		t.Fatal("Locomotive +4 cards pay a route of 4")
	}
	// Not on USA or Europe.
	u := started(t, "usa", "", 2)
	hand(u, 0, map[Card]int{Locomotive4: 4})
	refused(t, u, 0, Action{Kind: ActClaim, Track: findTrack(t, u.board, 4, data.Gray, true), Locos4: 4}, ErrBadAction)
}

func TestMarklinLocomotive4AndPassengerDrawnLikeOrdinaryCards(t *testing.T) {
	g := started(t, "marklin", "", 2)
	g.faceUp = []Card{Locomotive4, Passenger, ColorCard(data.Red), ColorCard(data.Blue), ColorCard(data.Green)}
	topDeck(g, ColorCard(data.Red), ColorCard(data.Red))
	mustPlay(t, g, 0, Draw(0))
	if g.Phase() != PhaseSecondDraw {
		t.Fatal("a face-up Locomotive +4 does not end the draw")
	}
	mustPlay(t, g, 0, Draw(1))
	if g.players[0].Hand[Locomotive4] < 1 || g.players[0].Hand[Passenger] < 1 {
		t.Fatal("both cards taken")
	}
	// A Locomotive +4 may also be the second card.
	g.faceUp = []Card{ColorCard(data.Red), Locomotive4, ColorCard(data.Red), ColorCard(data.Blue), ColorCard(data.Green)}
	topDeck(g, ColorCard(data.Red), ColorCard(data.Red))
	mustPlay(t, g, 1, Draw(0))
	mustPlay(t, g, 1, Draw(1))
}

func TestMarklinThreePassengerCardsFlush(t *testing.T) {
	g := started(t, "marklin", "", 2)
	g.faceUp = []Card{ColorCard(data.Red), Passenger, Passenger, ColorCard(data.Black), ColorCard(data.White)}
	topDeck(g, Passenger, ColorCard(data.Blue), ColorCard(data.Blue), ColorCard(data.Green), ColorCard(data.Green), ColorCard(data.Yellow))
	ev := mustPlay(t, g, 0, Draw(0))
	if hasEvent(ev, EvFlush) == nil {
		t.Fatal("three face-up passenger cards flush the display")
	}
	// Locomotive +4 cards do not count as locomotives for the flush.
	g = started(t, "marklin", "", 2)
	g.faceUp = []Card{ColorCard(data.Red), Locomotive, Locomotive4, ColorCard(data.Black), ColorCard(data.White)}
	topDeck(g, Locomotive4)
	ev = mustPlay(t, g, 0, Draw(0))
	if hasEvent(ev, EvFlush) != nil {
		t.Fatal("Locomotive +4 cards are not locomotives for the flush")
	}
}

func TestMarklinSetupMixOfFourKeepTwo(t *testing.T) {
	g := newGame(t, "marklin", "", 2)
	if mix, n := g.NeedsMix(0); !mix || n != 4 {
		t.Fatal("each player first announces a mix of 4")
	}
	refused(t, g, 0, KeepTickets(0, 1), ErrWrongPhase)
	refused(t, g, 0, Action{Kind: ActDrawTickets, Long: 5}, ErrBadAction)
	mustPlay(t, g, 0, Action{Kind: ActDrawTickets, Long: 3})
	if p := g.players[0].Pending; len(p) != 4 || longCount(g, p) != 3 {
		t.Fatalf("asked 3 long + 1 short, got %d tickets, %d long", len(p), longCount(g, p))
	}
	refused(t, g, 0, KeepTickets(0), ErrNotAllowed)
	short, long := len(g.tickets[0]), len(g.tickets[1])
	mustPlay(t, g, 0, KeepTickets(0, 3))
	if len(g.tickets[0])+len(g.tickets[1]) != short+long+2 {
		t.Fatal("tickets not kept go back to their decks")
	}
	mustPlay(t, g, 1, Action{Kind: ActDrawTickets, Long: 0})
	mustPlay(t, g, 1, KeepTickets(0, 1, 2, 3))
	if g.Phase() != PhaseTurn {
		t.Fatal("the game starts")
	}
}

func TestMarklinTicketDrawMixKeepOne(t *testing.T) {
	g := started(t, "marklin", "", 2)
	mustPlay(t, g, 0, Action{Kind: ActDrawTickets, Long: 1})
	p := g.players[0].Pending
	if len(p) != 4 || longCount(g, p) != 1 {
		t.Fatal("a ticket draw is a mix of 4")
	}
	var longID data.TicketID
	idx := 0
	for i, id := range p {
		if g.board.Tickets[id].Long {
			longID = id
		} else {
			idx = i
		}
	}
	mustPlay(t, g, 0, KeepTickets(idx))
	if g.tickets[1][0] != longID {
		t.Fatal("a long ticket not kept goes under the long deck")
	}
	// Asking for more long tickets than are left is refused.
	g.tickets[1] = g.tickets[1][:1]
	refused(t, g, 1, Action{Kind: ActDrawTickets, Long: 2}, ErrNotAvailable)
}

// passengerBoard returns a 2-player Märklin game with seat 0 holding
// Berlin–Leipzig... built from the board's own tracks.
func TestMarklinPassengerPlacedWhenClaiming(t *testing.T) {
	g := started(t, "marklin", "", 2)
	b := g.board
	tr := findTrack(t, b, 2, data.Gray, true)
	end := b.Tracks[tr].A
	hand(g, 0, map[Card]int{Locomotive: 10})
	hand(g, 1, map[Card]int{Locomotive: 10})
	refused(t, g, 0, Action{Kind: ActClaim, Track: tr, Locos: 2, Passenger: true, City: testkit.City(t, b, "Berlin")}, ErrBadAction)
	ev := mustPlay(t, g, 0, Action{Kind: ActClaim, Track: tr, Locos: 2, Passenger: true, City: end})
	if hasEvent(ev, EvPassengerPlaced) == nil || g.PassengerAt(end) != 0 || g.players[0].PassengersLeft != 2 {
		t.Fatal("passenger placed")
	}
	// One passenger per city.
	other := b.Adj[end][0]
	if other == tr {
		other = b.Adj[end][1]
	}
	c := b.Tracks[other].Color
	if c == data.Gray {
		c = data.Red
	}
	hand(g, 1, map[Card]int{Locomotive: 10})
	refused(t, g, 1, Action{Kind: ActClaim, Track: other, Color: c, Locos: b.Tracks[other].Length, Passenger: true, City: end}, ErrNotAvailable)
	// Never in a country.
	var country data.TrackID = -1
	for i, t := range b.Tracks {
		if b.Cities[t.B].Country || b.Cities[t.A].Country {
			country = data.TrackID(i)
			break
		}
	}
	ct := &b.Tracks[country]
	cn := ct.A
	if !b.Cities[cn].Country {
		cn = ct.B
	}
	refused(t, g, 1, Action{Kind: ActClaim, Track: country, Locos: ct.Length, Passenger: true, City: cn}, ErrNotAllowed)
}

func TestMarklinMovePassenger(t *testing.T) {
	g := started(t, "marklin", "", 2)
	b := g.board
	berlin, leipzig, dresden := testkit.City(t, b, "Berlin"), testkit.City(t, b, "Leipzig"), testkit.City(t, b, "Dresden")
	bl := anyBetween(t, b, berlin, leipzig)
	ld := anyBetween(t, b, leipzig, dresden)
	db := anyBetween(t, b, dresden, berlin)
	g.owner[bl] = 0 // own route: free
	g.owner[ld] = 1 // opponent: one Passenger card
	g.owner[db] = 1
	g.passenger[berlin] = 0
	g.players[0].PassengersLeft = 2
	g.passenger[leipzig] = 1 // passing another passenger's city is allowed
	g.players[1].PassengersLeft = 2
	hand(g, 0, map[Card]int{Passenger: 1})
	path := []data.TrackID{bl, ld, db}
	e := refused(t, g, 0, Action{Kind: ActMovePassenger, City: berlin, Path: path}, ErrCannotAfford)
	if e == nil {
		t.Fatal()
	}
	refused(t, g, 0, Action{Kind: ActMovePassenger, City: berlin, Path: []data.TrackID{bl, bl}}, ErrNotAllowed)
	refused(t, g, 0, Action{Kind: ActMovePassenger, City: leipzig, Path: []data.TrackID{ld}}, ErrBadAction)
	hand(g, 0, map[Card]int{Passenger: 2})
	score := g.players[0].Score
	ev := mustPlay(t, g, 0, Action{Kind: ActMovePassenger, City: berlin, Path: path})
	m := hasEvent(ev, EvPassengerMoved)
	// Leipzig (yellow 3), Dresden (yellow 3); back in Berlin: no token at the start.
	if m == nil || m.Points != 6 || g.players[0].Score != score+6 {
		t.Fatalf("moved: %+v, score %d -> %d", m, score, g.players[0].Score)
	}
	if g.players[0].Hand[Passenger] != 0 || g.PassengerAt(berlin) != -1 || g.players[0].PassengersUsed != 1 {
		t.Fatal("two Passenger cards paid; the passenger leaves the game")
	}
	if got := g.GoodsLeft(leipzig); len(got) != 2 || got[0] != 2 {
		t.Fatalf("Leipzig's top token taken: %v", got)
	}
	if got := g.GoodsLeft(berlin); len(got) != 4 {
		t.Fatal("no token at the starting city")
	}
	if err := checkInvariants(g); err != nil && !containsAny(err.Error(), "cards in play", "trains", "running score") {
		t.Fatal(err)
	}
}

func TestMarklinPassengerNeverEntersACountry(t *testing.T) {
	g := started(t, "marklin", "", 2)
	b := g.board
	kiel := testkit.City(t, b, "Kiel")
	dk := anyBetween(t, b, kiel, testkit.City(t, b, "Dänemark"))
	g.owner[dk] = 0
	g.passenger[kiel] = 0
	g.players[0].PassengersLeft = 2
	refused(t, g, 0, Action{Kind: ActMovePassenger, City: kiel, Path: []data.TrackID{dk}}, ErrNotAllowed)
}

func TestMarklinBestTrips(t *testing.T) {
	g := started(t, "marklin", "", 2)
	b := g.board
	berlin, leipzig, dresden := testkit.City(t, b, "Berlin"), testkit.City(t, b, "Leipzig"), testkit.City(t, b, "Dresden")
	g.owner[anyBetween(t, b, berlin, leipzig)] = 0
	g.owner[anyBetween(t, b, leipzig, dresden)] = 1
	g.passenger[berlin] = 0
	g.players[0].PassengersLeft = 2
	hand(g, 0, map[Card]int{Passenger: 1})
	trips := g.BestTrips(0, berlin)
	if len(trips) != 2 || trips[0].Points != 3 || trips[0].Cost != 0 || trips[1].Points != 6 || trips[1].Cost != 1 {
		t.Fatalf("trips %+v", trips)
	}
}

func anyBetween(t testing.TB, b *data.Board, a, c data.CityID) data.TrackID {
	t.Helper()
	for _, id := range b.Adj[a] {
		if b.Tracks[id].Other(a) == c {
			return id
		}
	}
	t.Fatalf("no track %s – %s", b.Cities[a].Name, b.Cities[c].Name)
	return 0
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if len(s) >= len(x) {
			for i := 0; i+len(x) <= len(s); i++ {
				if s[i:i+len(x)] == x {
					return true
				}
			}
		}
	}
	return false
}
