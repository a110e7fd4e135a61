package commands

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// tunnelCase is a game one claim away from a tunnel's reveal: the moves
// before, and the claim.
type tunnelCase struct {
	seed  uint64
	moves []engine.Move
	claim engine.Action
}

// tunnelCases finds, in games of two greedy players who hoard cards for a
// while, a tunnel claim of each kind: the reveal asks for cards the
// player can pay in colour ("colour"), a claim paid with locomotives only
// whose extra cards the player can pay ("locos"), a reveal that asks for
// nothing ("free"), and one the player cannot pay ("cannot").
func tunnelCases(t *testing.T, b *data.Board) map[string]tunnelCase {
	t.Helper()
	found := map[string]tunnelCase{}
	for seed := uint64(1); seed < 400 && len(found) < 4; seed++ {
		g, err := engine.New(engine.Config{Board: b, Variant: b.Variants[0].ID, Players: 2, Seed: seed, Revision: engine.LatestRevision})
		if err != nil {
			t.Fatal(err)
		}
		for g.Phase() == engine.PhaseSetup {
			seat := g.ToAct()
			g.Apply(seat, greedy{}.Choose(context.Background(), g.View(seat), g.LegalActions(seat, nil)))
		}
		for n := 0; g.Phase() != engine.PhaseOver && n < 400; n++ {
			seat := g.Current()
			legal := g.LegalActions(seat, nil)
			if g.Phase() == engine.PhaseTurn {
				for _, a := range legal {
					if a.Kind != engine.ActClaim || !b.Tracks[a.Track].Tunnel || a.Locos4 > 0 {
						continue
					}
					probe := g.Clone()
					if probe.Play(seat, a) != nil {
						continue
					}
					kind := ""
					switch pays := probe.CanPayTunnel(seat); {
					case probe.Phase() != engine.PhaseTunnel:
						kind = "free"
					case len(pays) == 0:
						kind = "cannot"
					case a.Color == data.Gray:
						kind = "locos"
					default:
						_, _, extra, _ := probe.TunnelReveal()
						if pays[0] < extra {
							kind = "colour"
						}
					}
					if _, ok := found[kind]; kind != "" && !ok {
						found[kind] = tunnelCase{seed: seed, moves: append([]engine.Move(nil), g.Log()...), claim: a}
					}
				}
			}
			// Hoard cards for a while, then claim greedily.
			a := greedy{}.Choose(context.Background(), g.View(seat), legal)
			if g.Turn() < 30 {
				for _, d := range legal {
					if d.Kind == engine.ActDraw && d.Slot == engine.DeckSlot {
						a = d
					}
				}
			}
			if _, err := g.Apply(seat, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, k := range []string{"colour", "locos", "free", "cannot"} {
		if _, ok := found[k]; !ok {
			t.Fatalf("no tunnel claim of the %q kind was found", k)
		}
	}
	return found
}

// TestTunnelPromptSaysWhatIsPossible: after a tunnel's reveal the player
// is offered exactly the payments the rules allow, each naming its cards by
// colour; when nothing is due the claim goes through and says so; when
// nothing can pay, only giving up is offered, and said; giving up says the
// cards came back.
func TestTunnelPromptSaysWhatIsPossible(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	b, _ := data.Embedded().Board("europe")
	cases := tunnelCases(t, b)
	users := []string{"u1", "u2"}
	for kind, c := range cases {
		ch := "tunnel-" + kind
		rec := &store.GameRecord{Channel: ch, Guild: "g1", Map: "europe", Variant: b.Variants[0].ID, Seed: c.seed, Rules: engine.LatestRevision,
			Status: store.StatusPlaying, Options: map[string]string{"locale": "en"},
			Seats: []store.Seat{{UserID: "u1", Name: "Ann", Color: "red"}, {UserID: "u2", Name: "Ben", Color: "blue"}}}
		for _, m := range c.moves {
			rec.Log = append(rec.Log, store.LogEntry{Seat: m.Seat, Action: engine.FormatAction(b, m.Action), At: w.now})
		}
		if err := w.store.Put(rec); err != nil {
			t.Fatal(err)
		}
		g, err := engine.ReplayNotation(engine.Config{Board: b, Variant: rec.Variant, Players: 2, Seed: c.seed, Revision: engine.LatestRevision}, logMoves(rec), nil)
		if err != nil {
			t.Fatal(err)
		}
		seat := g.Current()
		route := present.RouteLabel("en", b, c.claim.Track)
		opts := map[string]string{"route": engine.TrackRef(b, c.claim.Track), "locomotives": strconv.Itoa(c.claim.Locos)}
		if c.claim.Color != data.Gray {
			opts["color"] = c.claim.Color.String()
		}
		a := w.do(&Request{Type: CommandRequest, Channel: ch, User: users[seat], Name: "claim", Options: opts})
		text := a.msg.Content
		var pays, giveUp []Component
		for _, row := range a.msg.Components {
			for _, comp := range row {
				switch {
				case strings.HasSuffix(comp.ID, ":cancel"):
					giveUp = append(giveUp, comp)
				case strings.Contains(comp.ID, ":pay"):
					pays = append(pays, comp)
				}
			}
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, route) && strings.Contains(strings.ToLower(line), "the tunnel") {
				t.Errorf("%s: the route's kind is said twice: %q", kind, line)
			}
		}
		switch kind {
		case "free":
			if !strings.Contains(text, "nothing more to pay") || len(pays)+len(giveUp) > 0 || !strings.Contains(text, "You claimed "+route) {
				t.Errorf("free: the claim goes through, saying nothing was due: %q %+v", text, a.msg.Components)
			}
			if strings.Contains(text, "0 more card") {
				t.Errorf("free: %q", text)
			}
			continue
		case "cannot":
			if len(pays) != 0 || len(giveUp) != 1 || !strings.Contains(text, present.T("en", "you.tunnel_cannot")) || strings.Contains(text, "Pay the extra cards") {
				t.Errorf("cannot: only giving up, and said so: %q %+v", text, a.msg.Components)
			}
		case "colour", "locos":
			if len(pays) == 0 || len(giveUp) != 1 || !strings.Contains(text, present.T("en", "you.tunnel_pay")) {
				t.Fatalf("%s: payments and giving up: %q %+v", kind, text, a.msg.Components)
			}
			for _, p := range pays {
				if strings.Contains(p.Label, p.Emoji) || !strings.HasPrefix(p.Label, "Pay ") {
					t.Errorf("%s: a payment button %q (emoji %q) should name its cards once, by colour", kind, p.Label, p.Emoji)
				}
				colour := present.CardName("en", engine.ColorCard(c.claim.Color))
				if kind == "colour" && !strings.Contains(p.Label, colour) && !strings.Contains(p.Label, "locomotive") {
					t.Errorf("colour: %q names neither %s nor locomotives", p.Label, colour)
				}
				if kind == "locos" && (!strings.Contains(p.Label, "locomotive") || strings.Count(p.Label, "×") != 1) {
					t.Errorf("locos: %q should pay locomotives only", p.Label)
				}
			}
			// Each button is a payment the rules allow: pressed on a copy
			// of the game, it is played.
			probe := g.Clone()
			if err := probe.Play(seat, c.claim); err != nil {
				t.Fatal(err)
			}
			allowed := probe.CanPayTunnel(seat)
			if len(pays) != min(len(allowed), 4) {
				t.Errorf("%s: %d payment buttons, the rules allow %d", kind, len(pays), len(allowed))
			}
		}
		// Giving up says what happened.
		r := w.do(&Request{Type: ComponentRequest, Channel: ch, User: users[seat], CustomID: giveUp[0].ID})
		if want := present.T("en", "you.tunnel_giveup", "route", route); !strings.Contains(r.msg.Content, want) {
			t.Errorf("%s: giving up answers %q, want %q", kind, r.msg.Content, want)
		}
	}
}
