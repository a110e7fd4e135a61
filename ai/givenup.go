package ai

import "conductor/engine"

// notGivenUp is legal without the claims of the tunnel the seat gave up on
// its turn just past (engine.PublicPlayer.GaveUp), in buf; legal itself
// when there is none, or when nothing else would be left. Given up, a
// tunnel takes its cards back: tried again at once, with the same hand,
// the same odds meet it, and when nearly every card is in a hand the few
// in the deck come round in the same order. Four bots once tried the same
// tunnels turn after turn, each giving up, for 10,000 turns (Europe,
// self-play seed 84000, game 23). A move in between (drawing cards, most
// often) changes the hand, the deck and the odds.
func notGivenUp(v *engine.PlayerView, legal []engine.Action, buf []engine.Action) []engine.Action {
	if v.Phase != engine.PhaseTurn || v.Seat < 0 || v.Seat >= len(v.Players) || !v.Players[v.Seat].GaveUpTunnel {
		return legal
	}
	t := v.Players[v.Seat].GaveUp
	out := buf[:0]
	for _, a := range legal {
		if a.Kind != engine.ActClaim || a.Track != t {
			out = append(out, a)
		}
	}
	if len(out) == len(legal) || len(out) == 0 {
		return legal
	}
	return out
}
