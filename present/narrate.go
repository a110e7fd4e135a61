package present

import (
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
)

// Narrate turns the public events of an action into lines for the channel,
// in the language of loc; name gives a seat's player name as typed (it is
// escaped here, so that a name never reads as markdown). Private events
// are skipped: they go only to their player (see NarrateOwn).
//
// A turn's two card draws read as one line, and tickets drawn then kept as
// one: given a whole turn's events, a turn reads as one line (a flush or a
// reshuffle between two draws follows the line of the draws).
func Narrate(loc string, b *data.Board, name func(seat int) string, ev []engine.Event) []string {
	var lines []string
	var public []engine.Event
	for _, e := range ev {
		if !e.Private {
			public = append(public, e)
		}
	}
	for i := 0; i < len(public); i++ {
		e := public[i]
		who := "**" + EscapeMarkdown(name(e.Seat)) + "**"
		if line, j, ok := pairLine(loc, who, public, i); ok {
			lines = append(lines, line)
			// What happened between the two (a flush, a reshuffle) follows.
			lines = append(lines, Narrate(loc, b, name, public[i+1:j])...)
			i = j
			continue
		}
		var line string
		switch e.Kind {
		case engine.EvDrawFaceUp:
			line = T(loc, "ev.draw_faceup", "player", who, "card", CardLabel(loc, e.Card))
		case engine.EvDrawBlind:
			line = T(loc, "ev.draw_blind", "player", who)
		case engine.EvFlush:
			line = T(loc, "ev.flush")
		case engine.EvReshuffle:
			line = T(loc, "ev.reshuffle", "n", e.Count)
		case engine.EvClaim:
			line = T(loc, "ev.claim", "player", who, "route", RouteLabel(loc, b, e.Track), "cards", CardsLabel(loc, e.Cards), "points", e.Points)
		case engine.EvTunnelReveal:
			key := "ev.tunnel"
			if e.Count == 0 {
				key = "ev.tunnel_free" // the claim goes through: told next
			}
			line = T(loc, key, "player", who, "route", RouteLabel(loc, b, e.Track), "cards", CardsLabel(loc, e.Cards), "n", e.Count)
		case engine.EvTunnelGiveUp:
			line = T(loc, "ev.tunnel_giveup", "player", who, "route", RouteLabel(loc, b, e.Track))
		case engine.EvTicketsDrawn:
			line = T(loc, "ev.tickets_drawn", "player", who, "n", e.Count)
		case engine.EvTicketsKept:
			line = T(loc, "ev.tickets_kept", "player", who, "n", e.Count)
		case engine.EvStation:
			line = T(loc, "ev.station", "player", who, "city", b.Cities[e.City].Name, "cards", CardsLabel(loc, e.Cards))
		case engine.EvPassengerPlaced:
			line = T(loc, "ev.passenger_placed", "player", who, "city", b.Cities[e.City].Name)
		case engine.EvPassengerMoved:
			goods := make([]string, len(e.Goods))
			for i, v := range e.Goods {
				goods[i] = strconv.Itoa(v)
			}
			line = T(loc, "ev.passenger_moved", "player", who, "city", b.Cities[e.City].Name, "n", len(e.Tracks), "goods", strings.Join(goods, "+"), "points", Signed(e.Points))
		case engine.EvPass:
			line = T(loc, "ev.pass", "player", who)
		case engine.EvLastRound:
			line = "🚨 " + T(loc, "ev.last_round", "player", who, "n", e.Count)
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// pairLine tells two events of one seat's turn as one line: two cards
// drawn, or tickets drawn and then kept. j is the second event's index; the
// events between i and j are only the display's own: a card turned up in
// the slot taken (told by no line, and carrying no seat), a new display, a
// flush or a reshuffle.
func pairLine(loc, who string, ev []engine.Event, i int) (line string, j int, ok bool) {
	e := ev[i]
	if e.Kind != engine.EvDrawBlind && e.Kind != engine.EvDrawFaceUp && e.Kind != engine.EvTicketsDrawn {
		return "", 0, false
	}
	j = i + 1
	for j < len(ev) && displayEvent(ev[j].Kind) {
		j++
	}
	if j == len(ev) || ev[j].Seat != e.Seat {
		return "", 0, false
	}
	f := ev[j]
	switch {
	case e.Kind == engine.EvTicketsDrawn && f.Kind == engine.EvTicketsKept && j == i+1:
		return T(loc, "ev.tickets_drawn_kept", "player", who, "n", e.Count, "kept", f.Count), j, true
	case e.Kind == engine.EvDrawBlind && f.Kind == engine.EvDrawBlind:
		return T(loc, "ev.draw_two_blind", "player", who, "n", 2), j, true
	case e.Kind == engine.EvDrawBlind && f.Kind == engine.EvDrawFaceUp:
		return T(loc, "ev.draw_blind_faceup", "player", who, "card", CardLabel(loc, f.Card)), j, true
	case e.Kind == engine.EvDrawFaceUp && f.Kind == engine.EvDrawBlind:
		return T(loc, "ev.draw_faceup_blind", "player", who, "card", CardLabel(loc, e.Card)), j, true
	case e.Kind == engine.EvDrawFaceUp && f.Kind == engine.EvDrawFaceUp:
		return T(loc, "ev.draw_two_faceup", "player", who, "card", CardLabel(loc, e.Card), "card2", CardLabel(loc, f.Card)), j, true
	}
	return "", 0, false
}

// NarrateOwn tells the player at seat what their own action did, including
// what only they may know (the card drawn, the tickets kept).
func NarrateOwn(loc string, b *data.Board, seat int, ev []engine.Event) []string {
	var lines []string
	for _, e := range ev {
		if e.Seat != seat {
			continue
		}
		switch e.Kind {
		case engine.EvDrawnCard:
			lines = append(lines, T(loc, "you.drew", "card", CardLabel(loc, e.Card)))
		case engine.EvDrawFaceUp:
			lines = append(lines, T(loc, "you.took", "card", CardLabel(loc, e.Card)))
		case engine.EvClaim:
			lines = append(lines, T(loc, "you.claimed", "route", RouteLabel(loc, b, e.Track), "cards", CardsLabel(loc, e.Cards), "points", e.Points))
		case engine.EvTunnelReveal:
			if e.Count == 0 {
				lines = append(lines, T(loc, "you.tunnel_free", "cards", CardsLabel(loc, e.Cards)))
			} else {
				lines = append(lines, T(loc, "you.tunnel", "cards", CardsLabel(loc, e.Cards), "n", e.Count))
			}
		case engine.EvTunnelGiveUp:
			lines = append(lines, T(loc, "you.tunnel_giveup", "route", RouteLabel(loc, b, e.Track)))
		case engine.EvStation:
			lines = append(lines, T(loc, "you.station", "city", b.Cities[e.City].Name, "cards", CardsLabel(loc, e.Cards)))
		case engine.EvTicketsChosen:
			lines = append(lines, T(loc, "you.kept", "tickets", TicketList(b, e.Tickets)))
		case engine.EvPassengerMoved:
			lines = append(lines, T(loc, "you.moved", "points", e.Points))
		}
	}
	return lines
}

// displayEvent: an event of the cards on display and the deck, between a
// seat's two draws, not a move of anyone's.
func displayEvent(k engine.EventKind) bool {
	return k == engine.EvFaceUp || k == engine.EvDisplay || k == engine.EvFlush || k == engine.EvReshuffle
}
