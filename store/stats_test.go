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
	archiveResult(t, s, channel, guild, gameMap, moves, ArchiveResult{Status: status, Finished: finished, Players: players})
}

// archiveResult puts a game in channel and archives it with res.
func archiveResult(t *testing.T, s *Store, channel, guild, gameMap string, moves int, res ArchiveResult) {
	t.Helper()
	rec := sampleGame(channel, guild, moves)
	rec.Map = gameMap
	mustPut(t, s, rec)
	if _, err := s.Archive(channel, res); err != nil {
		t.Fatal(err)
	}
}

func TestStats(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
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
		// The best score is the sheets' best, whoever held the seat: the bot's.
		if st.Guild != "g1" || st.Games != 3 || st.Abandoned != 1 || st.Moves != 35 || st.Players != 3 ||
			st.Best == nil || st.Best.Score != 130 || st.Best.Name != "Bot 1" || st.Best.Bot != "hard" {
			t.Fatalf("server totals: %+v (best %+v)", st, st.Best)
		}
		if !reflect.DeepEqual(st.Maps, map[string]int{"usa": 2, "europe": 1}) {
			t.Fatalf("maps: %v", st.Maps)
		}
		// Routes claimed once are no favourites.
		wantRoutes := []RouteCount{{"Denver-Omaha", 4}, {"Paris-Brest", 3}, {"Zurich-Wien", 3}}
		if !reflect.DeepEqual(st.FavouriteRoutes, wantRoutes) {
			t.Fatalf("server routes: %v", st.FavouriteRoutes)
		}
		want := []MemberStats{
			{UserID: "u1", Name: "Ada", Games: 3, Wins: 1, TotalScore: 278, AverageScore: 278.0 / 3, BestScore: 120,
				TicketsCompleted: 7, TicketsFailed: 1,
				FavouriteRoutes: []RouteCount{{"Denver-Omaha", 3}, {"Paris-Brest", 2}}},
			// Bob's name is the one from his latest game, though archived first.
			{UserID: "u2", Name: "Bobby", Games: 3, Wins: 1, TotalScore: 256, AverageScore: 256.0 / 3, BestScore: 101,
				TicketsCompleted: 6, TicketsFailed: 3,
				FavouriteRoutes: []RouteCount{{"Zurich-Wien", 2}}},
			{UserID: "u3", Name: "Cy", Games: 1, Wins: 0, TotalScore: 50, AverageScore: 50, BestScore: 50,
				FavouriteRoutes: []RouteCount{}},
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
	})
}

func TestStatsOrderByWinsThenAverage(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
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
	})
}

// TestStatsFromTheSheets: a shared victory counts as a win for each
// winner; a game ended early is counted apart, neither in the wins nor in
// the averages nor the best score; a member whose seat a bot took over is
// a player of the server, keeps the routes they claimed, and the game
// counts as one they left, not as theirs to the end.
func TestStatsFromTheSheets(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		archiveGame(t, s, "c1", "g", "usa", 40, "", base,
			PlayerResult{UserID: "a", Name: "Ann", Score: 90, Rank: 1, Won: true, Routes: []string{"X", "Y"}},
			PlayerResult{UserID: "b", Name: "Ben", Score: 90, Rank: 1, Won: true, Routes: []string{"X"}},
			PlayerResult{Name: "Vera", Bot: "hard", Score: 60, Rank: 3})
		archiveResult(t, s, "c2", "g", "europe", 12, ArchiveResult{Finished: base.Add(time.Hour), Early: true, Players: []PlayerResult{
			{UserID: "a", Name: "Ann", Score: -3, Rank: 1, Won: true, Routes: []string{"X"}},
			{UserID: "b", Name: "Ben", Score: -10, Rank: 2},
		}})
		archiveGame(t, s, "c3", "g", "usa", 30, "", base.Add(2*time.Hour),
			PlayerResult{UserID: "a", Name: "Ann", Score: 128, Rank: 1, Won: true, Routes: []string{"Y"}},
			PlayerResult{UserID: "c", Name: "Cleo", Bot: "normal", TakenOver: true, Score: 62, Rank: 2, Routes: []string{"X"}})
		st, err := s.Stats("g", "c")
		if err != nil {
			t.Fatal(err)
		}
		if st.Games != 2 || st.Early != 1 || st.Players != 3 || st.Moves != 82 || st.Best == nil || st.Best.Score != 128 || st.Best.Name != "Ann" {
			t.Fatalf("server totals: %+v (best %+v)", st, st.Best)
		}
		byID := map[string]MemberStats{}
		for _, m := range st.Members {
			byID[m.UserID] = m
		}
		if a := byID["a"]; a.Games != 2 || a.Wins != 2 || a.SharedWins != 1 || a.Early != 1 || a.EarlyWins != 1 || a.AverageScore != 109 || a.BestScore != 128 {
			t.Errorf("Ann: %+v", a)
		}
		if b := byID["b"]; b.Games != 1 || b.Wins != 1 || b.SharedWins != 1 || b.Early != 1 || b.EarlyWins != 0 || b.AverageScore != 90 {
			t.Errorf("Ben: %+v", b)
		}
		if c := byID["c"]; c.Games != 0 || c.Wins != 0 || c.Left != 1 || c.AverageScore != 0 || c.Name != "Cleo" {
			t.Errorf("Cleo: %+v", c)
		}
		if st.User == nil || st.User.Left != 1 {
			t.Errorf("User: %+v", st.User)
		}
		if want := []RouteCount{{"X", 4}, {"Y", 2}}; !reflect.DeepEqual(st.FavouriteRoutes, want) {
			t.Errorf("routes %v, want %v", st.FavouriteRoutes, want)
		}
	})
}
