package engine

import (
	"fmt"

	"conductor/data"
)

// EventKind names what happened. Events narrate a move for the channel;
// those with Private set are for Seat's eyes only.
type EventKind uint8

const (
	EvDrawFaceUp      EventKind = iota + 1 // Seat took face-up Card from Slot
	EvDrawBlind                            // Seat drew from the deck (public: no card)
	EvDrawnCard                            // private: the card Seat drew blind
	EvFaceUp                               // Card turned up into Slot
	EvFlush                                // three locomotives (or passengers): the display is discarded
	EvDisplay                              // the new display, Cards
	EvReshuffle                            // the discards became the deck (Count cards)
	EvClaim                                // Seat claimed Track with Cards, scoring Points
	EvTunnelReveal                         // Cards revealed for Seat's tunnel on Track; Count extra cards needed
	EvTunnelGiveUp                         // Seat took the cards back
	EvTicketsDrawn                         // Seat drew Count tickets (public)
	EvTicketsOffered                       // private: Tickets offered to Seat
	EvTicketsKept                          // Seat kept Count tickets (public)
	EvTicketsChosen                        // private: Tickets kept by Seat
	EvStation                              // Seat built a station on City with Cards
	EvPassengerPlaced                      // Seat's passenger placed on City
	EvPassengerMoved                       // Seat's passenger moved along Tracks, collecting Goods, scoring Points
	EvPass                                 // Seat could do nothing and passed
	EvLastRound                            // Seat's trains fell to the end level: everyone plays one more turn
	EvTurn                                 // it is Seat's turn
	EvGameOver                             // the game is over; see Game.Final
)

// Event is one narrated step.
type Event struct {
	Kind    EventKind
	Seat    int
	Private bool
	Slot    int
	Card    Card
	Cards   []Card
	Track   data.TrackID
	City    data.CityID
	Tracks  []data.TrackID
	Tickets []data.TicketID
	Goods   []int
	Count   int
	Points  int
}

func (g *Game) emit(e Event) {
	if g.narrate {
		g.events = append(g.events, e)
	}
}

// Describe renders an event in plain English for logs and tests; the bot
// localises events itself.
func (g *Game) Describe(e Event) string {
	b := g.board
	who := fmt.Sprintf("player %d", e.Seat+1)
	switch e.Kind {
	case EvDrawFaceUp:
		return fmt.Sprintf("%s took a face-up %s", who, e.Card)
	case EvDrawBlind:
		return who + " drew a card from the deck"
	case EvDrawnCard:
		return fmt.Sprintf("%s drew %s", who, e.Card)
	case EvFaceUp:
		return fmt.Sprintf("%s turned up in slot %d", e.Card, e.Slot+1)
	case EvFlush:
		return "three locomotives face up: the display is discarded"
	case EvDisplay:
		return fmt.Sprintf("new display: %v", e.Cards)
	case EvReshuffle:
		return fmt.Sprintf("the discards are shuffled into a new deck of %d cards", e.Count)
	case EvClaim:
		return fmt.Sprintf("%s claimed %s with %v for %d points", who, b.TrackName(e.Track), e.Cards, e.Points)
	case EvTunnelReveal:
		return fmt.Sprintf("tunnel %s: revealed %v, %d more cards needed", b.TrackName(e.Track), e.Cards, e.Count)
	case EvTunnelGiveUp:
		return who + " took the cards back"
	case EvTicketsDrawn:
		return fmt.Sprintf("%s drew %d tickets", who, e.Count)
	case EvTicketsOffered:
		return fmt.Sprintf("%s was offered %d tickets", who, len(e.Tickets))
	case EvTicketsKept:
		return fmt.Sprintf("%s kept %d tickets", who, e.Count)
	case EvTicketsChosen:
		return fmt.Sprintf("%s chose %d tickets", who, len(e.Tickets))
	case EvStation:
		return fmt.Sprintf("%s built a station in %s", who, b.Cities[e.City].Name)
	case EvPassengerPlaced:
		return fmt.Sprintf("%s placed a passenger in %s", who, b.Cities[e.City].Name)
	case EvPassengerMoved:
		return fmt.Sprintf("%s moved a passenger over %d routes collecting %v (%d points)", who, len(e.Tracks), e.Goods, e.Points)
	case EvPass:
		return who + " passed"
	case EvLastRound:
		return fmt.Sprintf("%s has %d trains left: last round", who, e.Count)
	case EvTurn:
		return who + " to play"
	case EvGameOver:
		return "game over"
	}
	return fmt.Sprintf("event %d", e.Kind)
}
