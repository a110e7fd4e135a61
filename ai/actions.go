package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// Helpers that find actions in the legal list: a bot always answers with
// one of the actions it was offered.

// forced answers when there is no choice to make: the only legal action,
// or a pass when none is offered (the game is over or it is not this
// seat's turn; the engine will refuse it).
func forced(legal []engine.Action) (engine.Action, bool) {
	switch len(legal) {
	case 0:
		return engine.Action{Kind: engine.ActPass}, true
	case 1:
		return legal[0], true
	}
	return engine.Action{}, false
}

// claimSet is the legal claims grouped by track, in the order offered.
// A set reset for each decision reuses its buffers; when each track's
// claims come together in the legal list (as engine.LegalActions lists
// them) it points into the list instead of copying.
type claimSet struct {
	legal  []engine.Action
	span   [][2]int32        // by TrackID: the track's claims are legal[lo:hi]
	by     [][]engine.Action // by TrackID, when the claims are scattered
	copied bool
	tracks []data.TrackID // the tracks with a claim, in id order
}

// claimOptions groups the legal claims by track.
func claimOptions(legal []engine.Action) *claimSet {
	c := &claimSet{}
	c.reset(legal)
	return c
}

func (c *claimSet) reset(legal []engine.Action) {
	for _, t := range c.tracks {
		c.span[t] = [2]int32{}
		if c.copied {
			c.by[t] = c.by[t][:0]
		}
	}
	c.tracks, c.copied, c.legal = c.tracks[:0], false, legal
	for i, a := range legal {
		if a.Kind != engine.ActClaim {
			continue
		}
		t := int(a.Track)
		for len(c.span) <= t {
			c.span = append(c.span, [2]int32{})
		}
		sp := &c.span[t]
		switch {
		case sp[1] == 0:
			c.tracks = append(c.tracks, a.Track)
			*sp = [2]int32{int32(i), int32(i + 1)}
		case int(sp[1]) == i:
			sp[1]++
		default:
			c.copied = true
		}
	}
	slices.Sort(c.tracks)
	if !c.copied {
		return
	}
	// Scattered claims: copy them by track.
	for len(c.by) < len(c.span) {
		c.by = append(c.by, nil)
	}
	for _, t := range c.tracks {
		c.by[t] = c.by[t][:0]
	}
	for _, a := range legal {
		if a.Kind == engine.ActClaim {
			c.by[a.Track] = append(c.by[a.Track], a)
		}
	}
}

// of returns the claims of track t, in the order offered (read only).
func (c *claimSet) of(t data.TrackID) []engine.Action {
	if t < 0 || int(t) >= len(c.span) || c.span[t][1] == 0 {
		return nil
	}
	if c.copied {
		return c.by[t]
	}
	sp := c.span[t]
	return c.legal[sp[0]:sp[1]:sp[1]]
}

// len counts the tracks with a claim.
func (c *claimSet) len() int { return len(c.tracks) }

// firstOf returns the first legal action of a kind.
func firstOf(legal []engine.Action, kind engine.ActionKind) (engine.Action, bool) {
	for _, a := range legal {
		if a.Kind == kind {
			return a, true
		}
	}
	return engine.Action{}, false
}

// drawSlot returns the legal draw of a face-up slot (or engine.DeckSlot).
func drawSlot(legal []engine.Action, slot int) (engine.Action, bool) {
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot == slot {
			return a, true
		}
	}
	return engine.Action{}, false
}

// fallback is the action a bot plays when nothing better comes to mind: a
// blind draw, another draw, or the first action offered.
func fallback(legal []engine.Action) engine.Action {
	if a, ok := drawSlot(legal, engine.DeckSlot); ok {
		return a
	}
	if a, ok := firstOf(legal, engine.ActDraw); ok {
		return a
	}
	return legal[0]
}

// appendPlain appends to buf the claims of opts that place no passenger.
func appendPlain(buf, opts []engine.Action) []engine.Action {
	for _, a := range opts {
		if !a.Passenger {
			buf = append(buf, a)
		}
	}
	return buf
}

// hasPlain reports whether some claim of opts places no passenger.
func hasPlain(opts []engine.Action) bool {
	for _, a := range opts {
		if !a.Passenger {
			return true
		}
	}
	return false
}

// withPassenger returns the option paying like pay and placing a passenger
// on city, if offered.
func withPassenger(opts []engine.Action, pay engine.Action, city data.CityID) (engine.Action, bool) {
	for _, a := range opts {
		if a.Passenger && a.City == city && a.Color == pay.Color && a.Locos == pay.Locos && a.Locos4 == pay.Locos4 {
			return a, true
		}
	}
	return engine.Action{}, false
}

// spend returns hand less the cards a claim or station pays.
func spend(b *data.Board, hand engine.Hand, a engine.Action, length int) engine.Hand {
	colored := length - a.Locos - a.Locos4
	if colored > 0 && a.Color != data.Gray {
		hand[engine.ColorCard(a.Color)] -= colored
	}
	hand[engine.Locomotive] -= a.Locos
	hand[engine.Locomotive4] -= a.Locos4
	return hand
}
