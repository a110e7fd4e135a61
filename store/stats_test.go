package store

import (
	"math"
	"reflect"
	"testing"
	"time"
)

// archiveGame puts a game in channel and archives it with players.
func archiveGame(t *testing.T, s *Store, channel, guild, gameMap string, moves int, status string, finished time.Time, players ...PlayerResult) {
	t.Helper()
	rec := sampleGame(channel, guild, moves)
	rec.Map = gameMap
	mustPut(t, s, rec)
	if _, err := s.Archive(channel, ArchiveResult{Status: status, Finished: finished, Players: players}); err != nil {
		t.Fatal(err)
	}
}

func TestStats(t *testing.T) {
	s, _ := openTemp(t)
	hour := func(h int) time.Time { return base.Add(time.Duration(h) * time.Hour) }
	// Archived out of order: C finishes last but is archived first.
	archiveGame(t, s, "cC", "g1", "usa", 5, "", hour(3),
		PlayerResult{UserID: "u1", Name: "Ada", Score: 88, Rank: 1, Won: true, TicketsCompleted: 2, Routes: []string{"Denver-Omaha", "Paris-Brest", "Alpha"}},
		PlayerResult{UserID: "u2", Name: "Bobby", Score: 60, Rank: 2, TicketsCompleted: 1, TicketsFailed: 1, Routes: []string{"Zurich-Wien", "Paris-Brest"}})
	archiveGame(t, s, "cA", "g1", "usa", 10, "", hour(1),
		PlayerResult{UserID: "u1", Name: "Ada", Score: 120, Rank: 2, Won: false, TicketsCompleted: 4, TicketsFailed: 1, Routes: []string{"Denver-Omaha", "Seattle-Portland"}},
		PlayerResult{UserID: "u2", Name: "Bob", Score: 95, Rank: 3, TicketsCompleted: 2, TicketsFailed: 2, Routes: []string{"Denver-Omaha"}},
		// The bot wins this one; bots are not members and their routes do not count.
		PlayerResult{Name: "Bot 1", Bot: "hard", Score: 130, Rank: 1, Won: true, Routes: []string{"Seattle-Portland", "Omega"}})
	archiveGame(t, s, "cB", "g1", "europe", 20, "", hour(2),
		PlayerResult{UserID: "u1", Name: "Ada", Score: 70, Rank: 2, TicketsCompleted: 1, Routes: []string{"Denver-Omaha", "Paris-Brest"}},
		PlayerResult{UserID: "u2", Name: "Bob", Score: 101, Rank: 1, Won: true, TicketsCompleted: 3, Routes: []string{"Zurich-Wien"}},
		PlayerResult{UserID: "u3", Name: "Cy", Score: 50, Rank: 3, Routes: []string{"Zurich-Wien"}})
	// Not counted: an abandoned game, and games of other guilds.
	archiveGame(t, s, "cD", "g1", "usa", 3, StatusAbandoned, hour(4),
		PlayerResult{UserID: "u1", Name: "Ada", Score: 999, Won: true, Routes: []string{"Omega"}})
	archiveGame(t, s, "cE", "g2", "usa", 7, "", hour(1),
		PlayerResult{UserID: "u1", Name: "Ada", Score: 500, Won: true, Routes: []string{"Omega"}})
	archiveGame(t, s, "cF", "g10", "usa", 7, "", hour(1),
		PlayerResult{UserID: "u2", Name: "Bob", Score: 400, Won: true, Routes: []string{"Omega"}})
	// A live game does not count either.
	mustPut(t, s, sampleGame("cLive", "g1", 30))

	st, err := s.Stats("g1", "u3")
	if err != nil {
		t.Fatal(err)
	}
	if st.Guild != "g1" || st.Games != 3 || st.Abandoned != 1 || st.Moves != 35 || st.Players != 3 ||
		st.BestScore != 120 || st.BestScoreBy != "Ada" {
		t.Fatalf("server totals: %+v", st)
	}
	if !reflect.DeepEqual(st.Maps, map[string]int{"usa": 2, "europe": 1}) {
		t.Fatalf("maps: %v", st.Maps)
	}
	wantRoutes := []RouteCount{{"Denver-Omaha", 4}, {"Paris-Brest", 3}, {"Zurich-Wien", 3}, {"Alpha", 1}, {"Seattle-Portland", 1}}
	if !reflect.DeepEqual(st.FavouriteRoutes, wantRoutes) {
		t.Fatalf("server routes: %v", st.FavouriteRoutes)
	}
	want := []MemberStats{
		{UserID: "u1", Name: "Ada", Games: 3, Wins: 1, TotalScore: 278, AverageScore: 278.0 / 3, BestScore: 120,
			TicketsCompleted: 7, TicketsFailed: 1,
			FavouriteRoutes: []RouteCount{{"Denver-Omaha", 3}, {"Paris-Brest", 2}, {"Alpha", 1}}},
		// Bob's name is the one from his latest game, though archived first.
		{UserID: "u2", Name: "Bobby", Games: 3, Wins: 1, TotalScore: 256, AverageScore: 256.0 / 3, BestScore: 101,
			TicketsCompleted: 6, TicketsFailed: 3,
			FavouriteRoutes: []RouteCount{{"Zurich-Wien", 2}, {"Denver-Omaha", 1}, {"Paris-Brest", 1}}},
		{UserID: "u3", Name: "Cy", Games: 1, Wins: 0, TotalScore: 50, AverageScore: 50, BestScore: 50,
			FavouriteRoutes: []RouteCount{{"Zurich-Wien", 1}}},
	}
	if !reflect.DeepEqual(st.Members, want) {
		t.Fatalf("members:\n got  %+v\n want %+v", st.Members, want)
	}
	if st.User == nil || !reflect.DeepEqual(*st.User, want[2]) {
		t.Fatalf("User: %+v", st.User)
	}
	if math.Abs(st.Members[0].AverageScore-92.67) > 0.01 {
		t.Fatalf("Ada's average %v", st.Members[0].AverageScore)
	}

	// A member with no finished game, and a server with none.
	st, err = s.Stats("g1", "u9")
	if err != nil || st.User == nil || st.User.UserID != "u9" || st.User.Games != 0 {
		t.Fatalf("stranger: %+v, %v", st.User, err)
	}
	st, err = s.Stats("g9", "")
	if err != nil || st.Games != 0 || st.Members != nil || st.User != nil || len(st.FavouriteRoutes) != 0 {
		t.Fatalf("empty server: %+v, %v", st, err)
	}
}

func TestStatsOrderByWinsThenAverage(t *testing.T) {
	s, _ := openTemp(t)
	archiveGame(t, s, "c1", "g", "usa", 1, "", base,
		PlayerResult{UserID: "a", Name: "A", Score: 10},
		PlayerResult{UserID: "b", Name: "B", Score: 30},
		PlayerResult{UserID: "c", Name: "C", Score: 5, Won: true})
	st, err := s.Stats("g", "")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range st.Members {
		order = append(order, m.UserID)
	}
	if !reflect.DeepEqual(order, []string{"c", "b", "a"}) {
		t.Fatalf("order %v, want winner first, then by average score", order)
	}
}
