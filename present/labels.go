package present

import (
	"fmt"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
)

// Labels: how cards, routes, tickets and seats are written in messages.

// CardName is a card's localised name: "blanc", "Lokomotive".
func CardName(loc string, c engine.Card) string { return T(loc, "card."+c.String()) }

// CardLabel is a card with its emoji: "⬜ white".
func CardLabel(loc string, c engine.Card) string { return CardEmoji(c) + " " + CardName(loc, c) }

// CardsLabel groups cards: "3× ⬜ white, 1× 🌈 locomotive", or "—" for none.
func CardsLabel(loc string, cards []engine.Card) string {
	var counts [engine.NumCards]int
	for _, c := range cards {
		counts[c]++
	}
	var parts []string
	for c, n := range counts {
		if n > 0 {
			parts = append(parts, CountedCard(loc, n, engine.Card(c)))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

// CardsText groups cards without their emoji, for a button whose emoji
// is apart: "2× red, 1× locomotive", or "—" for none.
func CardsText(loc string, cards []engine.Card) string {
	var counts [engine.NumCards]int
	for _, c := range cards {
		counts[c]++
	}
	var parts []string
	for c, n := range counts {
		if n > 0 {
			parts = append(parts, Number(loc, n)+"× "+CardName(loc, engine.Card(c)))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

// CountedCard is "3× ⬜ white", as CardsLabel writes each kind of card.
func CountedCard(loc string, n int, c engine.Card) string {
	return strconv.Itoa(n) + "× " + CardLabel(loc, c)
}

// CardEmoji marks a card's colour; the name always goes with it for
// colour-blind players. Each means its card only, in every text (🚂 tells
// a claim, 🧳 a passenger's trip): AppEmojis shows a picture in its place.
func CardEmoji(c engine.Card) string {
	switch c {
	case engine.Locomotive:
		return "🌈"
	case engine.Locomotive4:
		return "🚆"
	case engine.Passenger:
		return "🚶"
	}
	switch c.Color() {
	case data.Pink:
		return "🟪"
	case data.Blue:
		return "🟦"
	case data.Orange:
		return "🟧"
	case data.White:
		return "⬜"
	case data.Green:
		return "🟩"
	case data.Yellow:
		return "🟨"
	case data.Black:
		return "⬛"
	case data.Red:
		return "🟥"
	}
	return ""
}

// RouteLabel is how players see a track in their language:
// "Frankfurt – Paris (blanc 3)", "… (gris 2 tunnel)".
func RouteLabel(loc string, b *data.Board, id data.TrackID) string {
	tr := &b.Tracks[id]
	colour := T(loc, "engine.part.gray")
	if tr.Color != data.Gray {
		colour = T(loc, "card."+tr.Color.String())
	}
	kind := ""
	switch {
	case tr.Tunnel:
		kind = " " + T(loc, "engine.part.tunnel")
	case tr.Locomotives > 0:
		kind = " " + T(loc, "engine.part.ferry")
	}
	return b.TrackName(id) + " (" + colour + " " + strconv.Itoa(tr.Length) + kind + ")"
}

// RouteName is a track as the board's data names it, whatever the
// language: "Paris – Frankfurt (white 3)", one of the spellings a typed
// route may take.
func RouteName(b *data.Board, id data.TrackID) string {
	tr := &b.Tracks[id]
	kind := ""
	switch {
	case tr.Tunnel:
		kind = " tunnel"
	case tr.Locomotives > 0:
		kind = " ferry"
	}
	return b.Cities[tr.A].Name + " – " + b.Cities[tr.B].Name + " (" + tr.Color.String() + " " + strconv.Itoa(tr.Length) + kind + ")"
}

// TicketLabel is "Paris – Wien (8)".
func TicketLabel(b *data.Board, id data.TicketID) string {
	tk := &b.Tickets[id]
	return fmt.Sprintf("%s – %s (%d)", b.Cities[tk.A].Name, b.Cities[tk.B].Name, tk.Points)
}

// TicketList is tickets separated by commas, or "—" for none.
func TicketList(b *data.Board, ts []data.TicketID) string {
	var parts []string
	for _, id := range ts {
		parts = append(parts, TicketLabel(b, id))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

// ColorDot is the coloured circle emoji of a seat.
func ColorDot(seat int) string {
	return [...]string{"🔴", "🔵", "🟢", "🟡", "⚫"}[seat%5]
}
