package present

import (
	"conductor/data"
	"conductor/engine"
)

// ScoreReport is the final count as data, what `conductor score` prints
// as JSON. Lists are never nil, so that they print as [].
type ScoreReport struct {
	Map     string         `json:"map"`
	Players []PlayerReport `json:"players"`
	Ranking []string       `json:"ranking"` // names, winner first
	// Shared is true when several players share the first place.
	Shared bool `json:"shared_victory"`
}

// PlayerReport is one player's count.
type PlayerReport struct {
	Name string `json:"name"`
	// Place is 1 for the winners; players tied after every tie-break share it.
	Place            int            `json:"place"`
	RoutePoints      int            `json:"route_points"`
	Tickets          []TicketReport `json:"tickets"`
	TicketPoints     int            `json:"ticket_points"`
	CompletedTickets int            `json:"completed_tickets"`
	LongestPath      int            `json:"longest_path"`
	LongestRoutes    [][3]string    `json:"longest_routes"` // [end, end, colour], end to end
	LongestBonus     bool           `json:"longest_bonus"`
	TicketsBonus     bool           `json:"tickets_bonus"`
	BonusPoints      int            `json:"bonus_points"`
	StationsBuilt    int            `json:"stations_built"`
	StationPoints    int            `json:"station_points"`
	GoodsPoints      int            `json:"goods_points"`
	Total            int            `json:"total"`
	BorrowedRoutes   [][2]string    `json:"borrowed_routes"` // [end, end] of the opponent routes stations use
}

// TicketReport is a ticket and whether it was completed.
type TicketReport struct {
	A         string `json:"a"`
	B         string `json:"b"`
	Points    int    `json:"points"`
	Completed bool   `json:"completed"`
}

// Report is the final count of a game on board b as data.
func Report(b *data.Board, final *engine.FinalScore) ScoreReport {
	city := func(c data.CityID) string { return b.Cities[c].Name }
	out := ScoreReport{Map: b.ID, Players: []PlayerReport{}, Ranking: []string{}}
	for i, ps := range final.Players {
		p := PlayerReport{Name: ps.Name, Place: final.Places[i], RoutePoints: ps.RoutePoints, Tickets: []TicketReport{},
			TicketPoints: ps.TicketPoints, CompletedTickets: ps.CompletedTickets,
			LongestPath: ps.LongestPath, LongestRoutes: [][3]string{},
			LongestBonus: ps.LongestBonus, TicketsBonus: ps.TicketsBonus, BonusPoints: ps.BonusPoints,
			StationsBuilt: ps.StationsBuilt, StationPoints: ps.StationPoints, GoodsPoints: ps.GoodsPoints,
			Total: ps.Total, BorrowedRoutes: [][2]string{}}
		for _, t := range ps.Tickets {
			p.Tickets = append(p.Tickets, TicketReport{city(t.A), city(t.B), t.Points, t.Completed})
		}
		for _, id := range ps.LongestTracks {
			t := &b.Tracks[id]
			p.LongestRoutes = append(p.LongestRoutes, [3]string{city(t.A), city(t.B), t.Color.String()})
		}
		for _, id := range ps.Borrowed {
			t := &b.Tracks[id]
			p.BorrowedRoutes = append(p.BorrowedRoutes, [2]string{city(t.A), city(t.B)})
		}
		out.Players = append(out.Players, p)
	}
	for _, i := range final.Ranking {
		out.Ranking = append(out.Ranking, final.Players[i].Name)
	}
	out.Shared = len(Winners(final)) > 1
	return out
}
