// Package engine holds the rules of Ticket to Ride: game state, actions,
// validation and scoring. It is pure and deterministic: no I/O, no clock,
// randomness only from the seed held in the state.
package engine

import (
	"fmt"

	"conductor/data"
)

// Card is a train card. The eight colours share their values with data.Color
// (Pink..Red); the rest are wild or special cards.
type Card uint8

const (
	NoCard      Card = 0 // an empty face-up slot
	Locomotive  Card = 9
	Locomotive4 Card = 10 // Märklin Locomotive +4: wild on routes of 4 or more
	Passenger   Card = 11 // Märklin Passenger card: moves a passenger over an opponent's route
	// NumCards sizes arrays indexed by Card.
	NumCards = 12
)

// ColorCard returns the card of a colour (Pink..Red).
func ColorCard(c data.Color) Card { return Card(c) }

// Color returns the colour of a colour card, or data.Gray for any other card.
func (c Card) Color() data.Color {
	if c.IsColor() {
		return data.Color(c)
	}
	return data.Gray
}

// IsColor reports whether c is one of the eight colour cards.
func (c Card) IsColor() bool { return c >= Card(data.Pink) && c <= Card(data.Red) }

// String is the card's English name as players type it.
func (c Card) String() string {
	switch {
	case c == NoCard:
		return "none"
	case c.IsColor():
		return data.Color(c).String()
	case c == Locomotive:
		return "locomotive"
	case c == Locomotive4:
		return "locomotive+4"
	case c == Passenger:
		return "passenger"
	}
	return fmt.Sprintf("card(%d)", uint8(c))
}

// ParseCard reads a card name: a colour, "locomotive" (or "loco", "wild"),
// "locomotive+4" or "passenger".
func ParseCard(s string) (Card, error) {
	switch s {
	case "locomotive", "loco", "wild", "rainbow":
		return Locomotive, nil
	case "locomotive+4", "loco+4", "locomotive4", "loco4", "+4":
		return Locomotive4, nil
	case "passenger":
		return Passenger, nil
	}
	col, err := data.ParseColor(s)
	if err != nil || col == data.Gray {
		return NoCard, fmt.Errorf("unknown card %q (use a colour, locomotive, locomotive+4 or passenger)", s)
	}
	return ColorCard(col), nil
}

func (c Card) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads what MarshalText writes: a card's name, or "none" for
// an empty face-up slot (a picture's scene keeps its slots so).
func (c *Card) UnmarshalText(b []byte) error {
	if string(b) == "none" {
		*c = NoCard
		return nil
	}
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Hand counts cards by kind.
type Hand [NumCards]int

// Total counts every card in the hand.
func (h *Hand) Total() int {
	n := 0
	for _, v := range h {
		n += v
	}
	return n
}
