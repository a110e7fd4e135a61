package commands

import (
	"fmt"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
)

// TestDismissedTicketChoiceComesBackAfterARestart: the ticket menu was
// dismissed (never answered) and the bot restarted; any turn command, the
// Tickets button and /hand bring the menu back, and it works.
func TestDismissedTicketChoiceComesBackAfterARestart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	first := w.click("u1", "tickets:"+gid+":0:")
	if findButton(first.msg, "keep:") == "" {
		t.Fatalf("drawing tickets shows the menu: %+v", first.msg)
	}
	w.restart() // the ephemeral menu is gone with the client's reload

	for name, a := range map[string]answer{
		"/draw":          w.cmd("u1", "draw", "", map[string]string{"card": "deck"}),
		"/claim":         w.cmd("u1", "claim", "", map[string]string{"route": "Atlanta Raleigh"}),
		"/tickets":       w.cmd("u1", "tickets", "", nil),
		"tickets button": w.click("u1", "tickets:"+gid+":0:"),
		"/hand":          w.cmd("u1", "hand", "", nil),
	} {
		if !a.msg.Ephemeral || findButton(a.msg, "keep:") == "" || !strings.Contains(a.msg.Content, "still have tickets") {
			t.Fatalf("%s while tickets are pending shows the menu again: %q %+v", name, a.msg.Content, a.msg.Components)
		}
	}
	g, _ := w.game("c1")
	if g.Phase() != engine.PhaseKeepTickets || len(g.Log()) != 3 {
		t.Fatalf("asking again changed the game: phase %v, %d moves", g.Phase(), len(g.Log()))
	}
	menu := w.cmd("u1", "hand", "", nil)
	if r := w.click("u1", findButton(menu.msg, "keep:"), "0"); !strings.Contains(r.msg.Content, "You kept") {
		t.Fatalf("the recovered menu keeps tickets: %q", r.msg.Content)
	}
	if g.Current() != 1 {
		t.Fatalf("the turn passes once the tickets are kept, current %d", g.Current())
	}
}

// TestPendingTunnelComesBackAfterARestart: a tunnel asked for more cards,
// the prompt was lost in a restart; a turn command shows the tunnel's
// buttons again and giving up from them ends the turn.
func TestPendingTunnelComesBackAfterARestart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, map[string]string{"map": "europe"})
	g, _ := w.game("c1")
	claimed := false
	for round := 0; round < 40 && !claimed; round++ {
		for _, a := range g.LegalActions(0, nil) {
			if a.Kind != engine.ActClaim || !g.Board().Tracks[a.Track].Tunnel {
				continue
			}
			probe := g.Clone()
			if probe.Play(0, a) != nil || probe.Phase() != engine.PhaseTunnel {
				continue
			}
			opts := map[string]string{"route": engine.TrackRef(g.Board(), a.Track), "locomotives": fmt.Sprint(a.Locos)}
			if a.Color != 0 {
				opts["color"] = a.Color.String()
			}
			r := w.cmd("u1", "claim", "", opts)
			if g.Phase() != engine.PhaseTunnel || findButton(r.msg, "tunnel:") == "" {
				t.Fatalf("the tunnel asks to pay: phase %v, %q", g.Phase(), r.msg.Content)
			}
			claimed = true
			break
		}
		if claimed {
			break
		}
		turn := fmt.Sprint(g.Turn())
		w.click("u1", "draw:"+gid+":"+turn+":deck")
		w.click("u1", "draw:"+gid+":"+turn+":deck")
		turn = fmt.Sprint(g.Turn())
		w.click("u2", "draw:"+gid+":"+turn+":deck")
		w.click("u2", "draw:"+gid+":"+turn+":deck")
	}
	if !claimed {
		t.Fatal("no tunnel ever asked for more cards")
	}
	w.restart()
	a := w.cmd("u1", "draw", "", nil)
	cancel := findButton(a.msg, "tunnel:")
	for _, row := range a.msg.Components {
		for _, c := range row {
			if strings.HasSuffix(c.ID, ":cancel") {
				cancel = c.ID
			}
		}
	}
	if !a.msg.Ephemeral || !strings.HasSuffix(cancel, ":cancel") || !strings.Contains(a.msg.Content, "tunnel") {
		t.Fatalf("a turn command shows the tunnel again: %q %+v", a.msg.Content, a.msg.Components)
	}
	w.click("u1", cancel)
	g, _ = w.game("c1")
	if g.Phase() != engine.PhaseTurn || g.Current() != 1 {
		t.Fatalf("giving up from the recovered prompt ends the turn: phase %v, current %d", g.Phase(), g.Current())
	}
}

// TestFirstTicketsComeBackFromAnyCommand: during setup a player who lost the
// first ticket menu gets it from a turn command or /hand.
func TestFirstTicketsComeBackFromAnyCommand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	w.restart()
	for _, a := range []answer{w.cmd("u2", "draw", "", nil), w.cmd("u2", "hand", "", nil)} {
		if findButton(a.msg, "keep:") == "" || !strings.Contains(a.msg.Content, "first tickets") {
			t.Fatalf("the first ticket choice comes back: %q", a.msg.Content)
		}
	}
}

// TestConfirmationComesBackInHand: a confirmation left unanswered is shown
// again by /hand.
func TestConfirmationComesBackInHand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, map[string]string{"confirm": "true"})
	g, _ := w.game("c1")
	g.Player(0) // keep the reference live
	tb, _ := w.svc.tables.loaded("c1")
	tb.mu.Lock()
	tb.pending["u1"] = pendingAction{action: engine.Action{Kind: engine.ActClaim, Track: 0, Color: g.Board().Tracks[0].Color}, turn: g.Turn()}
	tb.mu.Unlock()
	a := w.cmd("u1", "hand", "", nil)
	if findButton(a.msg, "confirm:") == "" || !strings.Contains(a.msg.Content, "Really") {
		t.Fatalf("/hand shows the open confirmation: %q", a.msg.Content)
	}
}

// TestFaceUpButtonGivesTheCardItShows: a board's face-up button clicked
// after its slot was refilled with another card answers with the row as it
// is now, and gives nothing.
func TestFaceUpButtonGivesTheCardItShows(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	g, _ := w.game("c1")
	board := w.poster.last("c1")
	slot := -1
	for i, c := range g.FaceUp() {
		if c == engine.Locomotive {
			continue
		}
		probe := g.Clone()
		if probe.Play(0, engine.Draw(i)) == nil && probe.FaceUp()[i] != c && probe.FaceUp()[i] != engine.NoCard {
			slot = i
			break
		}
	}
	if slot < 0 {
		// Only when every face-up card has the deck's top colour: vanishingly rare.
		t.Fatalf("no face-up card differs from the next card in this deal: %v", g.FaceUp())
	}
	btn := ""
	for _, row := range board.Components {
		for _, c := range row {
			if strings.HasPrefix(c.ID, fmt.Sprintf("draw:%s:0:%d.", gid, slot+1)) {
				btn = c.ID
			}
		}
	}
	if btn == "" {
		t.Fatalf("the board's face-up button names its card: %+v", board.Components)
	}
	w.click("u1", btn)
	n := len(g.Log())
	a := w.click("u1", btn)
	if len(g.Log()) != n || !strings.Contains(a.msg.Content, "taken or replaced") || findButton(a.msg, "draw:") == "" {
		t.Fatalf("a changed slot answers with the current row and plays nothing: %q (moves %d -> %d)", a.msg.Content, n, len(g.Log()))
	}
	// The current row's buttons work.
	w.click("u1", findButton(a.msg, "draw:"+gid+":0:deck"))
	if g.Current() != 1 {
		t.Fatalf("the turn ends after the second card: current %d", g.Current())
	}
}

// TestParallelRouteChosenByColourOrBeingFree: a double route named by its
// cities goes to the free track, and to the one of the colour asked for.
func TestParallelRouteChosenByColourOrBeingFree(t *testing.T) {
	t.Parallel()
	b, err := data.Embedded().Board("usa")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 200; seed++ {
		g, err := engine.New(engine.Config{Board: b, Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for seat := range 4 {
			lo, _ := g.KeepRange(seat)
			var keep []int
			for i := range lo {
				keep = append(keep, i)
			}
			if err := g.Play(seat, engine.KeepTickets(keep...)); err != nil {
				t.Fatal(err)
			}
		}
		for _, a := range g.LegalActions(g.Current(), nil) {
			if a.Kind != engine.ActClaim || len(b.Groups[b.Tracks[a.Track].Group]) != 2 {
				continue
			}
			group := b.Groups[b.Tracks[a.Track].Group]
			sibling := group[0]
			if sibling == a.Track {
				sibling = group[1]
			}
			if got := pickParallel(g, a.Track, b.Tracks[sibling].Color.String(), "en"); b.Tracks[sibling].Color != b.Tracks[a.Track].Color && got != sibling {
				t.Fatalf("the colour asked for picks its track: got %d, want %d", got, sibling)
			}
			if err := g.Play(g.Current(), a); err != nil {
				t.Fatal(err)
			}
			if got := pickParallel(g, a.Track, "", "en"); got != sibling {
				t.Fatalf("a taken track gives way to its free sibling: got %d, want %d", got, sibling)
			}
			return
		}
	}
	t.Fatal("no game offered a double route to claim at once")
}

// TestHandSaysStationsOnlyWhereTheEditionHasThem, and a zero bot delay is
// no pause (the terminal's --bot-delay 0), not "unset".
func TestHandSaysStationsOnlyWhereTheEditionHasThem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		board    string
		stations bool
	}{{"usa", false}, {"europe", true}} {
		w := newWorld(t)
		startedGame(t, w, map[string]string{"map": tc.board})
		a := w.cmd("u1", "hand", "", nil)
		if len(a.msg.Embeds) == 0 {
			t.Fatalf("%s: no hand embed", tc.board)
		}
		if got := strings.Contains(a.msg.Embeds[0].Footer, "station"); got != tc.stations {
			t.Errorf("%s: hand footer %q (stations shown: %v)", tc.board, a.msg.Embeds[0].Footer, got)
		}
	}
	if d := New(Config{}).cfg.BotDelay; d != 0 {
		t.Errorf("a zero bot delay became %v", d)
	}
}

// TestPlayerChoosesHowToPayAGreyRoute: when several colours pay a grey route
// at the same cost, the player chooses; the reply names the cards spent.
func TestPlayerChoosesHowToPayAGreyRoute(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, map[string]string{"turn_timer": "0"})
	g, _ := w.game("c1")
	tb, _ := w.svc.tables.loaded("c1")
	for round := 0; round < 60; round++ {
		for _, a := range g.LegalActions(0, nil) {
			if a.Kind != engine.ActClaim || g.Board().Tracks[a.Track].Color != data.Gray {
				continue
			}
			tmpl := engine.Action{Kind: engine.ActClaim, Track: a.Track}
			tb.mu.Lock()
			opts := payOptions(tb.game, 0, tmpl)
			tb.mu.Unlock()
			if len(opts) < 2 {
				continue
			}
			n := len(g.Log())
			r := w.cmd("u1", "claim", "", map[string]string{"route": engine.TrackRef(g.Board(), a.Track)})
			var choices []string
			for _, row := range r.msg.Components {
				for _, c := range row {
					if strings.HasPrefix(c.ID, "pay:") && !strings.HasSuffix(c.ID, ":cancel") {
						choices = append(choices, c.ID)
					}
				}
			}
			if len(choices) < 2 || !strings.Contains(r.msg.Content, "How do you pay") || len(g.Log()) != n {
				t.Fatalf("the player is asked how to pay: %q %v", r.msg.Content, choices)
			}
			// The question comes back with /hand until answered.
			if h := w.cmd("u1", "hand", "", nil); findButton(h.msg, "pay:") == "" {
				t.Fatalf("/hand shows the open payment question: %q", h.msg.Content)
			}
			want := opts[1].Color
			held := g.Player(0).Hand[engine.ColorCard(want)]
			done := w.click("u1", choices[1])
			if g.Owner(a.Track) != 0 || g.Player(0).Hand[engine.ColorCard(want)] >= held {
				t.Fatalf("the route is paid in the colour clicked (%v): owner %d", want, g.Owner(a.Track))
			}
			if !strings.Contains(done.msg.Content, "paying") {
				t.Fatalf("the reply names the cards spent: %q", done.msg.Content)
			}
			return
		}
		for _, u := range []string{"u1", "u2"} {
			turn := fmt.Sprint(g.Turn())
			w.click(u, "draw:"+gid+":"+turn+":deck")
			w.click(u, "draw:"+gid+":"+turn+":deck")
		}
	}
	t.Fatal("u1 never held two colours for a grey route")
}
