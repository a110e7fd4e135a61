package engine

import "conductor/data"

// RevealsHidden reports whether playing a shows anybody something that was
// hidden before: a card from the deck (a blind draw, or the card that
// refills a face-up slot), tickets from their deck, a tunnel's three cards,
// or a ticket choice made after seeing them. A move that reveals nothing can
// be taken back without giving anyone knowledge they could replay with.
func RevealsHidden(b *data.Board, a Action) bool {
	switch a.Kind {
	case ActDraw, ActDrawTickets, ActKeep, ActTunnelPay, ActTunnelCancel:
		return true
	case ActClaim:
		return b.Tracks[a.Track].Tunnel
	}
	return false
}
