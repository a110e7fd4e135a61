package present

import (
	"strings"
	"unicode"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
)

// Player is a seat as people see it.
type Player struct {
	Name string
	Bot  bool
}

// BoardScene is the public board picture of a game in the language of
// loc: v is the game's public view, players its seats, and lastLine the
// latest narration line (markdown and emoji are dropped for the picture;
// "" for none).
func BoardScene(loc string, v *engine.PublicView, players []Player, lastLine string) *imaging.Scene {
	sc := &imaging.Scene{Board: v.Board, Current: v.Current, Owners: v.Owners, Stations: v.Stations, Goods: v.Goods,
		FaceUp: v.FaceUp, DeckSize: DeckCount(v), DiscardSize: v.Discards, TicketDeckSize: v.TicketDecks[0] + v.TicketDecks[1],
		Title: EditionName(loc, v.Board, v.Variant)}
	if v.Phase == engine.PhaseSetup || v.Phase == engine.PhaseOver {
		sc.Current = -1
	}
	name := func(seat int) string {
		if seat < 0 || seat >= len(players) {
			return "?"
		}
		return players[seat].Name
	}
	for i, p := range v.Players {
		sc.Players = append(sc.Players, imaging.PlayerPanel{Name: name(i), Color: i, Score: p.Score, Trains: p.Trains,
			Stations: p.Stations, Cards: p.Cards, Tickets: p.Tickets, PassengersLeft: p.PassengersLeft, Bot: i < len(players) && players[i].Bot})
	}
	for c, o := range v.Passengers {
		if o >= 0 {
			sc.Passengers = append(sc.Passengers, imaging.PassengerMark{City: data.CityID(c), Seat: int(o)})
		}
	}
	sc.LastMove = imaging.Highlight{Tracks: v.LastMoveTracks, Cities: v.LastMoveCities}
	if lastLine != "" {
		sc.LastMove.Text = plainText(lastLine)
	}
	switch {
	case v.Phase == engine.PhaseSetup:
		sc.Status = T(loc, "status.setup")
	case v.Phase == engine.PhaseOver:
		sc.Status = T(loc, "status.over")
	case v.LastRound:
		sc.Status = T(loc, "status.last_round", "player", name(v.Current))
	default:
		sc.Status = T(loc, "status.turn", "player", name(v.Current))
	}
	return sc
}

// DeckCount is the number every screen shows as the deck: the cards of the
// draw pile, face down. The discards are counted apart (they become the
// new deck only when the draw pile runs out), so the deck button, the
// board picture and /score all show this one number, labelled "Deck",
// beside the discards where there is room.
func DeckCount(v *engine.PublicView) int { return v.Deck }

// plainText turns a narration line into plain text for the picture:
// no markdown and no emoji (the board's font has no glyphs for them).
func plainText(s string) string {
	s = StripMarkdown(s)
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.So, r) || (unicode.Is(unicode.Sk, r) && r > unicode.MaxASCII) || unicode.Is(unicode.Mn, r) || (r >= 0xFE00 && r <= 0xFE0F) || r == 0x200D {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(strings.Join(strings.Fields(s), " "))
}

// PositionScene is the public board of a position (the `conductor render`
// input): who holds which routes and stations, and the face-up cards.
func PositionScene(pos *engine.Position) (*imaging.Scene, error) {
	b := pos.Board
	sc := &imaging.Scene{Board: b, Current: -1, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities))}
	for i := range sc.Owners {
		sc.Owners[i] = -1
	}
	for i := range sc.Stations {
		sc.Stations[i] = -1
	}
	sc.Goods = make([][]int, len(b.Cities))
	for c := range b.Cities {
		sc.Goods[c] = b.Cities[c].GoodsStack
	}
	for seat, h := range pos.Players {
		p := imaging.PlayerPanel{Name: h.Name, Color: seat, Trains: b.Rules.Trains, Stations: b.Rules.Stations - len(h.Stations),
			Tickets: len(h.Tickets), Score: h.Goods, PassengersLeft: b.Rules.Passengers}
		for _, t := range h.Tracks {
			sc.Owners[t] = int8(seat)
			p.Trains -= b.Tracks[t].Length
			p.Score += b.RoutePoints(b.Tracks[t].Length)
		}
		for _, c := range h.Stations {
			sc.Stations[c] = int8(seat)
		}
		sc.Players = append(sc.Players, p)
	}
	for _, name := range pos.FaceUp {
		c, err := engine.ParseCard(name)
		if err != nil {
			return nil, err
		}
		sc.FaceUp = append(sc.FaceUp, c)
	}
	return sc, nil
}

// HandScene is the picture of a seat's hand, routes and tickets, for that
// player's eyes only.
func HandScene(v *engine.PlayerView, name string) *imaging.HandScene {
	b := v.Board
	me := v.Players[v.Seat]
	hs := &imaging.HandScene{Board: b, Player: name, Color: v.Seat, Cards: v.Hand, Trains: me.Trains, Stations: me.Stations}
	for tr, o := range v.Owners {
		if int(o) == v.Seat {
			hs.Owned = append(hs.Owned, data.TrackID(tr))
		}
	}
	for _, ts := range v.Tickets {
		tk := &b.Tickets[ts.Ticket]
		hs.Tickets = append(hs.Tickets, imaging.TicketLine{From: b.Cities[tk.A].Name, To: b.Cities[tk.B].Name, Points: tk.Points, Completed: ts.Completed, Cities: []data.CityID{tk.A, tk.B}})
	}
	return hs
}
