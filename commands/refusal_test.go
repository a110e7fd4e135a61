package commands

import (
	"strconv"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// TestRefusalReachesThePlayer goes through the service: a German player
// claiming a route taken by the other player reads it in German, with the
// other player's name.
func TestRefusalReachesThePlayer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	g, _ := w.game("c1")
	b := g.Board()
	// Draw until u1 can claim something, the other player drawing too.
	for turn := 0; ; turn++ {
		if turn > 40 {
			t.Fatal("no route became affordable")
		}
		seat := g.Current()
		user := "u" + strconv.Itoa(seat+1)
		var claim *engine.Action
		if seat == 0 {
			for id := range b.Tracks {
				for _, c := range data.CardColors {
					a := engine.Claim(data.TrackID(id), c, 0)
					if claim == nil && g.Clone().Play(0, a) == nil {
						claim = &a
					}
				}
			}
		}
		if claim == nil {
			w.playRequest(g, gid, user, engine.Draw(engine.DeckSlot))
			w.playRequest(g, gid, user, engine.Draw(engine.DeckSlot))
			continue
		}
		w.playRequest(g, gid, user, *claim)
		if g.Owner(claim.Track) != 0 {
			t.Fatalf("u1's claim of %s did not go through", b.TrackName(claim.Track))
		}
		a := w.do(&Request{Type: CommandRequest, User: "u2", Name: "claim", Locale: "de",
			Options: map[string]string{"route": engine.TrackRef(b, claim.Track), "color": claim.Color.String(), "locomotives": "0"}})
		want := "⛔ " + present.RouteLabel("de", b, claim.Track) + " ist schon von name-u1 gebaut."
		if a.msg.Content != want || !a.msg.Ephemeral {
			t.Fatalf("German refusal: %q (ephemeral %v), want %q", a.msg.Content, a.msg.Ephemeral, want)
		}
		return
	}
}
