package store

import (
	"cmp"
	"slices"
)

// How many favourite routes Stats lists for a member and for a server.
const (
	memberFavourites = 3
	guildFavourites  = 5
)

// Stats summarises a guild's archive for /ttr stats, from the final score
// sheets the archive keeps: every number is one a table saw at the end of
// its game. Games played to their end count towards scores and wins;
// games ended early (scored as they stood) are counted apart; abandoned
// ones (stopped without a score) are only counted.
type Stats struct {
	Guild     string
	Games     int // games played to their end
	Early     int // games ended early and scored as they stood
	Abandoned int
	Moves     int // actions played in the games scored (played to the end or early)
	// Players is the number of distinct members who held a seat in a game
	// scored, whether they played it to the end or left it to a bot.
	Players int
	// Best is the seat with the highest score of a game played to its end,
	// member or bot (nil before any): the sheet's number, whoever held it.
	Best *PlayerResult
	Maps map[string]int // games played to their end, per map
	// FavouriteRoutes are the routes members claimed more than once, most
	// claimed first.
	FavouriteRoutes []RouteCount
	// Members are sorted by wins, then average score, then name.
	Members []MemberStats
	// User is the member asked for (nil when none was); zero games if that
	// member never finished one.
	User *MemberStats
}

// MemberStats is one member's record on a server. Bots are left out; a
// seat a bot took over counts for the member as a game left.
type MemberStats struct {
	UserID string
	Name   string // as in their latest game
	// Games are the games they played to the end; Wins the ones they won,
	// SharedWins of them shared with another player.
	Games, Wins, SharedWins int
	// Early and EarlyWins count the games ended early, apart.
	Early, EarlyWins int
	// Left counts the games whose seat they left to a bot.
	Left             int
	TotalScore       int
	AverageScore     float64 // over Games; 0 without any
	BestScore        int
	TicketsCompleted int
	TicketsFailed    int
	FavouriteRoutes  []RouteCount // the routes they claimed more than once
}

// RouteCount is how many times a route was claimed.
type RouteCount struct {
	Route string
	Count int
}

// Stats reads guild's archive. When user is not empty, Stats.User holds that
// member's figures.
func (s *Store) Stats(guild, user string) (*Stats, error) {
	st := &Stats{Guild: guild, Maps: map[string]int{}}
	members := map[string]*MemberStats{}
	memberRoutes := map[string]map[string]int{}
	guildRoutes := map[string]int{}
	member := func(p *PlayerResult) *MemberStats {
		m := members[p.UserID]
		if m == nil {
			m = &MemberStats{UserID: p.UserID}
			members[p.UserID] = m
			memberRoutes[p.UserID] = map[string]int{}
		}
		m.Name = p.Name
		return m
	}
	err := s.eachArchived(guild, func(e *ArchiveEntry) error {
		if e.Status != StatusFinished {
			st.Abandoned++
			return nil
		}
		st.Moves += e.Moves
		if e.Early {
			st.Early++
		} else {
			st.Games++
			st.Maps[e.Map]++
		}
		winners := e.Winners()
		for i := range e.Players {
			p := &e.Players[i]
			if !e.Early && !p.Forgotten && (st.Best == nil || p.Score > st.Best.Score) {
				best := *p
				best.Routes = nil
				st.Best = &best
			}
			if p.UserID == "" || (p.Bot != "" && !p.TakenOver) {
				continue // a bot's own seat
			}
			m := member(p)
			for _, r := range p.Routes {
				memberRoutes[p.UserID][r]++
				guildRoutes[r]++
			}
			switch {
			case p.TakenOver:
				m.Left++
			case e.Early:
				m.Early++
				if p.Won {
					m.EarlyWins++
				}
			default:
				if m.Games == 0 || p.Score > m.BestScore {
					m.BestScore = p.Score
				}
				m.Games++
				if p.Won {
					m.Wins++
					if winners > 1 {
						m.SharedWins++
					}
				}
				m.TotalScore += p.Score
				m.TicketsCompleted += p.TicketsCompleted
				m.TicketsFailed += p.TicketsFailed
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for id, m := range members {
		if m.Games > 0 {
			m.AverageScore = float64(m.TotalScore) / float64(m.Games)
		}
		m.FavouriteRoutes = topRoutes(memberRoutes[id], memberFavourites)
		st.Members = append(st.Members, *m)
	}
	slices.SortFunc(st.Members, func(a, b MemberStats) int {
		return cmp.Or(
			cmp.Compare(b.Wins, a.Wins),
			cmp.Compare(b.AverageScore, a.AverageScore),
			cmp.Compare(b.Games, a.Games),
			cmp.Compare(a.Name, b.Name),
			cmp.Compare(a.UserID, b.UserID))
	})
	st.Players = len(st.Members)
	st.FavouriteRoutes = topRoutes(guildRoutes, guildFavourites)
	if user != "" {
		st.User = &MemberStats{UserID: user}
		if m := members[user]; m != nil {
			*st.User = *m
		}
	}
	return st, nil
}

// topRoutes returns the n most counted routes claimed more than once,
// ties in name order: a route claimed once is no favourite.
func topRoutes(counts map[string]int, n int) []RouteCount {
	routes := make([]RouteCount, 0, len(counts))
	for r, c := range counts {
		if c > 1 {
			routes = append(routes, RouteCount{r, c})
		}
	}
	slices.SortFunc(routes, func(a, b RouteCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Route, b.Route))
	})
	if len(routes) > n {
		routes = routes[:n]
	}
	return routes
}
