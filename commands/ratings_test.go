package commands

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"conductor/present"
	"conductor/rating"
)

// ratingLine reads a member's change on a final sheet's line of ratings:
// "<@u1> +86 → 1,086".
func ratingLine(t *testing.T, text, user string) (change, after string) {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta("<@"+user+">") + ` ([+−±][\d,]+) → ([\d,]+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no rating change for %s in:\n%s", user, text)
	}
	return m[1], m[2]
}

// TestRatingsThroughTheService plays a two-member game whose victory is
// shared after every tie-break, on a server with monthly seasons, and
// follows it through the whole path: the final sheet shows both members
// the same change (text and picture), the archive's fold gives them the
// number the sheet showed (/ttr rating), the table puts them level
// (/ttr leaderboard, with its picture); the month's end is announced once
// in the channel of the games; and a member forgotten takes the game's
// rating with them.
func TestRatingsThroughTheService(t *testing.T) {
	w := newWorld(t)
	clock := &testClock{now: w.now}
	w.serve(clock)

	if a := w.cmd("u1", "ttr", "season", map[string]string{"length": "month"}); !strings.Contains(a.msg.Content, present.T("en", "season.not_allowed")) {
		t.Errorf("a member without Manage Server set the seasons: %q", a.msg.Content)
	}
	a := w.do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "season", Options: map[string]string{"length": "month"}, CanManageServer: true})
	if !strings.Contains(a.msg.Content, "Seasons last a month now") || !strings.Contains(a.msg.Content, "until November 30, 2026") {
		t.Errorf("/ttr season length:month: %q", a.msg.Content)
	}
	if a := w.cmd("u1", "ttr", "leaderboard", nil); !strings.Contains(a.msg.Content, present.T("en", "rating.none")) {
		t.Errorf("a table before any rated game: %+v", a.msg)
	}

	tie := w.tableOf("tie", tiedSeed(t), clock)
	if !w.timerPlays("tie", 1<<30, clock) {
		t.Fatal("the tied game did not end")
	}
	sheet := sheetOf(t, w.store, tie)
	if p := sheet.Players; p[0].Rank != 1 || p[1].Rank != 1 {
		t.Fatalf("the fixture's game is not tied: %+v", p)
	}
	posts := w.poster.all("tie")
	all := texts(posts)
	c1, r1 := ratingLine(t, all, "u1")
	c2, r2 := ratingLine(t, all, "u2")
	if c1 != c2 || r1 != r2 {
		t.Errorf("a shared place moved the members apart on the sheet: %s → %s and %s → %s", c1, r1, c2, r2)
	}
	newcomer := rating.Default().New().Display()
	if want := present.RatingMove("en", newcomer, newcomer+atoi(t, c1)); c1 == "±0" || !strings.Contains(all, want) {
		t.Errorf("the change %s from a newcomer's %d: the sheet says\n%s", c1, newcomer, all)
	}
	ratingColumn(t, w, c1, r1)

	// The index holds what the sheet showed, for both.
	for _, u := range []string{"u1", "u2"} {
		a := w.cmd("u1", "ttr", "rating", map[string]string{"player": u})
		if len(a.msg.Embeds) == 0 {
			t.Fatalf("/ttr rating %s: %+v", u, a.msg)
		}
		body := a.msg.Embeds[0].Fields[0].Value
		if !strings.HasPrefix(body, "**≈"+r1+"** · #1 of 2 this season") || !strings.Contains(body, "1 rated game · 1 win") {
			t.Errorf("/ttr rating %s:\n%s", u, body)
		}
	}
	a = w.cmd("u2", "ttr", "leaderboard", nil)
	if len(a.msg.Embeds) == 0 || len(a.msg.Files) != 1 || a.msg.Files[0].Name != "leaderboard.png" || decodePNG(t, a.msg.Files[0]) == 0 {
		t.Fatalf("/ttr leaderboard: %+v", a.msg)
	}
	if lbs := w.pictures().Leaderboards(); len(lbs) != 1 || len(lbs[0].Rows) < 2 {
		t.Errorf("the leaderboard's picture: %+v", lbs)
	}
	board := a.msg.Embeds[0].Description
	for _, want := range []string{"1. <@u1> — **≈" + r1 + "**", "👉 1. <@u2> — **≈" + r1 + "**", "Season 1 · until November 30, 2026"} {
		if !strings.Contains(board, want) {
			t.Errorf("the table lacks %q:\n%s", want, board)
		}
	}

	// The month ends: told once, where the games were played.
	clock.advance(12 * 24 * time.Hour)
	w.svc.CloseSeasons()
	w.svc.CloseSeasons()
	w.svc.Quiet()
	told := 0
	for _, m := range w.poster.all("tie") {
		if strings.Contains(m.Content, "Season 1** is over") {
			told++
			if !strings.Contains(m.Content, "🥇 <@u1> "+r1) || !strings.Contains(m.Content, "November 30, 2026") || len(m.Mentions) != 0 {
				t.Errorf("the season's end: %+v", m)
			}
		}
	}
	if told != 1 {
		t.Errorf("the season's end told %d times", told)
	}
	if a := w.cmd("u1", "ttr", "rating", nil); !strings.Contains(a.msg.Embeds[0].Fields[0].Value, "no rated game this season") {
		t.Errorf("/ttr rating in the new season:\n%s", a.msg.Embeds[0].Fields[0].Value)
	}

	// Forgetting: another member needs Manage Server; oneself does not.
	if a := w.cmd("u1", "ttr", "forget", map[string]string{"player": "u2", "confirm": "true"}); !strings.Contains(a.msg.Content, present.T("en", "forget.member_not_allowed")) {
		t.Errorf("u1 forgot u2: %q", a.msg.Content)
	}
	if a := w.cmd("u2", "ttr", "forget", map[string]string{"player": "u2"}); !strings.Contains(a.msg.Content, "computes everyone's ratings again without them") {
		t.Errorf("forgetting oneself asks first: %q", a.msg.Content)
	}
	if a := w.cmd("u2", "ttr", "forget", map[string]string{"player": "u2", "confirm": "true"}); !strings.Contains(a.msg.Content, "1 archived game") {
		t.Errorf("forgetting oneself: %q", a.msg.Content)
	}
	// Without u2 the tied game had one member and no opponent: it rates
	// nobody, and u1 has no rating left.
	if a := w.cmd("u1", "ttr", "rating", nil); !strings.Contains(a.msg.Content, "No rated game on this server yet for <@u1>") {
		t.Errorf("/ttr rating after u2 was forgotten: %+v", a.msg)
	}
	if e, err := w.store.ArchivedByID("g1", tie); err != nil || e.Players[1].UserID != "" || !e.Players[1].Forgotten || e.Players[0].UserID != "u1" {
		t.Errorf("the sheet after u2 was forgotten: %+v %v", e, err)
	}
	if card, err := w.store.MemberRatings("g1", "u2", formula); err == nil {
		t.Errorf("u2's ratings after forgetting: %+v", card)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	neg := strings.HasPrefix(s, "−")
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = 10*n + int(r-'0')
		}
	}
	if neg {
		n = -n
	}
	return n
}

// ratingColumn checks the final score sheet's picture as drawn: a
// Rating column with the change the text said for each member's seat.
func ratingColumn(t *testing.T, w *world, change, after string) {
	t.Helper()
	finals := w.pictures().Finals()
	if len(finals) == 0 {
		t.Fatal("no final sheet picture drawn")
	}
	sc := finals[len(finals)-1]
	if sc.Text.Rating == "" {
		t.Error("the final picture has no rating column")
	}
	want := change + " → " + after
	for i, p := range sc.Players[:2] {
		if p.Rating != want {
			t.Errorf("seat %d's rating on the picture: %q, the text said %q", i, p.Rating, want)
		}
	}
}
