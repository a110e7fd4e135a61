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

// claimOptions groups the legal claims by track, in the order offered.
func claimOptions(legal []engine.Action) map[data.TrackID][]engine.Action {
	m := map[data.TrackID][]engine.Action{}
	for _, a := range legal {
		if a.Kind == engine.ActClaim {
			m[a.Track] = append(m[a.Track], a)
		}
	}
	return m
}

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

// plainPayments keeps the claims that place no passenger.
func plainPayments(opts []engine.Action) []engine.Action {
	var out []engine.Action
	for _, a := range opts {
		if !a.Passenger {
			out = append(out, a)
		}
	}
	return out
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

// sortedTracks lists the tracks of claim options in id order, so that
// choices never depend on map order.
func sortedTracks(opts map[data.TrackID][]engine.Action) []data.TrackID {
	out := make([]data.TrackID, 0, len(opts))
	for t := range opts {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}
