package arena

import "conductor/engine"

// ScoreParts is where one seat's points came from in one game, and the
// trains it had left when the game ended: an edge in the win share read
// part by part (a search that wins on tickets but leaves trains unplayed,
// say).
type ScoreParts struct {
	Routes  int `json:"routes"`
	Tickets int `json:"tickets"` // completed less failed
	// Bonus is the longest path (European Express) or most-tickets bonus;
	// Other the stations kept and the goods.
	Bonus      int `json:"bonus"`
	Other      int `json:"other"`
	TrainsLeft int `json:"trains_left"`
}

// MeanParts is ScoreParts averaged over a result's seats and games.
type MeanParts struct {
	Routes     float64 `json:"routes"`
	Tickets    float64 `json:"tickets"`
	Bonus      float64 `json:"bonus"`
	Other      float64 `json:"other"`
	TrainsLeft float64 `json:"trains_left"`
}

// partsOf reads a finished game's parts for one seat.
func partsOf(ps *engine.PlayerScore, trainsLeft int) ScoreParts {
	return ScoreParts{Routes: ps.RoutePoints, Tickets: ps.TicketPoints, Bonus: ps.BonusPoints,
		Other: ps.StationPoints + ps.GoodsPoints, TrainsLeft: trainsLeft}
}

// add sums a seat-game's parts in.
func (m *MeanParts) add(p ScoreParts) {
	m.Routes += float64(p.Routes)
	m.Tickets += float64(p.Tickets)
	m.Bonus += float64(p.Bonus)
	m.Other += float64(p.Other)
	m.TrainsLeft += float64(p.TrainsLeft)
}

// mean divides the sums by the seat-games counted.
func (m *MeanParts) mean(seatGames float64) {
	m.Routes = round3(m.Routes / seatGames)
	m.Tickets = round3(m.Tickets / seatGames)
	m.Bonus = round3(m.Bonus / seatGames)
	m.Other = round3(m.Other / seatGames)
	m.TrainsLeft = round3(m.TrainsLeft / seatGames)
}
