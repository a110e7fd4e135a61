package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

// Every card, the empty face-up slot included, reads back as written: a
// scene kept as JSON (a board waiting in the outbox) holds face-up slots.
func TestCardsReadBackAsWritten(t *testing.T) {
	var cards []Card
	for c := NoCard; c < NumCards; c++ {
		cards = append(cards, c)
	}
	raw, err := json.Marshal(cards)
	if err != nil {
		t.Fatal(err)
	}
	var back []Card
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatalf("%s does not read back: %v", raw, err)
	}
	if !slices.Equal(back, cards) {
		t.Fatalf("read back %v, wrote %v", back, cards)
	}
	if _, err := ParseCard("none"); err == nil {
		t.Error("a player may name no card")
	}
}
