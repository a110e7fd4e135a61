package present

import (
	"strings"
	"testing"

	"conductor/engine"
)

// A turn reads as one line: two cards drawn (whatever the pile), tickets
// drawn then kept; a flush between two draws follows their line; the card
// drawn blind is never told; two seats' draws stay two lines.
func TestATurnIsOneLine(t *testing.T) {
	name := func(seat int) string { return []string{"Ada", "Bo"}[seat] }
	blind := engine.Event{Kind: engine.EvDrawBlind, Seat: 0}
	secret := engine.Event{Kind: engine.EvDrawnCard, Seat: 0, Card: engine.Card(3), Private: true}
	faceUp := func(c int) engine.Event {
		return engine.Event{Kind: engine.EvDrawFaceUp, Seat: 0, Card: engine.Card(c)}
	}
	for _, loc := range []string{"en", "fr", "de", "it"} {
		cases := []struct {
			name  string
			ev    []engine.Event
			lines int
		}{
			{"two from the deck", []engine.Event{blind, secret, blind, secret}, 1},
			{"face up then deck", []engine.Event{faceUp(1), blind, secret}, 1},
			{"deck then face up", []engine.Event{blind, secret, faceUp(2)}, 1},
			{"two face up", []engine.Event{faceUp(1), faceUp(2)}, 1},
			// As the engine tells them: each card taken is replaced in its slot
			// (an event of no seat's).
			{"two face up, refilled", []engine.Event{faceUp(1), {Kind: engine.EvFaceUp, Slot: 2, Card: engine.Card(4)}, faceUp(2), {Kind: engine.EvFaceUp, Slot: 3, Card: engine.Card(5)}}, 1},
			{"face up, refilled, then deck", []engine.Event{faceUp(1), {Kind: engine.EvFaceUp, Slot: 2, Card: engine.Card(4)}, blind, secret}, 1},
			{"a flush between", []engine.Event{faceUp(1), {Kind: engine.EvFlush}, blind}, 2},
			{"tickets drawn and kept", []engine.Event{{Kind: engine.EvTicketsDrawn, Seat: 0, Count: 3}, {Kind: engine.EvTicketsKept, Seat: 0, Count: 2}}, 1},
			{"two seats", []engine.Event{blind, {Kind: engine.EvDrawBlind, Seat: 1}}, 2},
		}
		for _, c := range cases {
			lines := Narrate(loc, nil, name, c.ev)
			if len(lines) != c.lines {
				t.Errorf("%s, %s: %q, want %d lines", loc, c.name, lines, c.lines)
				continue
			}
			if !strings.Contains(lines[0], "Ada") {
				t.Errorf("%s, %s: %q does not name the player", loc, c.name, lines[0])
			}
			if c.name == "a flush between" && lines[1] != T(loc, "ev.flush") {
				t.Errorf("%s: the flush is not told after the draws: %q", loc, lines)
			}
		}
		both := Narrate(loc, nil, name, []engine.Event{faceUp(1), faceUp(2)})[0]
		if !strings.Contains(both, CardLabel(loc, engine.Card(1))) || !strings.Contains(both, CardLabel(loc, engine.Card(2))) {
			t.Errorf("%s: two face-up cards read %q", loc, both)
		}
		kept := Narrate(loc, nil, name, []engine.Event{{Kind: engine.EvTicketsDrawn, Seat: 0, Count: 3}, {Kind: engine.EvTicketsKept, Seat: 0, Count: 2}})[0]
		if !strings.Contains(kept, "2") || !strings.Contains(kept, "3") {
			t.Errorf("%s: tickets read %q", loc, kept)
		}
	}
}
