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

// Stats summarises a guild's archive for /ttr stats. Only finished games
// count towards scores and wins; abandoned ones are only counted.
type Stats struct {
	Guild     string
	Games     int // finished games
	Abandoned int
	Moves     int // actions played in finished games
	// Players is the number of distinct members who finished a game.
	Players int
	// BestScore is the highest score by a member, by BestScoreBy (name).
	BestScore   int
	BestScoreBy string
	Maps        map[string]int // finished games per map
	// FavouriteRoutes are the routes members claimed most, across the server.
	FavouriteRoutes []RouteCount
	// Members are sorted by wins, then average score, then name.
	Members []MemberStats
	// User is the member asked for (nil when none was); zero games if that
	// member never finished one.
	User *MemberStats
}

// MemberStats is one member's record on a server. Bots are left out.
type MemberStats struct {
	UserID           string
	Name             string // as in their latest game
	Games, Wins      int
	TotalScore       int
	AverageScore     float64
	BestScore        int
	TicketsCompleted int
	TicketsFailed    int
	FavouriteRoutes  []RouteCount // their most claimed routes
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
	anyScore := false
	err := s.eachArchived(guild, func(e *ArchiveEntry) error {
		if e.Status != StatusFinished {
			st.Abandoned++
			return nil
		}
		st.Games++
		st.Moves += e.Moves
		st.Maps[e.Map]++
		for _, p := range e.Players {
			if p.Bot != "" || p.UserID == "" {
				continue
			}
			m := members[p.UserID]
			if m == nil {
				m = &MemberStats{UserID: p.UserID, BestScore: p.Score}
				members[p.UserID] = m
				memberRoutes[p.UserID] = map[string]int{}
			}
			m.Name = p.Name
			m.Games++
			if p.Won {
				m.Wins++
			}
			m.TotalScore += p.Score
			m.BestScore = max(m.BestScore, p.Score)
			m.TicketsCompleted += p.TicketsCompleted
			m.TicketsFailed += p.TicketsFailed
			for _, r := range p.Routes {
				memberRoutes[p.UserID][r]++
				guildRoutes[r]++
			}
			if !anyScore || p.Score > st.BestScore {
				st.BestScore, st.BestScoreBy, anyScore = p.Score, p.Name, true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for id, m := range members {
		m.AverageScore = float64(m.TotalScore) / float64(m.Games)
		m.FavouriteRoutes = topRoutes(memberRoutes[id], memberFavourites)
		st.Members = append(st.Members, *m)
	}
	slices.SortFunc(st.Members, func(a, b MemberStats) int {
		return cmp.Or(
			cmp.Compare(b.Wins, a.Wins),
			cmp.Compare(b.AverageScore, a.AverageScore),
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

// topRoutes returns the n most counted routes, ties in name order.
func topRoutes(counts map[string]int, n int) []RouteCount {
	routes := make([]RouteCount, 0, len(counts))
	for r, c := range counts {
		routes = append(routes, RouteCount{r, c})
	}
	slices.SortFunc(routes, func(a, b RouteCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Route, b.Route))
	})
	if len(routes) > n {
		routes = routes[:n]
	}
	return routes
}
