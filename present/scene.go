package present

import (
	"strings"
	"unicode"

	"conductor/data"
	"conductor/engine"
	"conductor/engine/position"
	"conductor/imaging"
)

// BoardScene is the public board picture of a game in the language of
// loc: v is the game's public view, players its seats, and lastLine the
// latest narration line (markdown and emoji are dropped for the picture;
// "" for none).
func BoardScene(loc string, v *engine.PublicView, players []Player, lastLine string) *imaging.Scene {
	b := v.Board
	sc := &imaging.Scene{Board: b, Current: v.Current, Owners: v.Owners, Stations: v.Stations, Goods: v.Goods,
		FaceUp: v.FaceUp, Title: EditionName(loc, b, v.Variant), Text: panelText(loc, b, v), Letters: Letters(loc)}
	if v.Phase == engine.PhaseSetup || v.Phase == engine.PhaseOver {
		sc.Current = -1
	}
	name := func(seat int) string {
		if seat < 0 || seat >= len(players) {
			return "?"
		}
		return PlayerName(loc, players[seat])
	}
	bot := func(seat int) bool { return seat >= 0 && seat < len(players) && players[seat].Bot }
	for i, p := range v.Players {
		sc.Players = append(sc.Players, playerPanel(loc, b, name(i), i, bot(i), p))
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
	case bot(v.Current):
		sc.Status = T(loc, "status.bot_turn", "player", name(v.Current))
	default:
		sc.Status = T(loc, "status.turn", "player", name(v.Current))
	}
	return sc
}

// panelText is the board picture's words. The piles are counted as
// /score counts them, the deck by DeckCount.
func panelText(loc string, b *data.Board, v *engine.PublicView) imaging.PanelText {
	return imaging.PanelText{
		FaceUp: T(loc, "picture.face_up"), LastMove: T(loc, "picture.last_move"),
		Piles: []string{T(loc, "picture.deck", "n", DeckCount(v)), T(loc, "picture.discards", "n", v.Discards),
			T(loc, "picture.ticket_deck", "n", v.TicketDecks[0]+v.TicketDecks[1])},
		Legend: Legend(loc, b), Bot: T(loc, "picture.bot"), Points: T(loc, "picture.points"),
	}
}

// playerPanel is a seat's lines in the panel: what they have left to
// play ("9 trains · 3 stations left"), what they hold (counted), in the
// language of loc.
func playerPanel(loc string, b *data.Board, name string, seat int, bot bool, p engine.PublicPlayer) imaging.PlayerPanel {
	var pieces string
	switch {
	case b.Rules.HasStations():
		pieces = T(loc, "picture.hand.left_stations", "trains", p.Trains, "stations", p.Stations)
	case b.Rules.HasPassengers():
		pieces = T(loc, "picture.left_passengers", "trains", p.Trains, "passengers", p.PassengersLeft)
	default:
		pieces = T(loc, "picture.hand.left", "n", p.Trains)
	}
	return imaging.PlayerPanel{Name: name, Color: seat, Score: p.Score, Bot: bot, Pieces: pieces,
		Holding: T(loc, "picture.cards", "n", p.Cards) + " · " + T(loc, "picture.tickets", "n", p.Tickets)}
}

// legendColors are the card colours in the order the legend names them.
var legendColors = []data.Color{data.Red, data.Blue, data.Green, data.Yellow, data.Black, data.White, data.Orange, data.Pink}

// Legend is the key to the letters the pictures print on cards and
// tracks, one entry a letter, both in the language of loc: "R rouge", "J
// jaune", "L locomotive". It lists the cards of b's deck.
func Legend(loc string, b *data.Board) []string {
	cards := LegendCards(b)
	letters := Letters(loc)
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = letters[c] + " " + CardName(loc, c)
	}
	return out
}

// Letters are the letters the pictures of a table speaking loc print on
// cards and tracks: each colour's initial in that language ("J" for jaune,
// "Ge" for gelb), two letters where two colours share one.
func Letters(loc string) imaging.Letters {
	var l imaging.Letters
	for c := engine.Card(1); c < engine.NumCards; c++ {
		if _, ok := Lookup("en", "letter."+c.String()); ok {
			l[c] = T(loc, "letter."+c.String())
		} else {
			l[c] = imaging.CardLetter(c)
		}
	}
	return l
}

// LegendCards are the kinds of cards of b's deck in the order the legend
// names them: the colours, the locomotive, then Märklin's +4 locomotive
// and passenger.
func LegendCards(b *data.Board) []engine.Card {
	cards := make([]engine.Card, 0, len(legendColors)+3)
	for _, c := range legendColors {
		cards = append(cards, engine.ColorCard(c))
	}
	cards = append(cards, engine.Locomotive)
	if b.Rules.Cards.Locomotives4 > 0 {
		cards = append(cards, engine.Locomotive4)
	}
	if b.Rules.Cards.Passengers > 0 {
		cards = append(cards, engine.Passenger)
	}
	return cards
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
// input) in the language of loc: who holds which routes and stations,
// and the face-up cards.
func PositionScene(loc string, pos *position.Position) (*imaging.Scene, error) {
	b := pos.Board
	v := engine.PublicView{Board: b, Phase: engine.PhaseOver, Current: -1, Owners: make([]int8, len(b.Tracks)),
		Stations: make([]int8, len(b.Cities)), Passengers: make([]int8, len(b.Cities)), Goods: make([][]int, len(b.Cities))}
	for i := range v.Owners {
		v.Owners[i] = -1
	}
	for i := range v.Stations {
		v.Stations[i], v.Passengers[i] = -1, -1
		v.Goods[i] = b.Cities[i].GoodsStack
	}
	var players []Player
	for seat, h := range pos.Players {
		p := engine.PublicPlayer{Trains: b.Rules.Trains, Stations: b.Rules.Stations - len(h.Stations),
			Tickets: len(h.Tickets), Score: h.Goods, PassengersLeft: b.Rules.Passengers}
		for _, t := range h.Tracks {
			v.Owners[t] = int8(seat)
			p.Trains -= b.Tracks[t].Length
			p.Score += b.RoutePoints(b.Tracks[t].Length)
		}
		for _, c := range h.Stations {
			v.Stations[c] = int8(seat)
		}
		v.Players = append(v.Players, p)
		players = append(players, Player{Name: h.Name})
	}
	for _, name := range pos.FaceUp {
		c, err := engine.ParseCard(name)
		if err != nil {
			return nil, err
		}
		v.FaceUp = append(v.FaceUp, c)
	}
	sc := BoardScene(loc, &v, players, "")
	// A position is no game in progress: nobody's turn, and no piles to count.
	sc.Status, sc.Text.Piles = "", nil
	return sc, nil
}

// HandScene is the picture of a seat's hand, routes and tickets, for that
// player's eyes only, in the player's language loc.
func HandScene(loc string, v *engine.PlayerView, name string) *imaging.HandScene {
	b := v.Board
	me := v.Players[v.Seat]
	hs := &imaging.HandScene{Board: b, Color: v.Seat, Cards: v.Hand, Letters: Letters(loc), Text: imaging.HandText{
		Title: T(loc, "hand.title", "player", name), Cards: T(loc, "picture.hand.cards"),
		Tickets: T(loc, "picture.hand.tickets"), NoTickets: T(loc, "picture.hand.no_tickets"), Caption: T(loc, "picture.hand.caption")}}
	if b.Rules.HasStations() {
		hs.Text.Left = T(loc, "picture.hand.left_stations", "trains", me.Trains, "stations", me.Stations)
	} else {
		hs.Text.Left = T(loc, "picture.hand.left", "n", me.Trains)
	}
	for tr, o := range v.Owners {
		switch {
		case int(o) == v.Seat:
			hs.Owned = append(hs.Owned, data.TrackID(tr))
		case o >= 0:
			hs.Others = append(hs.Others, imaging.SeatTrack{Track: data.TrackID(tr), Seat: int(o)})
		}
	}
	for _, ts := range v.Tickets {
		tk := &b.Tickets[ts.Ticket]
		hs.Tickets = append(hs.Tickets, imaging.TicketLine{From: b.Cities[tk.A].Name, To: b.Cities[tk.B].Name, Points: tk.Points, Completed: ts.Completed, Cities: []data.CityID{tk.A, tk.B}})
	}
	if fit := imaging.HandTickets(b); len(hs.Tickets) > fit {
		hs.Text.More = T(loc, "picture.hand.more", "n", len(hs.Tickets)-fit)
		hs.Tickets = hs.Tickets[:fit]
	}
	return hs
}
