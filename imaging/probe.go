package imaging

import (
	"conductor/data"
	"conductor/engine"
)

// probeScene is a busy made-up scene on board b: every seat colour claims
// tracks and builds stations, every card shows. Its pixels seed the palette
// with the blends dynamic drawing produces; it is never shown.
func probeScene(b *data.Board) *Scene {
	s := &Scene{Board: b, Current: 0, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities)),
		Goods: make([][]int, len(b.Cities)), Status: "Last round! Alice to play",
		Text: PanelText{FaceUp: "Face-up cards", LastMove: "Last move", Piles: []string{"Deck 88", "Discards 12", "Tickets 30"},
			Legend: []string{"R red", "B blue", "G green", "Y yellow", "K black", "W white", "O orange", "P pink", "L locomotive"},
			Bot:    "BOT", Points: "pts"}}
	for i := range s.Owners {
		s.Owners[i] = -1
		if i%3 == 0 {
			s.Owners[i] = int8(i / 3 % len(playerColors))
		}
	}
	for i := range s.Stations {
		s.Stations[i] = -1
		if i%4 == 1 {
			s.Stations[i] = int8(i / 4 % len(playerColors))
		}
	}
	for i, c := range b.Cities {
		if len(c.GoodsStack) > 0 {
			s.Goods[i] = c.GoodsStack
		}
		if i%5 == 2 {
			s.Passengers = append(s.Passengers, PassengerMark{City: data.CityID(i), Seat: i % len(playerColors)})
		}
	}
	for seat, name := range []string{"Alice", "Bob", "Chloé", "Dmitri", "Eve"} {
		s.Players = append(s.Players, PlayerPanel{Name: name, Color: seat, Score: 10 * seat, Bot: seat == 4,
			Pieces: "40 trains · 2 stations", Holding: "7 cards · 3 tickets"})
	}
	s.FaceUp = []engine.Card{engine.Locomotive, engine.ColorCard(data.Pink), engine.ColorCard(data.Blue),
		engine.ColorCard(data.White), engine.ColorCard(data.Black)}
	if len(b.Tracks) > 0 {
		s.LastMove = Highlight{Tracks: []data.TrackID{0, 1}, Cities: []data.CityID{b.Tracks[0].A}, Text: "Alice claimed a track."}
	}
	return s
}
