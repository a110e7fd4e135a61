package commands

import (
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

const historyLen = 50

// narrate turns the public events of an action into lines for the channel,
// in the server's language. Private events are skipped: they go only to
// their player.
func (t *table) narrate(s *Service, rec *store.GameRecord, g *engine.Game, ev []engine.Event) {
	loc := rec.Options["locale"]
	b := g.Board()
	for _, e := range ev {
		if e.Private {
			continue
		}
		who := "**" + seatName(rec, e.Seat) + "**"
		var line string
		switch e.Kind {
		case engine.EvDrawFaceUp:
			line = present.T(loc, "ev.draw_faceup", "player", who, "card", cardLabel(loc, e.Card))
		case engine.EvDrawBlind:
			line = present.T(loc, "ev.draw_blind", "player", who)
		case engine.EvFlush:
			line = present.T(loc, "ev.flush")
		case engine.EvReshuffle:
			line = present.T(loc, "ev.reshuffle", "n", e.Count)
		case engine.EvClaim:
			line = present.T(loc, "ev.claim", "player", who, "route", localRouteLabel(loc, b, e.Track), "cards", cardsLabel(loc, e.Cards), "points", e.Points)
		case engine.EvTunnelReveal:
			line = present.T(loc, "ev.tunnel", "player", who, "route", localRouteLabel(loc, b, e.Track), "cards", cardsLabel(loc, e.Cards), "n", e.Count)
		case engine.EvTunnelGiveUp:
			line = present.T(loc, "ev.tunnel_giveup", "player", who)
		case engine.EvTicketsDrawn:
			line = present.T(loc, "ev.tickets_drawn", "player", who, "n", e.Count)
		case engine.EvTicketsKept:
			line = present.T(loc, "ev.tickets_kept", "player", who, "n", e.Count)
		case engine.EvStation:
			line = present.T(loc, "ev.station", "player", who, "city", b.Cities[e.City].Name, "cards", cardsLabel(loc, e.Cards))
		case engine.EvPassengerPlaced:
			line = present.T(loc, "ev.passenger_placed", "player", who, "city", b.Cities[e.City].Name)
		case engine.EvPassengerMoved:
			goods := make([]string, len(e.Goods))
			for i, v := range e.Goods {
				goods[i] = strconv.Itoa(v)
			}
			line = present.T(loc, "ev.passenger_moved", "player", who, "city", b.Cities[e.City].Name, "n", len(e.Tracks), "goods", strings.Join(goods, "+"), "points", e.Points)
		case engine.EvPass:
			line = present.T(loc, "ev.pass", "player", who)
		case engine.EvLastRound:
			line = "🚨 " + present.T(loc, "ev.last_round", "player", who, "n", e.Count)
		}
		if line == "" {
			continue
		}
		t.turnLog = append(t.turnLog, line)
		t.history = append(t.history, line)
	}
	if n := len(t.history); n > historyLen {
		t.history = append(t.history[:0], t.history[n-historyLen:]...)
	}
}

// routeLabel is "Paris – Frankfurt (white 3)", how players see a track.
func routeLabel(b *data.Board, id data.TrackID) string {
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

// cardName is a card's localised name.
func cardName(loc string, c engine.Card) string { return present.T(loc, "card."+c.String()) }

// cardLabel is a card with its emoji.
func cardLabel(loc string, c engine.Card) string { return cardEmoji(c) + " " + cardName(loc, c) }

// cardsLabel groups cards: "3× white, 1× locomotive".
func cardsLabel(loc string, cards []engine.Card) string {
	var counts [engine.NumCards]int
	for _, c := range cards {
		counts[c]++
	}
	var parts []string
	for c, n := range counts {
		if n > 0 {
			parts = append(parts, strconv.Itoa(n)+"× "+cardLabel(loc, engine.Card(c)))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

// cardEmoji marks a card's colour; the name always goes with it for
// colour-blind players.
func cardEmoji(c engine.Card) string {
	switch c {
	case engine.Locomotive:
		return "🌈"
	case engine.Locomotive4:
		return "🚂"
	case engine.Passenger:
		return "🧳"
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

func dataCity(i int) data.CityID { return data.CityID(i) }
