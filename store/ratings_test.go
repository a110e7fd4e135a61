package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// testFormula is a small rating formula for the store's tests: each pair
// of seats moves Mu by the surprise of its result (an Elo between every
// two seats), Sigma narrows by a tenth a game. The rating package's
// formula is tested there; these tests are about what the store folds and
// keeps.
type testFormula struct{ version string }

func (f testFormula) Version() string { return "test " + f.version }
func (testFormula) New() Rating       { return Rating{Mu: 25, Sigma: 8} }
func (testFormula) Anchor(edition, level string) (Rating, bool) {
	switch level {
	case "easy":
		return Rating{Mu: 15, Sigma: 0.5}, true
	case "hard":
		return Rating{Mu: 30, Sigma: 0.5}, true
	}
	return Rating{}, false
}

func (testFormula) Rate(seats []RatedSeat) []Rating {
	out := make([]Rating, len(seats))
	for i, s := range seats {
		out[i] = s.Rating
		if s.Fixed {
			continue
		}
		for j, o := range seats {
			if i == j {
				continue
			}
			p := 1 / (1 + math.Exp((o.Rating.Mu-s.Rating.Mu)/4))
			score := 0.5
			if s.Rank < o.Rank {
				score = 1
			} else if s.Rank > o.Rank {
				score = 0
			}
			out[i].Mu += 2 * (score - p)
		}
		out[i].Sigma = math.Max(1, s.Rating.Sigma*0.9)
	}
	return out
}

func (testFormula) Regress(r Rating) Rating {
	return Rating{Mu: r.Mu + (25-r.Mu)/2, Sigma: r.Sigma + 1}
}
func (testFormula) Display(r Rating) int { return int(math.Round(1000 + 20*(r.Mu-3*r.Sigma))) }

var formula = testFormula{"1"}

// member, bot, left and gone are seats of a test game.
func member(user, name string, rank int) PlayerResult {
	return PlayerResult{UserID: user, Name: name, Rank: rank, Won: rank == 1, Score: 100 - rank}
}

func botSeat(level string, rank int) PlayerResult {
	return PlayerResult{Name: "Bot", Bot: level, Rank: rank, Won: rank == 1, Score: 100 - rank}
}

func leftSeat(user, name, level string, rank int) PlayerResult {
	return PlayerResult{UserID: user, Name: name, Bot: level, TakenOver: true, Rank: rank, Won: rank == 1, Score: 100 - rank}
}

// ratingGame is a game of the fold tests.
type ratingGame struct {
	guild, edition string
	res            ArchiveResult
}

var day = func(d int) time.Time { return base.Add(time.Duration(d) * 24 * time.Hour) }

// ratingGames: members of two servers on two editions, with every case of
// what counts: shared places, a seat left to a bot, bots of known and
// unknown levels, a game ended early, one stopped, one without a member.
func ratingGames() []ratingGame {
	return []ratingGame{
		{"g1", "usa", ArchiveResult{Finished: day(1), Players: []PlayerResult{member("u1", "Ada", 1), member("u2", "Bob", 2), member("u3", "Cy", 3)}}},
		{"g1", "usa", ArchiveResult{Finished: day(2), Players: []PlayerResult{member("u2", "Bob", 1), botSeat("hard", 2), member("u1", "Ada", 3)}}},
		{"g1", "usa", ArchiveResult{Finished: day(3), Players: []PlayerResult{member("u1", "Ada", 1), member("u3", "Cy", 1), member("u2", "Bob", 3)}}},
		{"g1", "usa", ArchiveResult{Finished: day(4), Early: true, Players: []PlayerResult{member("u3", "Cy", 1), member("u1", "Ada", 2)}}},
		{"g1", "usa", ArchiveResult{Finished: day(5), Status: StatusAbandoned, Players: []PlayerResult{member("u3", "Cy", 1), member("u1", "Ada", 2)}}},
		{"g1", "europe", ArchiveResult{Finished: day(6), Players: []PlayerResult{leftSeat("u1", "Ada", "normal", 1), member("u2", "Bob", 2), botSeat("easy", 3)}}},
		{"g2", "usa", ArchiveResult{Finished: day(6), Players: []PlayerResult{member("u1", "Ada", 2), member("u9", "Zed", 1)}}},
		{"g1", "usa", ArchiveResult{Finished: day(7), Players: []PlayerResult{botSeat("hard", 1), botSeat("easy", 2)}}},
		{"g1", "usa", ArchiveResult{Finished: day(8), Players: []PlayerResult{member("u3", "Cy", 1), botSeat("dest", 2)}}},
		{"g1", "usa", ArchiveResult{Finished: day(9), Players: []PlayerResult{member("u3", "Cy", 2), botSeat("easy", 1), member("u2", "Bobby", 3)}}},
	}
}

func archiveRated(t *testing.T, s *Store, n int, g ratingGame) *ArchiveEntry {
	t.Helper()
	ch := fmt.Sprintf("r%03d", n)
	rec := sampleGame(ch, g.guild, 3)
	rec.Map = g.edition
	rec.Seats = nil
	for _, p := range g.res.Players {
		rec.Seats = append(rec.Seats, Seat{UserID: p.UserID, Name: p.Name, Bot: p.Bot})
	}
	mustPut(t, s, rec)
	e, err := s.Archive(ch, g.res)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// ratingRows dumps every rating row of guild, by kind and key.
func ratingDump(t *testing.T, s *Store, guild string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.view(func(tx txn) error {
		st, err := readRatingState(tx, guild)
		if err != nil || st == nil {
			return err
		}
		kinds := []string{ratingKindState, ratingKindPending, ratingKindSeason}
		for _, ed := range st.Editions {
			kinds = append(kinds, memberKind(ed))
			for _, u := range []string{"u1", "u2", "u3", "u9"} {
				kinds = append(kinds, pairKind(ed, u))
			}
		}
		for _, k := range kinds {
			if err := tx.ratingRows(guild, k, 0, func(key string, v []byte) error {
				out[k+" "+key] = string(v)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func memberRating(t *testing.T, s *Store, guild, edition, user string) *MemberRating {
	t.Helper()
	var m *MemberRating
	err := s.view(func(tx txn) error {
		raw, err := tx.ratingRow(guild, memberKind(edition), user)
		if err != nil || raw == nil {
			return err
		}
		m = &MemberRating{}
		return json.Unmarshal(raw, m)
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRatingsFoldWhatCounts: the fold rates what docs/ratings.md says
// counts, and nothing else.
func TestRatingsFoldWhatCounts(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for i, g := range ratingGames() {
			archiveRated(t, s, i, g)
		}
		for _, g := range []string{"g1", "g2"} {
			if err := s.FoldRatings(g, formula); err != nil {
				t.Fatal(err)
			}
		}
		ada := memberRating(t, s, "g1", "usa", "u1")
		// Ada's USA games: 1st, 3rd, shared 1st; the early and stopped ones
		// do not count, nor her game on g2.
		if ada.Games != 3 || ada.Wins != 2 || len(ada.Form) != 3 || ada.SeasonGames != 3 {
			t.Errorf("Ada on g1 USA: %+v", ada)
		}
		// Left to a bot: a loss, below everyone, and the bot not rated.
		adaEU := memberRating(t, s, "g1", "europe", "u1")
		if adaEU == nil || adaEU.Left != 1 || adaEU.Wins != 0 || adaEU.Rating.Mu >= 25 || adaEU.Form[0].Place != 3 || !adaEU.Form[0].Left {
			t.Errorf("Ada's game left to a bot, first on the sheet: %+v", adaEU)
		}
		bobEU := memberRating(t, s, "g1", "europe", "u2")
		if bobEU.Rating.Mu <= 25 {
			t.Errorf("Bob placed above the seat Ada left and lost to an easy bot... %+v", bobEU)
		}
		// The game of two bots rated nobody; a bot of an unknown level is
		// no opponent, so Cy's game against "dest" rated nothing.
		cy := memberRating(t, s, "g1", "usa", "u3")
		if cy.Games != 3 {
			t.Errorf("Cy's rated games on USA: %d (%+v)", cy.Games, cy)
		}
		// The name is the latest.
		if bob := memberRating(t, s, "g1", "usa", "u2"); bob.Name != "Bobby" || bob.Games != 4 {
			t.Errorf("Bob: %+v", bob)
		}
		// Ratings stay in their server.
		if z := memberRating(t, s, "g1", "usa", "u9"); z != nil {
			t.Errorf("g2's member on g1's table: %+v", z)
		}
		if a2 := memberRating(t, s, "g2", "usa", "u1"); a2 == nil || a2.Games != 1 || a2.Wins != 0 {
			t.Errorf("Ada on g2: %+v", a2)
		}
		// Head-to-head: Ada against Bob on USA, 3 games: above, below, above.
		card, err := s.MemberRatings("g1", "u1", formula)
		if err != nil {
			t.Fatal(err)
		}
		if len(card.Editions) != 2 || card.Editions[0].Edition != "usa" {
			t.Fatalf("Ada's card: %+v", card)
		}
		var bob *HeadToHead
		for i, h := range card.Editions[0].Rivals {
			if h.Opponent == "u2" {
				bob = &card.Editions[0].Rivals[i]
			}
		}
		// (named as when they last met)
		if bob == nil || bob.Games != 3 || bob.Above != 2 || bob.Below != 1 || bob.Name != "Bob" {
			t.Errorf("Ada against Bob: %+v", card.Editions[0].Rivals)
		}
	})
}

// TestSharedPlacesMoveAlike: two members tied after every tie-break, who
// came in alike, move alike, through the archive and the index.
func TestSharedPlacesMoveAlikeInTheIndex(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		archiveRated(t, s, 0, ratingGame{"g1", "usa", ArchiveResult{Finished: day(1),
			Players: []PlayerResult{member("u1", "Ada", 1), member("u2", "Bob", 1), member("u3", "Cy", 3)}}})
		if err := s.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		a, b := memberRating(t, s, "g1", "usa", "u1"), memberRating(t, s, "g1", "usa", "u2")
		if a.Rating != b.Rating || a.Display != b.Display || a.Form[0].After-a.Form[0].Before != b.Form[0].After-b.Form[0].Before {
			t.Fatalf("tied seats moved apart: %+v and %+v", a, b)
		}
	})
}

// TestRatingsIncrementalIsTheRecomputation: folding each game as it is
// archived gives the same rows as folding the whole archive at once (a
// new formula version), byte for byte; a new game is folded without a
// recomputation.
func TestRatingsIncrementalIsTheRecomputation(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for i, g := range ratingGames() {
			archiveRated(t, s, i, g)
			if err := s.FoldRatings(g.guild, formula); err != nil {
				t.Fatal(err)
			}
		}
		before := ratingRecomputes.Load()
		archiveRated(t, s, 99, ratingGame{"g1", "usa", ArchiveResult{Finished: day(20),
			Players: []PlayerResult{member("u2", "Bob", 1), member("u4", "Dee", 2)}}})
		if err := s.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		if n := ratingRecomputes.Load() - before; n != 0 {
			t.Errorf("a new game recomputed the server's ratings (%d times)", n)
		}
		if dee := memberRating(t, s, "g1", "usa", "u4"); dee == nil || dee.Games != 1 {
			t.Errorf("the new game's member: %+v", dee)
		}
		incremental := ratingDump(t, s, "g1")
		if err := s.FoldRatings("g1", testFormula{"2"}); err != nil {
			t.Fatal(err)
		}
		if n := ratingRecomputes.Load() - before; n != 1 {
			t.Errorf("a new formula recomputed %d times", n)
		}
		again := ratingDump(t, s, "g1")
		for k, v := range incremental {
			if k == ratingKindState+" " {
				v = strings.Replace(v, "test 1", "test 2", 1)
			}
			if again[k] != v {
				t.Errorf("%q: folded one by one %s, all at once %s", k, v, again[k])
			}
		}
		if len(again) != len(incremental) {
			t.Errorf("%d rows one by one, %d all at once", len(incremental), len(again))
		}
	})
}

// TestRatingsOutOfOrder: a game archived after a later one is folded in
// its place: the ratings are those of the archive's order.
func TestRatingsOutOfOrder(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		games := ratingGames()
		late := games[1]
		games = slices.Delete(games, 1, 2)
		for i, g := range games {
			archiveRated(t, s, i, g)
			if err := s.FoldRatings(g.guild, formula); err != nil {
				t.Fatal(err)
			}
		}
		archiveRated(t, s, 50, late)
		if err := s.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		got := ratingDump(t, s, "g1")

		s2, _ := openTemp(t)
		for i, g := range ratingGames() {
			archiveRated(t, s2, i, g)
		}
		if err := s2.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		want := ratingDump(t, s2, "g1")
		if !reflect.DeepEqual(stripGameIDs(got), stripGameIDs(want)) {
			t.Errorf("out of order:\n%v\nin order:\n%v", got, want)
		}
	})
}

// stripGameIDs blanks what depends on the channel a test archived a game
// from (its id, its key).
func stripGameIDs(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		var row map[string]any
		if json.Unmarshal([]byte(v), &row) == nil {
			delete(row, "last_key")
			delete(row, "channels")
			if form, ok := row["form"].([]any); ok {
				for _, r := range form {
					delete(r.(map[string]any), "game")
				}
			}
			b, _ := json.Marshal(row)
			v = string(b)
		}
		out[k] = v
	}
	return out
}

// TestLeaderboard: the table in order of the number shown, places shared
// by equal numbers, the asker's place below the top, and a member of
// another edition or server not on it.
func TestLeaderboard(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for i, g := range ratingGames() {
			archiveRated(t, s, i, g)
		}
		lb, err := s.Leaderboard("g1", "usa", 2, "u3", formula)
		if err != nil {
			t.Fatal(err)
		}
		if lb.Ranked != 3 || len(lb.Top) != 2 || lb.Asker == nil {
			t.Fatalf("leaderboard: %+v", lb)
		}
		all, _ := s.Leaderboard("g1", "usa", 10, "", formula)
		for i := 1; i < len(all.Top); i++ {
			if all.Top[i].Display > all.Top[i-1].Display {
				t.Errorf("out of order: %+v", all.Top)
			}
		}
		for _, sd := range all.Top {
			if sd.UserID == "u3" && (lb.Asker.Place != sd.Place || lb.Asker.Display != sd.Display) {
				t.Errorf("the asker's standing %+v, on the table %+v", lb.Asker, sd)
			}
		}
		if eds, err := s.RatedEditions("g1", formula); err != nil || !slices.Equal(eds, []string{"usa", "europe"}) {
			t.Errorf("rated editions: %v %v", eds, err)
		}
		eu, _ := s.Leaderboard("g1", "europe", 10, "u3", formula)
		if eu.Ranked != 2 || eu.Asker != nil {
			t.Errorf("Europe's table: %+v", eu)
		}
		if _, err := s.MemberRatings("g1", "u9", formula); !errors.Is(err, ErrNoRatings) {
			t.Errorf("a member of another server: %v", err)
		}
		// Two members tied in everything share a place.
		s2, _ := openTemp(t)
		archiveRated(t, s2, 0, ratingGame{"g1", "usa", ArchiveResult{Finished: day(1),
			Players: []PlayerResult{member("u1", "Ada", 1), member("u2", "Bob", 1), member("u3", "Cy", 3)}}})
		tied, _ := s2.Leaderboard("g1", "usa", 10, "u3", formula)
		if len(tied.Top) != 3 || tied.Top[0].Place != 1 || tied.Top[1].Place != 1 || tied.Top[2].Place != 3 || tied.Asker.Place != 3 {
			t.Errorf("shared places: %+v", tied.Top)
		}
	})
}

// TestPreviewIsTheFold: the change the final sheet shows before the game
// is archived is the change the archive's fold makes.
func TestPreviewIsTheFold(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		games := ratingGames()
		for i, g := range games[:3] {
			archiveRated(t, s, i, g)
		}
		next := ratingGame{"g1", "usa", ArchiveResult{Finished: day(4),
			Players: []PlayerResult{member("u3", "Cy", 1), leftSeat("u1", "Ada", "normal", 2), botSeat("hard", 3), member("u5", "Eve", 4)}}}
		preview, err := s.PreviewRatings("g1", &ArchiveEntry{Map: "usa", Finished: day(4), Players: next.res.Players}, formula)
		if err != nil {
			t.Fatal(err)
		}
		archiveRated(t, s, 10, next)
		if err := s.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		if len(preview) != 3 {
			t.Fatalf("preview: %+v", preview)
		}
		for _, c := range preview {
			m := memberRating(t, s, "g1", "usa", c.UserID)
			last := m.Form[len(m.Form)-1]
			if c.After != m.Display || c.Before != last.Before || c.Games != m.Games {
				t.Errorf("%s: preview %+v, folded %+v", c.UserID, c, m)
			}
		}
		if eve := preview[2]; eve.UserID != "u5" || eve.Before != formula.Display(formula.New()) {
			t.Errorf("a newcomer's change starts at a newcomer's number: %+v", eve)
		}
		if ada := preview[1]; !ada.Left || ada.After >= ada.Before {
			t.Errorf("a seat left: %+v", ada)
		}
		// A game ended early moves nobody.
		if c, err := s.PreviewRatings("g1", &ArchiveEntry{Map: "usa", Early: true, Players: next.res.Players}, formula); err != nil || c != nil {
			t.Errorf("an early end: %+v %v", c, err)
		}
	})
}

// TestSeasons: a server with monthly seasons ends one when a game comes
// after its end, or at the time (CloseSeasons); the table is kept,
// announced once, and the next season starts from regressed ratings; a
// recomputation ends the seasons where they ended.
func TestSeasons(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		s.now = func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
		info, err := s.SetSeason("g1", SeasonMonth, s.now())
		if err != nil || info.End != time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) || info.Number != 1 {
			t.Fatalf("SetSeason: %+v %v", info, err)
		}
		oct := func(d int) time.Time { return time.Date(2026, 10, d, 20, 0, 0, 0, time.UTC) }
		nov := func(d int) time.Time { return time.Date(2026, 11, d, 20, 0, 0, 0, time.UTC) }
		play := func(n int, at time.Time, players ...PlayerResult) {
			t.Helper()
			g := ratingGame{"g1", "usa", ArchiveResult{Finished: at, Players: players}}
			g.res.Players[0].Won = true
			rec := sampleGame(fmt.Sprintf("s%02d", n), "g1", 3)
			rec.Map = "usa"
			rec.Options["parent"] = fmt.Sprint("p", n%2)
			rec.Options["locale"] = []string{"fr", "de"}[n%2]
			mustPut(t, s, rec)
			if _, err := s.Archive(rec.Channel, g.res); err != nil {
				t.Fatal(err)
			}
			if err := s.FoldRatings("g1", formula); err != nil {
				t.Fatal(err)
			}
		}
		play(1, oct(21), member("u1", "Ada", 1), member("u2", "Bob", 2))
		play(2, oct(22), member("u1", "Ada", 1), member("u2", "Bob", 2))
		play(3, oct(23), member("u2", "Bob", 1), member("u1", "Ada", 2))
		ada := memberRating(t, s, "g1", "usa", "u1")
		// November's first game ends October's season first.
		play(4, nov(2), member("u3", "Cy", 1), member("u2", "Bob", 2))
		set, _ := s.Settings("g1")
		if len(set.Ends) != 1 || !set.Ends[0].Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("season ends recorded: %+v", set)
		}
		ada2 := memberRating(t, s, "g1", "usa", "u1")
		if ada2.Rating != formula.Regress(ada.Rating) || ada2.SeasonGames != 0 || ada2.Games != 3 {
			t.Errorf("Ada after the season: %+v (before %+v)", ada2, ada)
		}
		lb, _ := s.Leaderboard("g1", "usa", 10, "u1", formula)
		if lb.Ranked != 2 || lb.Asker == nil || lb.Asker.Place != 0 || lb.Season.Number != 2 || !lb.Season.End.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("November's table: %+v", lb)
		}
		// October's table, announced once, in the channel of most games.
		tables, err := s.CloseSeasons("g1", formula, nov(3))
		if err != nil || len(tables) != 1 {
			t.Fatalf("tables to announce: %+v %v", tables, err)
		}
		oc := tables[0]
		if oc.Season != 1 || oc.Games != 3 || len(oc.Standings) != 2 || oc.Standings[0].UserID != "u1" || oc.Channel != "p1" || oc.Locale != "de" {
			t.Errorf("October's table: %+v", oc)
		}
		for i := range 2 {
			done, err := s.AnnounceSeason("g1", 1, oc.Channel, []OutboxEntry{{Kind: "season", Payload: json.RawMessage(`{}`)}})
			if err != nil || done != (i == 0) {
				t.Errorf("announcement %d: %v %v", i, done, err)
			}
		}
		if posts, _ := s.Outbox("p1"); len(posts) != 1 {
			t.Errorf("announcements queued: %d", len(posts))
		}
		if tables, _ := s.CloseSeasons("g1", formula, nov(4)); len(tables) != 0 {
			t.Errorf("announced again: %+v", tables)
		}
		// The end of November passes without a game: it ends at the time.
		tables, _ = s.CloseSeasons("g1", formula, time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC))
		if len(tables) != 1 || tables[0].Season != 2 || len(tables[0].Standings) != 2 || tables[0].Games != 1 ||
			tables[0].Standings[0].Display < tables[0].Standings[1].Display {
			t.Errorf("November's end: %+v", tables)
		}
		// A recomputation ends both seasons where they ended.
		before := ratingDump(t, s, "g1")
		if err := s.FoldRatings("g1", testFormula{"2"}); err != nil {
			t.Fatal(err)
		}
		after := ratingDump(t, s, "g1")
		for k, v := range before {
			if k != ratingKindState+" " && after[k] != v {
				t.Errorf("%q after the recomputation: %s, before %s", k, after[k], v)
			}
		}
		// No seasons: the season under way never ends.
		if info, _ := s.SetSeason("g1", SeasonNone, s.now()); !info.End.IsZero() {
			t.Errorf("no seasons: %+v", info)
		}
	})
}

// TestForgetMember: a forgotten member leaves every table: their seats
// keep scores and places without their id or name, their ratings go, and
// the others' are computed again without them.
func TestForgetMember(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for i, g := range ratingGames() {
			archiveRated(t, s, i, g)
		}
		for _, g := range []string{"g1", "g2"} {
			if err := s.FoldRatings(g, formula); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.ForgetMember("g1", "u1", formula)
		// She sat at 6 of g1's games, and the fixture makes her the host of
		// all 9.
		if err != nil || n != 9 {
			t.Fatalf("ForgetMember = %d, %v; want the 9 games of g1 that name Ada", n, err)
		}
		entries, _ := s.Archived("g1")
		for _, e := range entries {
			raw, _ := json.Marshal(e)
			if strings.Contains(string(raw), "u1") || strings.Contains(string(raw), "Ada") {
				t.Errorf("a summary still names Ada: %s", raw)
			}
			rec, err := s.ArchivedGame(e.Key)
			if err != nil {
				t.Fatal(err)
			}
			if raw, _ := json.Marshal(rec); strings.Contains(string(raw), `"u1"`) || strings.Contains(string(raw), `"Ada"`) {
				t.Errorf("a record still names Ada: %s", raw)
			}
		}
		dump := ratingDump(t, s, "g1")
		for k, v := range dump {
			if strings.Contains(k, "u1") || strings.Contains(v, "u1") {
				t.Errorf("the ratings still hold Ada: %q %s", k, v)
			}
		}
		// The others as if Ada had never sat at a table of g1.
		s2, _ := openTemp(t)
		for i, g := range ratingGames() {
			var kept []PlayerResult
			for _, p := range g.res.Players {
				if p.UserID != "u1" {
					kept = append(kept, p)
				}
			}
			g.res.Players = kept
			archiveRated(t, s2, i, g)
		}
		if err := s2.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		want := memberRating(t, s2, "g1", "usa", "u2")
		if got := memberRating(t, s, "g1", "usa", "u2"); got.Rating != want.Rating || got.Games != want.Games {
			t.Errorf("Bob after Ada was forgotten: %+v, without her from the start %+v", got, want)
		}
		// Ada on g2 is g2's: untouched.
		if a2 := memberRating(t, s, "g2", "usa", "u1"); a2 == nil {
			t.Error("forgetting Ada on g1 forgot her on g2")
		}
	})
}

// TestForgetGuildForgetsRatings: /ttr forget for the whole server leaves
// no rating and no setting.
func TestForgetGuildForgetsRatings(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for i, g := range ratingGames() {
			archiveRated(t, s, i, g)
		}
		if _, err := s.SetSeason("g1", SeasonQuarter, s.now()); err != nil {
			t.Fatal(err)
		}
		if err := s.FoldRatings("g1", formula); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.ForgetGuild("g1"); err != nil {
			t.Fatal(err)
		}
		if d := ratingDump(t, s, "g1"); len(d) != 0 {
			t.Errorf("rating rows left: %v", d)
		}
		if set, _ := s.Settings("g1"); set.Season != SeasonNone {
			t.Errorf("settings left: %+v", set)
		}
		if _, err := s.MemberRatings("g1", "u2", formula); !errors.Is(err, ErrNoRatings) {
			t.Errorf("ratings after forget: %v", err)
		}
		if a2 := memberRating(t, s, "g2", "usa", "u1"); a2 == nil {
			if err := s.FoldRatings("g2", formula); err != nil {
				t.Fatal(err)
			}
			if memberRating(t, s, "g2", "usa", "u1") == nil {
				t.Error("forgetting g1 forgot g2's ratings")
			}
		}
	})
}
