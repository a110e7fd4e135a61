package engine

import (
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// Example 1: a yellow route of three spaces takes 3 yellow, 2 yellow + 1
// locomotive, 1 yellow + 2 locomotives or 3 locomotives.
func TestClaimExample1YellowRoute(t *testing.T) {
	for locos := 0; locos <= 3; locos++ {
		g := started(t, "europe", "classic", 2)
		b := g.board
		tr := findTrack(t, b, 3, data.Yellow, false)
		hand(g, 0, map[Card]int{ColorCard(data.Yellow): 3 - locos, Locomotive: locos})
		mustPlay(t, g, 0, Claim(tr, data.Yellow, locos))
		if g.Owner(tr) != 0 || g.players[0].Hand.Total() != 0 {
			t.Fatalf("with %d locomotives: owner %d, hand %v", locos, g.Owner(tr), g.players[0].Hand)
		}
	}
	// Wrong colour, too few cards.
	g := started(t, "europe", "classic", 2)
	tr := findTrack(t, g.board, 3, data.Yellow, false)
	hand(g, 0, map[Card]int{ColorCard(data.Red): 3})
	refused(t, g, 0, Claim(tr, data.Red, 0), ErrNotAllowed)
	hand(g, 0, map[Card]int{ColorCard(data.Yellow): 2})
	refused(t, g, 0, Claim(tr, data.Yellow, 0), ErrCannotAfford)
}

// Example 2: a gray route of two spaces takes 2 red, 1 yellow + 1 locomotive
// or 2 locomotives.
func TestClaimExample2GrayRoute(t *testing.T) {
	cases := []struct {
		hand  map[Card]int
		color data.Color
		locos int
	}{
		{map[Card]int{ColorCard(data.Red): 2}, data.Red, 0},
		{map[Card]int{ColorCard(data.Yellow): 1, Locomotive: 1}, data.Yellow, 1},
		{map[Card]int{Locomotive: 2}, data.Gray, 2},
	}
	for _, c := range cases {
		g := started(t, "europe", "classic", 2)
		tr := findTrack(t, g.board, 2, data.Gray, false)
		hand(g, 0, c.hand)
		mustPlay(t, g, 0, Claim(tr, c.color, c.locos))
		if g.Owner(tr) != 0 || g.players[0].Hand.Total() != 0 {
			t.Fatalf("%v: not claimed", c)
		}
	}
	// Mixed colours never pay a gray route.
	g := started(t, "europe", "classic", 2)
	tr := findTrack(t, g.board, 2, data.Gray, false)
	hand(g, 0, map[Card]int{ColorCard(data.Red): 1, ColorCard(data.Blue): 1})
	refused(t, g, 0, Claim(tr, data.Red, 0), ErrCannotAfford)
}

func TestClaimErrorSaysWhatWouldWork(t *testing.T) {
	g := started(t, "europe", "classic", 2)
	tr := testkit.Track(t, g.board, "Paris", "Frankfurt", data.White)
	hand(g, 0, map[Card]int{ColorCard(data.White): 1, Locomotive: 1})
	e := refused(t, g, 0, Claim(tr, data.White, 1), ErrCannotAfford)
	wantRefusal(t, e, "pay.short", Arg{"what", tr}, Arg{"need", CardsNeeded{Count: 3, Color: data.White}},
		Arg{"held", CardsHeld{Color: data.White, Count: 1, Locos: 1}})
}

func TestClaimScoresByTheRouteTable(t *testing.T) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		for length, pts := range b.Rules.RoutePoints {
			g := started(t, id, "", 4)
			tr := anyTrack(t, b, length)
			hand(g, 0, map[Card]int{Locomotive: length})
			topDeck(g, ColorCard(data.Red), ColorCard(data.Red), ColorCard(data.Red)) // a tunnel asks nothing more
			before := g.players[0].Score
			mustPlay(t, g, 0, Claim(tr, data.Gray, length))
			if g.players[0].Score-before != pts || g.players[0].Trains != 45-length {
				t.Errorf("%s length %d: +%d points, %d trains; want +%d", id, length, g.players[0].Score-before, g.players[0].Trains, pts)
			}
		}
	}
}

func TestClaimNeedsEnoughTrains(t *testing.T) {
	g := started(t, "usa", "", 2)
	tr := findTrack(t, g.board, 6, data.Gray, true)
	g.players[0].Trains = 5
	hand(g, 0, map[Card]int{Locomotive: 6})
	e := refused(t, g, 0, Claim(tr, data.Gray, 6), ErrNotAllowed)
	if left, ok := argValue(e, "left"); !ok || left != 5 {
		t.Errorf("refusal %v: want 5 trains left", e)
	}
}

func TestOneRoutePerTurn(t *testing.T) {
	g := started(t, "usa", "", 2)
	tr := findTrack(t, g.board, 1, data.Gray, true)
	hand(g, 0, map[Card]int{Locomotive: 10})
	mustPlay(t, g, 0, Claim(tr, data.Gray, 1))
	if g.Current() != 1 {
		t.Fatal("claiming a route ends the turn")
	}
}

func TestDoubleRoutesTwoOrThreePlayers(t *testing.T) {
	for _, players := range []int{2, 3} {
		g := started(t, "usa", "", players)
		a, bb := doubleRoute(t, g.board, 2)
		hand(g, 0, map[Card]int{Locomotive: 10})
		hand(g, 1, map[Card]int{Locomotive: 10})
		mustPlay(t, g, 0, Claim(a, data.Gray, g.board.Tracks[a].Length))
		e := refused(t, g, 1, Claim(bb, data.Gray, g.board.Tracks[bb].Length), ErrNotAllowed)
		wantRefusal(t, e, "claim.double_few", Arg{"route", a})
	}
}

func TestDoubleRoutesFourOrFivePlayers(t *testing.T) {
	for _, players := range []int{4, 5} {
		g := started(t, "usa", "", players)
		a, bb := doubleRoute(t, g.board, 2)
		for s := range players {
			hand(g, s, map[Card]int{Locomotive: 10})
		}
		mustPlay(t, g, 0, Claim(a, data.Gray, g.board.Tracks[a].Length))
		mustPlay(t, g, 1, Claim(bb, data.Gray, g.board.Tracks[bb].Length))
		if g.Owner(bb) != 1 {
			t.Fatal("with 4-5 players another player may take the second track")
		}
		// Nobody takes two tracks of one double route.
		g = started(t, "usa", "", players)
		for s := range players {
			hand(g, s, map[Card]int{Locomotive: 10})
		}
		mustPlay(t, g, 0, Claim(a, data.Gray, g.board.Tracks[a].Length))
		for s := 1; s < players; s++ {
			mustPlay(t, g, s, Draw(DeckSlot))
			mustPlay(t, g, s, Draw(DeckSlot))
		}
		refused(t, g, 0, Claim(bb, data.Gray, g.board.Tracks[bb].Length), ErrNotAllowed)
	}
}

func TestTripleRoutesMarklin(t *testing.T) {
	b := testkit.Board(t, "marklin")
	var grp []data.TrackID
	for _, gr := range b.Groups {
		if len(gr) == 3 {
			grp = gr
		}
	}
	length := b.Tracks[grp[0]].Length
	g := started(t, "marklin", "", 3)
	hand(g, 0, map[Card]int{Locomotive: 20})
	hand(g, 1, map[Card]int{Locomotive: 20})
	mustPlay(t, g, 0, Claim(grp[0], data.Gray, length))
	refused(t, g, 1, Claim(grp[1], data.Gray, length), ErrNotAllowed)

	g = started(t, "marklin", "", 4)
	for s := range 4 {
		hand(g, s, map[Card]int{Locomotive: 20})
	}
	mustPlay(t, g, 0, Claim(grp[0], data.Gray, length))
	mustPlay(t, g, 1, Claim(grp[1], data.Gray, length))
	mustPlay(t, g, 2, Claim(grp[2], data.Gray, length))
	mustPlay(t, g, 3, Draw(DeckSlot))
	mustPlay(t, g, 3, Draw(DeckSlot))
	if g.Owner(grp[2]) != 2 {
		t.Fatal("with 4 players three players may share a triple route")
	}
}

// findTrack returns a free track of the length and colour (any colour when
// anyColor), not a tunnel or ferry, and not part of a double route.
func findTrack(t testing.TB, b *data.Board, length int, c data.Color, anyColor bool) data.TrackID {
	t.Helper()
	for i, tr := range b.Tracks {
		if tr.Length == length && (anyColor || tr.Color == c) && !tr.Tunnel && tr.Locomotives == 0 &&
			len(b.Groups[tr.Group]) == 1 && !b.Cities[tr.A].Country && !b.Cities[tr.B].Country {
			return data.TrackID(i)
		}
	}
	t.Fatalf("%s: no plain %s track of length %d", b.ID, c, length)
	return 0
}

func doubleRoute(t testing.TB, b *data.Board, length int) (data.TrackID, data.TrackID) {
	for _, gr := range b.Groups {
		if len(gr) == 2 && b.Tracks[gr[0]].Length == length {
			return gr[0], gr[1]
		}
	}
	t.Fatalf("no double route of length %d", length)
	return 0, 0
}

// anyTrack returns some track of the length between two cities.
func anyTrack(t testing.TB, b *data.Board, length int) data.TrackID {
	t.Helper()
	for i, tr := range b.Tracks {
		if tr.Length == length && !b.Cities[tr.A].Country && !b.Cities[tr.B].Country {
			return data.TrackID(i)
		}
	}
	t.Fatalf("%s: no track of length %d", b.ID, length)
	return 0
}
