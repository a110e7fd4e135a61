package commands

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// viewBot records the views it is handed and plays the last legal action
// (a claim when there is one: claims come after draws).
type viewBot struct{ views *[]engine.PlayerView }

func (b viewBot) Choose(_ context.Context, v engine.PlayerView, legal []engine.Action) engine.Action {
	*b.views = append(*b.views, v)
	return legal[len(legal)-1]
}

func hintWorld(t *testing.T) (*world, *[]engine.PlayerView, *[]string) {
	w := newWorld(t)
	views, levels := hintsFrom(w)
	return w, views, levels
}

// hintsFrom gives the world's services a viewBot for every level; it
// returns the views the bots were handed and the levels asked for.
func hintsFrom(w *world) (*[]engine.PlayerView, *[]string) {
	var mu sync.Mutex
	views := &[]engine.PlayerView{}
	levels := &[]string{}
	w.bots(func(level string, seed uint64) (Bot, error) {
		mu.Lock()
		defer mu.Unlock()
		*levels = append(*levels, level)
		return viewBot{views}, nil
	})
	return views, levels
}

// A hint answers only the asker, privately, with a legal move of the
// expert computed from the asker's own view, and says why.
func TestHintIsPrivateLegalAndFromTheAskersView(t *testing.T) {
	t.Parallel()
	w, views, levels := hintWorld(t)
	startedGame(t, w, nil)
	g, _ := w.game("c1")
	seat := g.Current()
	asker := []string{"u1", "u2"}[seat]
	other := []string{"u1", "u2"}[1-seat]
	logLen := len(g.Log())

	a := w.cmd(asker, "ttr", "hint", nil)
	if a.kind != "reply" || !a.msg.Ephemeral || !strings.HasPrefix(a.msg.Content, "💡") {
		t.Fatalf("hint: %s %+v", a.kind, a.msg)
	}
	if len(*views) != 1 || (*levels)[0] != "expert" {
		t.Fatalf("the expert was asked %d times (%v)", len(*views), *levels)
	}
	v := (*views)[0]
	if v.Seat != seat || v.Hand != g.Player(seat).Hand {
		t.Fatalf("the expert got seat %d's view, want the asker's (%d)", v.Seat, seat)
	}
	legal := g.LegalActions(seat, nil)
	want := hintMove("", &v, legal[len(legal)-1], false)
	if !strings.Contains(a.msg.Content, want) || !strings.Contains(a.msg.Content, " — ") {
		t.Fatalf("hint %q does not name the move %q with a reason", a.msg.Content, want)
	}
	if len(g.Log()) != logLen {
		t.Fatal("asking for a hint played a move")
	}
	// Not on someone else's turn.
	if a := w.cmd(other, "ttr", "hint", nil); !a.msg.Ephemeral || a.msg.Content != present.T("", "hint.not_your_turn") {
		t.Fatalf("hint out of turn: %+v", a.msg)
	}
	if len(*views) != 1 {
		t.Fatal("the expert was asked out of turn")
	}
}

// A table opened with hints:False refuses them.
func TestHintsOffAreRefused(t *testing.T) {
	t.Parallel()
	w, views, _ := hintWorld(t)
	startedGame(t, w, map[string]string{"hints": "false"})
	g, _ := w.game("c1")
	asker := []string{"u1", "u2"}[g.Current()]
	if a := w.cmd(asker, "ttr", "hint", nil); !a.msg.Ephemeral || a.msg.Content != present.T("", "hint.off") {
		t.Fatalf("hint with hints off: %+v", a.msg)
	}
	if len(*views) != 0 {
		t.Fatal("the expert was asked with hints off")
	}
}

// hintCheck asks user for a hint in the position g stands at, as seat, and
// checks it: private, a legal move of the expert (here the last legal
// choice) from the asker's view alone, said with a reason; the same hint
// when what the asker cannot see is rewritten. It returns the view the
// expert got.
func hintCheck(t *testing.T, w *world, views *[]engine.PlayerView, g *engine.Game, seat int, user string, paying []engine.Action) engine.PlayerView {
	t.Helper()
	before := len(*views)
	a := w.cmd(user, "ttr", "hint", nil)
	if a.kind != "reply" || !a.msg.Ephemeral || !strings.HasPrefix(a.msg.Content, "💡") {
		t.Fatalf("hint: %s %+v", a.kind, a.msg)
	}
	if len(*views) != before+1 {
		t.Fatalf("the expert was asked %d times", len(*views)-before)
	}
	v := (*views)[len(*views)-1]
	if !reflect.DeepEqual(v, g.View(seat)) {
		t.Fatalf("the expert got a view other than seat %d's own", seat)
	}
	legal := paying
	if legal == nil {
		legal = g.LegalActions(seat, nil)
	}
	chosen := legal[len(legal)-1]
	want := hintMove("", &v, chosen, paying != nil)
	reason := hintReason("", &v, chosen, paying)
	if !strings.Contains(a.msg.Content, want+" — "+reason) || reason == "" || strings.Contains(reason, "{") {
		t.Fatalf("hint %q: want the move %q and the reason %q", a.msg.Content, want, reason)
	}
	// Rewrite the other seats' hands and tickets: the hint stays the same.
	type hidden struct {
		hand    engine.Hand
		tickets []data.TicketID
	}
	saved := map[int]hidden{}
	for s := range g.NumPlayers() {
		if s == seat {
			continue
		}
		p := g.Player(s)
		saved[s] = hidden{p.Hand, slices.Clone(p.Tickets)}
		total := p.Hand.Total()
		p.Hand = engine.Hand{}
		p.Hand[engine.ColorCard(data.Red)] = total
		for i := range p.Tickets {
			p.Tickets[i] = data.TicketID((int(p.Tickets[i]) + 3) % len(g.Board().Tickets))
		}
	}
	again := w.cmd(user, "ttr", "hint", nil)
	for s, h := range saved {
		g.Player(s).Hand, g.Player(s).Tickets = h.hand, h.tickets
	}
	if again.msg.Content != a.msg.Content {
		t.Fatalf("the hint changed with what the asker cannot see:\n%q\n%q", a.msg.Content, again.msg.Content)
	}
	return v
}

// TestHintsAtEveryChoice: at 2 to 5 seats, a hint answers at the first
// ticket choice, on a turn, at a ticket draw, at a tunnel's extra cards and
// when choosing how to pay a grey route (Europe), and at the first draw's
// long-ticket mix (Märklin), each with its move and a reason, from the
// asker's own view only.
func TestHintsAtEveryChoice(t *testing.T) {
	t.Parallel()
	for players := 2; players <= 5; players++ {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			seen := hintsThroughAGame(t, "europe", "classic", players, uint64(players))
			for _, kind := range []string{"setup", "turn", "tickets", "tunnel", "payment"} {
				if !seen[kind] {
					t.Errorf("no hint asked at a %s choice", kind)
				}
			}
		})
	}
	if seen := hintsThroughAGame(t, "marklin", "", 3, 9); !seen["mix"] {
		t.Error("no hint asked at the Märklin mix")
	}
}

// hintsThroughAGame plays a game through the commands, steering towards
// each kind of choice once and asking for a hint there; it returns the
// kinds of choice met.
func hintsThroughAGame(t *testing.T, mapID, variant string, players int, seed uint64) map[string]bool {
	t.Helper()
	w, views, _ := hintWorld(t)
	users := make([]string, players)
	for i := range users {
		users[i] = fmt.Sprint("u", i+1)
	}
	w.cmd(users[0], "ttr", "new", map[string]string{"map": mapID, "variant": variant})
	for _, u := range users[1:] {
		w.cmd(u, "ttr", "join", nil)
	}
	w.cmd(users[0], "ttr", "start", nil)
	seen := map[string]bool{}
	pick := seed
	for steps := 0; steps < 3000; steps++ {
		g, gid := w.game("c1")
		if g == nil || len(seen) >= 5 && (mapID != "marklin" || seen["mix"]) {
			break
		}
		seat := g.ToAct()
		user := users[seat]
		legal := g.LegalActions(seat, nil)
		pick = pick*6364136223846793005 + 1442695040888963407
		a := legal[int((pick>>33)%uint64(len(legal)))]
		switch g.Phase() {
		case engine.PhaseSetup:
			kind := "setup"
			if legal[0].Kind == engine.ActDrawTickets {
				kind = "mix"
			}
			if !seen[kind] {
				hintCheck(t, w, views, g, seat, user, nil)
				seen[kind] = true
			}
		case engine.PhaseKeepTickets:
			if !seen["tickets"] {
				hintCheck(t, w, views, g, seat, user, nil)
				seen["tickets"] = true
			}
		case engine.PhaseTunnel:
			if !seen["tunnel"] {
				hintCheck(t, w, views, g, seat, user, nil)
				seen["tunnel"] = true
			}
		case engine.PhaseTurn:
			if !seen["turn"] {
				hintCheck(t, w, views, g, seat, user, nil)
				seen["turn"] = true
			}
			if p, ok := steer(g, seat, legal, seen); ok {
				a = p
			}
			if !seen["payment"] {
				if track, opts := greyPayments(g, seat, legal); opts != nil {
					ans := w.cmd(user, "claim", "", map[string]string{"route": engine.TrackRef(g.Board(), track)})
					if !strings.Contains(ans.msg.Content, present.T("", "pay.ask", "action", present.RouteLabel("", g.Board(), track))) {
						t.Fatalf("claiming a grey route with several colours: %q", ans.msg.Content)
					}
					hintCheck(t, w, views, g, seat, user, opts)
					seen["payment"] = true
					a = opts[0]
				}
			}
		}
		before := len(g.Log())
		ans := w.playRequest(g, gid, user, a)
		if g2, _ := w.game("c1"); g2 != nil && len(g2.Log()) == before {
			t.Fatalf("%s by %s was not played: %q", engine.FormatAction(g.Board(), a), user, ans.msg.Content)
		}
	}
	return seen
}

// steer picks a move towards a choice not yet hinted at: a ticket draw,
// or a tunnel's claim.
func steer(g *engine.Game, seat int, legal []engine.Action, seen map[string]bool) (engine.Action, bool) {
	for _, a := range legal {
		if !seen["tunnel"] && a.Kind == engine.ActClaim && g.Board().Tracks[a.Track].Tunnel {
			return a, true
		}
	}
	for _, a := range legal {
		if !seen["tickets"] && a.Kind == engine.ActDrawTickets {
			return a, true
		}
	}
	return engine.Action{}, false
}

// greyPayments finds a grey route seat can pay in more than one colour at
// the fewest locomotives, and those ways to pay.
func greyPayments(g *engine.Game, seat int, legal []engine.Action) (data.TrackID, []engine.Action) {
	for _, a := range legal {
		tr := &g.Board().Tracks[a.Track]
		if a.Kind != engine.ActClaim || tr.Color != data.Gray || tr.Tunnel || a.Passenger {
			continue
		}
		var opts []engine.Action
		fewest := 1 << 30
		for _, b := range legal {
			if b.Kind == engine.ActClaim && b.Track == a.Track && !b.Passenger {
				fewest = min(fewest, b.Locos+b.Locos4)
			}
		}
		for _, b := range legal {
			if b.Kind == engine.ActClaim && b.Track == a.Track && !b.Passenger && b.Locos+b.Locos4 == fewest && b.Color != data.Gray {
				opts = append(opts, b)
			}
		}
		if len(opts) > 1 {
			return a.Track, opts
		}
	}
	return -1, nil
}
