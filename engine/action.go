package engine

import (
	"slices"

	"conductor/data"
)

// ActionKind says what a player does.
type ActionKind uint8

const (
	ActNone ActionKind = iota
	// ActDraw takes a train card: face-up Slot 0..4, or DeckSlot for a blind draw.
	ActDraw
	// ActClaim claims Track paying Length cards: Locos locomotives, Locos4
	// Locomotive +4 cards (Märklin) and the rest in Color. With Passenger set
	// it also places a passenger on City, one of the track's ends (Märklin).
	ActClaim
	// ActDrawTickets draws destination tickets. Long is the number taken from
	// the long deck when the variant lets the player announce a mix (Märklin,
	// also at setup).
	ActDrawTickets
	// ActKeep keeps the pending tickets whose indices are set in Keep.
	ActKeep
	// ActStation builds a station on City paying Locos locomotives and the
	// rest in Color.
	ActStation
	// ActTunnelPay pays the extra cards a tunnel asks for: Locos locomotives
	// and the rest in the colour played.
	ActTunnelPay
	// ActTunnelCancel takes the played cards back; the turn ends.
	ActTunnelCancel
	// ActMovePassenger moves the player's passenger on City along Path.
	ActMovePassenger
	// ActPass ends the turn of a player who can do nothing else.
	ActPass
)

// DeckSlot is ActDraw's Slot for a blind draw from the deck.
const DeckSlot = -1

// NoCity is a CityID meaning "none".
const NoCity data.CityID = -1

// Action is one step of a player's turn.
type Action struct {
	Kind      ActionKind
	Slot      int
	Track     data.TrackID
	City      data.CityID
	Color     data.Color
	Locos     int
	Locos4    int
	Passenger bool
	Long      int
	Keep      uint64
	Path      []data.TrackID
}

// Equal reports whether a and b are the same action (Path makes Action
// incomparable with ==).
func (a Action) Equal(b Action) bool {
	return a.Kind == b.Kind && a.Slot == b.Slot && a.Track == b.Track && a.City == b.City &&
		a.Color == b.Color && a.Locos == b.Locos && a.Locos4 == b.Locos4 && a.Passenger == b.Passenger &&
		a.Long == b.Long && a.Keep == b.Keep && slices.Equal(a.Path, b.Path)
}

// Draw returns the action of drawing face-up slot (0..4) or DeckSlot.
func Draw(slot int) Action { return Action{Kind: ActDraw, Slot: slot} }

// Claim returns the action of claiming t with the given payment.
func Claim(t data.TrackID, c data.Color, locos int) Action {
	return Action{Kind: ActClaim, Track: t, Color: c, Locos: locos}
}

// KeepTickets returns the action keeping the pending tickets at these indices.
func KeepTickets(idx ...int) Action {
	var m uint64
	for _, i := range idx {
		m |= 1 << uint(i)
	}
	return Action{Kind: ActKeep, Keep: m}
}
