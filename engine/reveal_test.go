package engine

import (
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// Only moves that show nothing hidden can be taken back honestly.
func TestRevealsHidden(t *testing.T) {
	b := testkit.Board(t, "europe")
	tunnel, plain := -1, -1
	for i, tr := range b.Tracks {
		if tr.Tunnel && tunnel < 0 {
			tunnel = i
		}
		if !tr.Tunnel && plain < 0 {
			plain = i
		}
	}
	for _, tc := range []struct {
		a    Action
		want bool
	}{
		{Draw(DeckSlot), true},
		{Draw(2), true}, // the slot is refilled from the deck
		{Action{Kind: ActDrawTickets}, true},
		{KeepTickets(0), true},
		{Action{Kind: ActClaim, Track: data.TrackID(tunnel)}, true},
		{Action{Kind: ActTunnelPay}, true},
		{Action{Kind: ActTunnelCancel}, true},
		{Action{Kind: ActClaim, Track: data.TrackID(plain)}, false},
		{Action{Kind: ActStation}, false},
		{Action{Kind: ActMovePassenger}, false},
		{Action{Kind: ActPass}, false},
	} {
		if got := RevealsHidden(b, tc.a); got != tc.want {
			t.Errorf("%+v reveals %v, want %v", tc.a, got, tc.want)
		}
	}
}
