package commands

import (
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// setGame is a game of mapID past its first tickets (each seat keeping
// the first choice the rules allow).
func setGame(t *testing.T, mapID, variant string, players int, seed uint64) *engine.Game {
	t.Helper()
	b, err := data.Embedded().Board(mapID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(engine.Config{Board: b, Variant: variant, Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for g.Phase() == engine.PhaseSetup {
		for s := range players {
			if legal := g.LegalActions(s, nil); len(legal) > 0 {
				if err := g.Play(s, legal[0]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return g
}

// richHand gives seat n cards of every colour and no locomotive.
func richHand(g *engine.Game, seat, n int) {
	p := g.Player(seat)
	p.Hand = engine.Hand{}
	for _, c := range data.CardColors {
		p.Hand[engine.ColorCard(c)] = n
	}
}

func seatNumber(s int) string { return "seat " + string(rune('A'+s)) }

// covered lists the tracks a claim suggestion's value stands for: one
// track, or a double's tracks the seat can claim when it names the route
// by its cities alone.
func covered(t *testing.T, g *engine.Game, seat int, value string) []data.TrackID {
	t.Helper()
	b := g.Board()
	v := strings.TrimPrefix(value, notYet)
	id, err := engine.ParseTrackRef(b, v)
	if err != nil {
		t.Fatalf("suggestion value %q: %v", value, err)
	}
	if strings.Count(v, "|") == 1 && len(b.Parallel(id)) > 1 {
		return b.Parallel(id)
	}
	return []data.TrackID{id}
}

// On the asker's turn /claim offers exactly the routes the engine lets
// them claim: every line legal, every legal route findable, a double
// whose two tracks are claimable on one line with both colours, and the
// routes of their tickets first.
func TestClaimSuggestsOnlyWhatIsLegal(t *testing.T) {
	t.Parallel()
	g := setGame(t, "usa", "", 2, 7)
	seat := g.Current()
	richHand(g, seat, 4)
	b := g.Board()
	legal := map[data.TrackID]bool{}
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind == engine.ActClaim {
			legal[a.Track] = true
		}
	}
	labels := routeLabels(b, "en")
	choices := claimChoices(g, seat, labels, "", "en", seatNumber)
	if len(choices) != maxChoices {
		t.Fatalf("%d choices with %d routes claimable", len(choices), len(legal))
	}
	serves := servingTracks(g, seat)
	names := map[string]bool{}
	lastServes := true
	for _, c := range choices {
		if strings.HasPrefix(c.Value, notYet) {
			t.Errorf("%q (%s) is offered as not playable on a turn with claimable routes", c.Name, c.Value)
		}
		if names[c.Name] {
			t.Errorf("%q is offered twice", c.Name)
		}
		names[c.Name] = true
		s := false
		for _, id := range covered(t, g, seat, c.Value) {
			s = s || serves[id]
			if len(covered(t, g, seat, c.Value)) > 1 && !legal[id] {
				t.Errorf("%q (%s) merges a track the seat cannot claim", c.Name, c.Value)
			}
		}
		if one := covered(t, g, seat, c.Value); len(one) == 1 && !legal[one[0]] {
			t.Errorf("%q (%s) cannot be claimed now", c.Name, c.Value)
		}
		if s && !lastServes {
			t.Errorf("%q serves a ticket and comes after a route that does not", c.Name)
		}
		lastServes = s
	}
	// Every claimable route can be found by typing its name; a double
	// whose two tracks are claimable is one line naming both colours.
	doubles := 0
	for id := range legal {
		found := claimChoices(g, seat, labels, data.Fold(b.TrackName(id)), "en", seatNumber)
		hit := 0
		for _, c := range found {
			if strings.HasPrefix(c.Value, notYet) {
				t.Errorf("typing %q offers %q as not playable", b.TrackName(id), c.Name)
			}
			ids := covered(t, g, seat, c.Value)
			for _, x := range ids {
				if x == id {
					hit++
					if len(ids) > 1 {
						doubles++
						if !strings.Contains(c.Name, " / ") && !strings.Contains(c.Name, "×") {
							t.Errorf("the double %q does not name both tracks", c.Name)
						}
					}
				}
			}
		}
		if hit != 1 {
			t.Errorf("typing %q: %d lines for %s, want 1: %+v", b.TrackName(id), hit, engine.TrackRef(b, id), found)
		}
	}
	if doubles == 0 {
		t.Fatal("no double route was claimable on both tracks: the fixture proves nothing")
	}
}

// A double route's twin closed by the rules (one's own, or any at two
// players) is never offered, to either seat; when no route fits the cards
// the first line says so and the nearest follow, marked not playable,
// tickets' routes first, then the fewest cards short.
func TestClaimNeverOffersAClosedTwin(t *testing.T) {
	t.Parallel()
	g := setGame(t, "usa", "", 2, 11)
	b := g.Board()
	first := g.Current()
	richHand(g, first, 6)
	var twin []data.TrackID
	for _, grp := range b.Groups {
		if len(grp) == 2 && b.Tracks[grp[0]].Length <= 3 {
			twin = grp
			break
		}
	}
	if twin == nil {
		t.Fatal("no double route")
	}
	var claim engine.Action
	for _, a := range g.LegalActions(first, nil) {
		if a.Kind == engine.ActClaim && a.Track == twin[0] {
			claim = a
		}
	}
	if err := g.Play(first, claim); err != nil {
		t.Fatalf("claim %s: %v", engine.TrackRef(b, twin[0]), err)
	}
	other := g.Current()
	if other == first {
		t.Fatal("the turn did not pass")
	}
	labels := routeLabels(b, "en")
	check := func(seat int, choices []Choice) {
		t.Helper()
		for _, c := range choices {
			if c.Value == notYet {
				continue
			}
			for _, id := range covered(t, g, seat, c.Value) {
				if g.Owner(id) >= 0 || !g.ClaimFree(seat, id) {
					t.Errorf("seat %d is offered %q (%s), closed to it", seat, c.Name, c.Value)
				}
			}
		}
	}
	richHand(g, other, 6)
	check(other, claimChoices(g, other, labels, "", "en", seatNumber))
	check(other, claimChoices(g, other, labels, data.Fold(b.TrackName(twin[1])), "en", seatNumber))
	// Off turn, the seat holding the other track.
	off := claimChoices(g, first, labels, data.Fold(b.TrackName(twin[1])), "en", seatNumber)
	if len(off) == 0 || off[0].Value != notYet || !strings.Contains(off[0].Name, seatNumber(other)) {
		t.Errorf("off turn, the first line does not say whose turn it is: %+v", off)
	}
	check(first, off)
	// Nothing fits: an empty hand.
	g.Player(other).Hand = engine.Hand{}
	none := claimChoices(g, other, labels, "", "en", seatNumber)
	if len(none) < 2 || none[0].Value != notYet || none[0].Name != present.T("en", "suggest.claim.none") {
		t.Fatalf("with no card, the first line: %+v", none)
	}
	check(other, none)
	serves := servingTracks(g, other)
	lastServes, lastShort := true, 0
	for _, c := range none[1:] {
		if !strings.HasPrefix(c.Value, notYet) || !strings.Contains(c.Name, "short") {
			t.Errorf("%q (%s) is not marked as not playable with what it lacks", c.Name, c.Value)
		}
		ids := covered(t, g, other, c.Value)
		s := false
		short := 99
		for _, id := range ids {
			s = s || serves[id]
			n, _ := shortOf(g, other, id)
			short = min(short, n)
		}
		if s && !lastServes {
			t.Errorf("%q serves a ticket and comes after a route that does not", c.Name)
		}
		if s == lastServes && short < lastShort {
			t.Errorf("%q is %d short and comes after a route %d short", c.Name, short, lastShort)
		}
		lastServes, lastShort = s, short
	}
}

// A suggestion that says it cannot be played yet, chosen anyway, is
// answered with what it lacks and what to do instead, never a refusal of
// the rules; in the asker's language.
func TestChosenNotYetSuggestionsAnswerKindly(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	g, _ := w.game("c1")
	seat := g.Current()
	user := []string{"u1", "u2"}[seat]
	g.Player(seat).Hand = engine.Hand{}
	b := g.Board()
	var free data.TrackID
	for i := range b.Tracks {
		if g.Owner(data.TrackID(i)) < 0 && len(b.Parallel(data.TrackID(i))) == 1 {
			free = data.TrackID(i)
			break
		}
	}
	for _, c := range []struct {
		cmd, opt, value, want string
	}{
		{"claim", "route", notYet, "Draw cards"},
		{"claim", "route", notYet + engine.TrackRef(b, free), "more card"},
		{"station", "city", notYet, "no stations"},
		{"passenger", "from", notYet, "passengers can travel"},
	} {
		a := w.cmd(user, c.cmd, "", map[string]string{c.opt: c.value})
		if !a.msg.Ephemeral || strings.HasPrefix(a.msg.Content, "⛔") || !strings.Contains(a.msg.Content, c.want) {
			t.Errorf("/%s %s:%q answered %q, want a private note saying %q", c.cmd, c.opt, c.value, a.msg.Content, c.want)
		}
	}
	if g.Current() != seat || g.Player(seat).Hand.Total() != 0 {
		t.Fatal("a note changed the game")
	}
	fr := w.do(&Request{Type: CommandRequest, User: user, Name: "claim", Locale: "fr", Options: map[string]string{"route": notYet}})
	if fr.msg.Content != present.T("fr", "suggest.claim.nothing") {
		t.Errorf("in French: %q", fr.msg.Content)
	}
	// The cards came meanwhile: the route suggested as not yet is claimed.
	richHand(g, seat, 6)
	a := w.cmd(user, "claim", "", map[string]string{"route": notYet + engine.TrackRef(b, free)})
	if pay := findButton(a.msg, "pay:"); pay != "" {
		w.click(user, pay) // a grey route: the colour asked first
	}
	if g.Owner(free) != seat {
		t.Errorf("%s, playable by the time it was sent, was not claimed", engine.TrackRef(b, free))
	}
}

// A double route offered on one line is claimed on whichever track the
// player can pay; when both can be, the player chooses the colour, and the
// track of that colour is claimed.
func TestDoubleRoutePaidWithEitherColour(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	g, _ := w.game("c1")
	b := g.Board()
	seat := g.Current()
	user := []string{"u1", "u2"}[seat]
	var pair []data.TrackID
	for _, grp := range b.Groups {
		if len(grp) == 2 && b.Tracks[grp[0]].Color != data.Gray && b.Tracks[grp[1]].Color != data.Gray && b.Tracks[grp[0]].Color != b.Tracks[grp[1]].Color {
			pair = grp
			break
		}
	}
	if pair == nil {
		t.Fatal("no double of two colours")
	}
	p := g.Player(seat)
	p.Hand = engine.Hand{}
	n := b.Tracks[pair[0]].Length
	c0, c1 := b.Tracks[pair[0]].Color, b.Tracks[pair[1]].Color
	p.Hand[engine.ColorCard(c0)], p.Hand[engine.ColorCard(c1)] = n, n
	tr := &b.Tracks[pair[0]]
	route := b.Cities[tr.A].Name + "|" + b.Cities[tr.B].Name
	a := w.cmd(user, "claim", "", map[string]string{"route": route})
	var pays []string
	for _, row := range a.msg.Components {
		for _, c := range row {
			if strings.HasPrefix(c.ID, "pay:") && !strings.HasSuffix(c.ID, ":cancel") {
				pays = append(pays, c.ID)
			}
		}
	}
	if len(pays) != 2 || !strings.HasSuffix(pays[1], ":"+c1.String()) || !strings.Contains(a.msg.Content, " / ") {
		t.Fatalf("/claim %s with cards for both tracks: %q, buttons %v", route, a.msg.Content, pays)
	}
	w.click(user, pays[1])
	if g.Owner(pair[1]) != seat || g.Owner(pair[0]) >= 0 {
		t.Fatalf("paying %s claimed %s (owner %d) and %s (owner %d)", c1, engine.TrackRef(b, pair[1]), g.Owner(pair[1]), engine.TrackRef(b, pair[0]), g.Owner(pair[0]))
	}
	if p.Hand[engine.ColorCard(c1)] != 0 || p.Hand[engine.ColorCard(c0)] != n {
		t.Errorf("the hand after paying %s: %v", c1, p.Hand)
	}
}

// /station offers, on the asker's turn, the cities the engine lets them
// build in, their tickets' cities first; without the cards, the first line
// says what a station costs. /passenger says when no passenger can move.
func TestStationAndPassengerSuggestWhatIsLegal(t *testing.T) {
	t.Parallel()
	g := setGame(t, "europe", "classic", 2, 3)
	seat := g.Current()
	richHand(g, seat, 3)
	legal := map[string]bool{}
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind == engine.ActStation {
			legal[g.Board().Cities[a.City].Name] = true
		}
	}
	choices := stationChoices(g, seat, "", "de", seatNumber)
	if len(choices) != maxChoices {
		t.Fatalf("%d cities offered", len(choices))
	}
	ends := map[string]bool{}
	for _, ts := range g.View(seat).Tickets {
		tk := &g.Board().Tickets[ts.Ticket]
		ends[g.Board().Cities[tk.A].Name], ends[g.Board().Cities[tk.B].Name] = true, true
	}
	for i, c := range choices {
		if !legal[c.Value] {
			t.Errorf("%q cannot be built in now", c.Value)
		}
		if i > 0 && ends[c.Value] && !ends[choices[i-1].Value] {
			t.Errorf("the ticket city %q comes after %q", c.Value, choices[i-1].Value)
		}
	}
	if !ends[choices[0].Value] {
		t.Errorf("the first city %q is none of the tickets' cities %v", choices[0].Value, ends)
	}
	g.Player(seat).Hand = engine.Hand{}
	none := stationChoices(g, seat, "", "de", seatNumber)
	if none[0].Value != notYet || none[0].Name != present.T("de", "suggest.station.short", "n", g.StationCost(seat)) {
		t.Errorf("without cards: %+v", none[0])
	}
	for _, c := range none[1:] {
		if !strings.HasPrefix(c.Value, notYet) {
			t.Errorf("%q is offered as playable without cards", c.Value)
		}
	}
	m := setGame(t, "marklin", "", 2, 3)
	if p := passengerChoices(m, m.Current(), "", "it", seatNumber); len(p) != 1 || p[0].Value != notYet || p[0].Name != present.T("it", "suggest.passenger.none") {
		t.Errorf("no passenger on the board: %+v", p)
	}
	if p := passengerChoices(g, seat, "", "fr", seatNumber); len(p) != 1 || p[0].Name != present.T("fr", "passenger.none_here") {
		t.Errorf("Europe has no passengers: %+v", p)
	}
}

// BenchmarkClaimSuggestions: what /claim's list costs the player to play
// on every keystroke (the legal moves, the tickets' paths, the doubles
// merged), at the start of a USA game.
func BenchmarkClaimSuggestions(b *testing.B) {
	w := newWorld(b)
	startedGame(b, w, nil)
	g, _ := w.game("c1")
	user := []string{"u1", "u2"}[g.Current()]
	for _, typed := range []string{"", "san"} {
		b.Run("typed="+typed, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w.svc.autocomplete(&Request{Type: AutocompleteRequest, Channel: "c1", User: user, Name: "claim", Focused: "route",
					Options: map[string]string{"route": typed}})
			}
		})
	}
}
