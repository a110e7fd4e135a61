package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
)

// The page's moves reach the table as moves: a track claimed by its engine
// reference, a button pressed by its custom id. Each is answered as soon as
// it is decided, while Discord holds the channel's posts (Handle would
// wait for them), and a move repeated (the page sends its nonce again) is
// applied once.
func TestPageMovesAreMovesAnsweredAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // before the service closes
	w.setPoster(stuckPoster{w.poster, release})
	move := func(m PageMove) []Message {
		t.Helper()
		m.Guild, m.Channel, m.UserName = "g1", "c1", "name-"+m.User
		var got []Message
		if !returned(5*time.Second, func() { got = w.svc.Move(context.Background(), m) }) {
			t.Fatalf("the page's move %+v waits for Discord", m)
		}
		return got
	}
	g, _ := w.game("c1")
	moves := len(g.Log())

	// Not the reader's turn: refused as the button would be, nothing played.
	if a := move(PageMove{ID: "n0", User: "u2", Press: "draw:" + gid + ":0:deck"}); len(a) != 1 || !strings.Contains(a[0].Content, "turn") {
		t.Fatalf("a draw out of turn: %+v", a)
	}
	// Two draws from the deck, by the board's button; the second one ends
	// the turn, and its board waits for Discord.
	for i, id := range []string{"n1", "n2"} {
		a := move(PageMove{ID: id, User: "u1", Press: "draw:" + gid + ":0:deck"})
		if len(a) != 1 || !strings.Contains(a[0].Content, "You drew") {
			t.Fatalf("draw %d: %+v", i+1, a)
		}
	}
	// The same nonce again: answered with nothing, applied once.
	if a := move(PageMove{ID: "n2", User: "u1", Press: "draw:" + gid + ":0:deck"}); a != nil {
		t.Fatalf("a repeated move is answered %+v", a)
	}
	if g, _ = w.game("c1"); len(g.Log()) != moves+2 || g.Current() != 1 {
		t.Fatalf("%d moves played, seat %d to play; want 2 and seat 2", len(g.Log())-moves, g.Current())
	}

	if a := move(PageMove{ID: "bad", User: "u2", Track: "Nowhere|Else"}); len(a) != 1 || !strings.Contains(a[0].Content, "Nowhere") {
		t.Fatalf("an unknown track: %+v", a)
	}
	// A track, by its engine reference: claimed as /claim claims it (or
	// refused as it would refuse it).
	var legal *engine.Action
	for _, a := range g.LegalActions(1, nil) {
		if a.Kind == engine.ActClaim {
			legal = &a
			break
		}
	}
	track := data.TrackID(0)
	if legal != nil {
		track = legal.Track
	}
	a := move(PageMove{ID: "claim", User: "u2", Track: engine.TrackRef(g.Board(), track)})
	g, _ = w.game("c1")
	switch {
	case len(a) == 0:
		t.Fatal("the claim is not answered")
	case legal == nil && strings.HasPrefix(a[0].Content, "⛔"):
	case legal != nil && (g.Owner(track) == 1 || findButton(a[0], "pay:") != ""):
	default:
		t.Fatalf("claiming %s from the page (legal: %v): %+v", engine.TrackRef(g.Board(), track), legal != nil, a)
	}
}
