package engine

import "conductor/data"

// Temporary stand-in for the scoring files being written in the main tree.

type Holding struct {
	Name     string
	Tracks   []data.TrackID
	Stations []data.CityID
	Tickets  []HeldTicket
	Goods    int
}
type HeldTicket struct {
	A, B   data.CityID
	Points int
}
type FinalScore struct {
	Players []PlayerScore
	Ranking []int
}
type PlayerScore struct {
	Name        string
	RoutePoints int
	Total       int
}

func Score(b *data.Board, players []Holding) FinalScore {
	fs := FinalScore{}
	for i, h := range players {
		ps := PlayerScore{Name: h.Name}
		for _, t := range h.Tracks {
			ps.RoutePoints += b.RoutePoints(b.Tracks[t].Length)
		}
		ps.Total = ps.RoutePoints + h.Goods
		fs.Players = append(fs.Players, ps)
		fs.Ranking = append(fs.Ranking, i)
	}
	return fs
}

func Connected(b *data.Board, owned []bool, a, c data.CityID) bool { return false }
