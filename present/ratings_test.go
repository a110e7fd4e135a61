package present

import (
	"strings"
	"testing"
	"time"

	"conductor/imaging"
)

// TestRatingChangeWords: a change reads with its sign and the number
// after it, in the language's digits; what stands beside it (a game left,
// provisional, hints) is said, never hidden.
func TestRatingChangeWords(t *testing.T) {
	for _, c := range []struct {
		loc           string
		before, after int
		want          string
	}{
		{"en", 1425, 1437, "+12 → 1,437"},
		{"fr", 1128, 1120, "−8 → 1\u00a0120"},
		{"de", 1000, 1000, "±0 → 1.000"},
	} {
		if got := RatingMove(c.loc, c.before, c.after); got != c.want {
			t.Errorf("%s %d→%d: %q, want %q", c.loc, c.before, c.after, got, c.want)
		}
	}
	changes := []RatingChange{{Seat: 0, Before: 1425, After: 1437}, {Seat: 2, Before: 1000, After: 962, Left: true, Provisional: true, Hints: 2}}
	names := []string{"Ada", "Bot", "Bob"}
	line := FinalRatings("en", "Ticket to Ride — USA", changes, func(s int) string { return names[s] })
	for _, want := range []string{"Ticket to Ride — USA", "Ada +12 → 1,437", "Bob −38 → 962", "left", "provisional", "2 hints"} {
		if !strings.Contains(line, want) {
			t.Errorf("final line %q lacks %q", line, want)
		}
	}
	if FinalRatings("en", "USA", nil, nil) != "" {
		t.Error("a game that moved nobody has a line of ratings")
	}
	sc := &imaging.FinalScene{Players: make([]imaging.FinalLine, 3)}
	RateFinalScene("fr", sc, changes)
	if sc.Players[0].Rating != "+12 → 1\u00a0437" || sc.Players[0].RatingUp <= 0 || sc.Players[1].Rating != "" ||
		sc.Players[2].RatingUp >= 0 || !strings.Contains(sc.Players[2].RatingNote, "provisoire") || sc.Text.Rating == "" {
		t.Errorf("the sheet's ratings: %+v %q", sc.Players, sc.Text.Rating)
	}
}

func sampleBoard() *Leaderboard {
	lb := &Leaderboard{Edition: "Ticket to Ride — USA", Season: Season{Number: 2, Length: "month", End: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		Ranked: 5, AskerAt: -1, ProvisionalGames: 5, Newcomer: 1000,
		Bots: []BotRating{{"expert", 1665}, {"hard", 1578}, {"normal", 1500}, {"easy", 1266}}}
	for i, n := range []string{"<@1>", "<@2>", "<@3>"} {
		lb.Top = append(lb.Top, Rated{Name: n, PictureName: n, Rating: 1600 - 100*i, Place: i + 1, Games: 20 - i, Provisional: i == 2})
	}
	return lb
}

// TestLeaderboardWords: the table's lines in order, the season, the
// asker below the top on their own line, the bots for comparison, and
// the provisional mark explained.
func TestLeaderboardWords(t *testing.T) {
	lb := sampleBoard()
	lb.Asker = &Rated{Name: "<@9>", Rating: 1150, Place: 5, Games: 4, Provisional: true}
	title, lines := LeaderboardText("en", lb)
	text := strings.Join(lines, "\n")
	if !strings.Contains(title, "USA") || !strings.HasPrefix(lines[0], "Season 2 · until November 30, 2026") {
		t.Errorf("title %q, first line %q", title, lines[0])
	}
	for _, want := range []string{"1. <@1> — **1,600** · 20 games", "3. <@3> — **≈1,400** · 18 games", "…and 2 more", "You: 5. — ≈1,150 · 4 games",
		"expert 1,665 · hard 1,578 · normal 1,500 · easy 1,266", "≈ provisional: fewer than 5 rated games"} {
		if !strings.Contains(text, want) {
			t.Errorf("the table lacks %q:\n%s", want, text)
		}
	}
	// The asker in the top is marked there, not repeated.
	lb.Asker, lb.AskerAt = &lb.Top[1], 1
	_, lines = LeaderboardText("fr", lb)
	text = strings.Join(lines, "\n")
	if strings.Contains(text, "Vous") || !strings.Contains(text, "👉 2. <@2> — **1\u00a0500** · 19 parties") {
		t.Errorf("the asker in the top:\n%s", text)
	}
	// Without seasons.
	lb.Season = Season{Number: 1}
	if _, lines := LeaderboardText("de", lb); !strings.Contains(lines[0], "Keine Saisons") {
		t.Errorf("no seasons: %q", lines[0])
	}
}

// TestLeaderboardPictureRows: the bots stand where their numbers fall
// between the members, the asker below the top comes last and
// highlighted, and the bots below the last member shown are left out
// when more members follow.
func TestLeaderboardPictureRows(t *testing.T) {
	lb := sampleBoard()
	lb.Asker = &Rated{Name: "<@9>", PictureName: "Ivo", Rating: 1150, Place: 5, Games: 4}
	sc := LeaderboardScene("en", lb)
	var got []string
	for _, r := range sc.Rows {
		name := r.Name
		if r.Bot {
			name = "bot " + name
		}
		if r.Highlight {
			name += " (you)"
		}
		got = append(got, name)
	}
	want := "bot expert, <@1>, bot hard, <@2>, bot normal, <@3>, Ivo (you)"
	if strings.Join(got, ", ") != want {
		t.Errorf("rows %q, want %q", strings.Join(got, ", "), want)
	}
	if sc.Rows[5].Mark != "≈" || !strings.Contains(strings.Join(sc.Footer, " "), "1,000") {
		t.Errorf("provisional mark %q, footer %q", sc.Rows[4].Mark, sc.Footer)
	}
	// Every member shown: the weaker bots close the table.
	lb.Ranked, lb.Asker = 3, nil
	sc = LeaderboardScene("en", lb)
	if last := sc.Rows[len(sc.Rows)-1]; !last.Bot || last.Name != "easy" {
		t.Errorf("the last row %+v, want the easy bot", last)
	}
}

// TestRatingCardWords: a member's card, edition by edition: the number,
// the place this season, the record, the latest results newest first
// (a game left said so, hints shown) and the members met most.
func TestRatingCardWords(t *testing.T) {
	eds := []EditionRating{{Edition: "Ticket to Ride — Europe", Ranked: 9,
		Rated: Rated{Rating: 1437, Place: 3, Games: 12, Wins: 5, Left: 1, Hints: 3,
			Form: []FormResult{{Place: 4, Seats: 4, Left: true, Change: -20}, {Place: 1, Seats: 3, Change: 15, Hints: 2}}},
		Rivals: []Rival{{Name: "<@2>", Games: 7, Above: 4, Below: 2, Shared: 1}}}}
	title, fields := RatingCard("en", "<@1>", Season{Number: 1}, eds, 5)
	if !strings.Contains(title, "<@1>") || len(fields) != 2 {
		t.Fatalf("%q %v", title, fields)
	}
	body := fields[0][1]
	for _, want := range []string{"**1,437** · #3 of 9 this season", "12 rated games · 5 wins · 1 game left to a bot · 3 hints used",
		"Latest: 1/3 +15 💡2, left −20", "Met most: <@2> 4–2 (1 shared)"} {
		if !strings.Contains(body, want) {
			t.Errorf("the card lacks %q:\n%s", want, body)
		}
	}
}

// TestSeasonOverWords: the end of a season names its last day, each
// edition's podium and how the next season starts.
func TestSeasonOverWords(t *testing.T) {
	end := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	msg := SeasonOver("fr", 4, end, []SeasonTable{{Edition: "Les Aventuriers du Rail — Europe", Games: 31,
		Podium: []Rated{{Name: "<@1>", Rating: 1612}, {Name: "<@2>", Rating: 1540}, {Name: "<@3>", Rating: 1498}, {Name: "<@4>", Rating: 1400}}}})
	for _, want := range []string{"saison 4", "31 décembre 2026", "🥇 <@1> 1\u00a0612", "🥉 <@3> 1\u00a0498", "31 parties classées", "saison 5"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the season's end lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "<@4>") {
		t.Errorf("a podium of four:\n%s", msg)
	}
}
