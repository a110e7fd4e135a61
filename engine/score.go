package engine

import (
	"sync"

	"conductor/data"
)

// Holding is one player's end-of-game position.
type Holding struct {
	Name     string
	Tracks   []data.TrackID
	Stations []data.CityID
	Tickets  []HeldTicket
	Goods    int // Märklin goods points already collected
}

// HeldTicket is a destination ticket in a player's hand.
type HeldTicket struct {
	A, B   data.CityID
	Points int
}

// FinalScore is the end-of-game count.
type FinalScore struct {
	Players []PlayerScore
	Ranking []int // indices into Players, winner first (full ties by seat)
	// Places gives each player's place, 1 for the winners: players still
	// tied after every printed tie-break share a place (a shared victory
	// when it is the first).
	Places []int
}

// Winners lists the players in first place: more than one for a shared
// victory.
func (fs *FinalScore) Winners() []int {
	var w []int
	for _, i := range fs.Ranking {
		if fs.Places[i] == 1 {
			w = append(w, i)
		}
	}
	return w
}

// TicketResult is one ticket at the end of the game.
type TicketResult struct {
	A, B      data.CityID
	Points    int
	Completed bool
}

// PlayerScore is one player's end-of-game count.
type PlayerScore struct {
	Name             string
	RoutePoints      int
	Tickets          []TicketResult
	TicketPoints     int
	CompletedTickets int
	LongestPath      int
	LongestTracks    []data.TrackID // one longest path, end to end
	BonusPoints      int            // longest path or most tickets bonus
	// LongestBonus: the player holds the longest-path bonus (European
	// Express in Europe); TicketsBonus: the Märklin most-tickets bonus.
	LongestBonus  bool
	TicketsBonus  bool
	StationsBuilt int
	StationPoints int // for unbuilt stations
	GoodsPoints   int
	Total         int
	Borrowed      []data.TrackID // the opponent tracks the stations use
}

// Score counts the final scores of players on board b and ranks them.
// Positions are trusted here; package position checks positions typed by people.
func Score(b *data.Board, players []Holding) FinalScore {
	fs := FinalScore{Players: make([]PlayerScore, len(players))}
	sc := scoreScratches.Get().(*scoreScratch)
	defer scoreScratches.Put(sc)
	sc.holders = grow(sc.holders, len(b.Tracks))
	holders := sc.holders // how many players hold each track
	clear(holders)
	for _, h := range players {
		for _, t := range h.Tracks {
			holders[t]++
		}
	}
	sc.opponent = grow(sc.opponent, len(b.Tracks))
	paths, stations, opponent := &sc.paths, &sc.stations, sc.opponent
	// As in a new search: the first player's Borrowed is nil when empty.
	stations.best = nil
	for i := range players {
		h := &players[i]
		ps := &fs.Players[i]
		ps.Name = h.Name
		for t := range opponent {
			opponent[t] = holders[t] > 0
		}
		for _, t := range h.Tracks {
			ps.RoutePoints += b.RoutePoints(b.Tracks[t].Length)
			// Another player holding this very track as well would be an
			// invalid position; count only the others'.
			opponent[t] = holders[t] > 1
		}
		ps.LongestPath, ps.LongestTracks = paths.Longest(b, h.Tracks)
		ps.LongestTracks = append([]data.TrackID(nil), ps.LongestTracks...)

		var stationCities []data.CityID
		if b.Rules.Stations > 0 {
			stationCities = h.Stations
			ps.StationsBuilt = len(h.Stations)
			ps.StationPoints = max(0, b.Rules.Stations-len(h.Stations)) * b.Rules.StationPoints
		}
		stations.base.Reset(b)
		for _, t := range h.Tracks {
			stations.base.Add(t)
		}
		choice := stations.choose(b, h.Tracks, opponent, stationCities, h.Tickets)
		ps.Borrowed = choice.Borrowed
		ps.TicketPoints = choice.TicketPoints
		ps.Tickets = make([]TicketResult, len(h.Tickets))
		for k, tk := range h.Tickets {
			ps.Tickets[k] = TicketResult{A: tk.A, B: tk.B, Points: tk.Points, Completed: choice.Completed[k]}
			if choice.Completed[k] {
				ps.CompletedTickets++
			}
		}
		if hasGoods(b) {
			ps.GoodsPoints = h.Goods
		}
	}
	awardBonuses(b, fs.Players)
	for i := range fs.Players {
		ps := &fs.Players[i]
		ps.Total = ps.RoutePoints + ps.TicketPoints + ps.BonusPoints + ps.StationPoints + ps.GoodsPoints
	}
	fs.Ranking, fs.Places = rank(b, fs.Players)
	return fs
}

// scoreScratch is Score's search buffers. Score runs at the end of every
// playout of the searches, so they are pooled rather than allocated anew.
type scoreScratch struct {
	paths    PathSearch
	stations stationSearch
	holders  []int8
	opponent []bool
}

var scoreScratches = sync.Pool{New: func() any { return new(scoreScratch) }}

// awardBonuses gives the longest-path bonus to every player tied for the
// longest path, and the most-tickets bonus to every player tied for the most
// completed tickets. Nobody earns a bonus for a path or a count of zero.
func awardBonuses(b *data.Board, players []PlayerScore) {
	longest, most := 0, 0
	for _, ps := range players {
		longest = max(longest, ps.LongestPath)
		most = max(most, ps.CompletedTickets)
	}
	for i := range players {
		ps := &players[i]
		if b.Rules.LongestPathBonus > 0 && longest > 0 && ps.LongestPath == longest {
			ps.LongestBonus = true
			ps.BonusPoints += b.Rules.LongestPathBonus
		}
		if b.Rules.MostTicketsBonus > 0 && most > 0 && ps.CompletedTickets == most {
			ps.TicketsBonus = true
			ps.BonusPoints += b.Rules.MostTicketsBonus
		}
	}
}

// hasGoods reports whether the board's passengers collect goods (Märklin).
func hasGoods(b *data.Board) bool { return b.Rules.Passengers > 0 }
