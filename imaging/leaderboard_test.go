package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"conductor/internal/testkit"
)

func leaderboardFixture() *LeaderboardScene {
	s := &LeaderboardScene{Title: "Ticket to Ride — USA", Heading: "Ratings", Season: "Season 2 · until November 30, 2026 (UTC)",
		Place: "#", Player: "Player", Rating: "Rating", Games: "Games", Form: "Latest places", Bot: "BOT",
		Footer: []string{"…and 3 more", "A newcomer starts at 1,000."}}
	s.Rows = []LeaderboardRow{
		{Bot: true, Name: "expert", Rating: "1,665"},
		{Place: "1", Name: "Alice", Rating: "1,630", Games: "40", Form: []FormMark{{"1", FormWon}, {"3", FormMiddle}, {"4", FormLast}}},
		{Place: "2", Name: "Bruno", Rating: "1,593", Games: "36", Form: []FormMark{{"×", FormLast}}},
		{Bot: true, Name: "hard", Rating: "1,578"},
		{Place: "7", Name: "Ivo", Rating: "1,102", Mark: "≈", Games: "3", Highlight: true, Form: []FormMark{{"2", FormMiddle}}},
	}
	return s
}

// TestLeaderboardPicture: a line a row under the heading, the asker's
// highlighted, each result's disc in its colour (a win green, a last
// place red), and the bots' reference lines without discs.
func TestLeaderboardPicture(t *testing.T) {
	s := leaderboardFixture()
	var buf bytes.Buffer
	if err := shared().Leaderboard(&buf, s); err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	wantH := boardHeadH + boardColH + len(s.Rows)*boardRowH + 16 + len(s.Footer)*boardFooterH + 8
	if im.Bounds() != image.Rect(0, 0, boardW, wantH) {
		t.Fatalf("picture is %v, want %dx%d", im.Bounds(), boardW, wantH)
	}
	rowMid := func(i int) int { return boardHeadH + boardColH + i*boardRowH + boardRowH/2 }
	if got := rgbaAt(im, 20, rowMid(4)); got != turnBG {
		t.Errorf("the asker's line is %v, want highlighted %v", got, turnBG)
	}
	if got := rgbaAt(im, 20, rowMid(1)); got == turnBG {
		t.Errorf("another member's line is highlighted")
	}
	disc := func(row, k int) (x, y int) { return 720 + 13 + k*30, rowMid(row) - 8 }
	for _, c := range []struct {
		row, k int
		want   color.RGBA
	}{{1, 0, good}, {1, 1, muted}, {1, 2, bad}, {2, 0, bad}} {
		x, y := disc(c.row, c.k)
		if got := rgbaAt(im, x, y); got != c.want {
			t.Errorf("row %d, result %d at (%d,%d): %v, want %v", c.row, c.k, x, y, got, c.want)
		}
	}
	x, y := disc(0, 0)
	if got := rgbaAt(im, x, y); got == good || got == bad || got == muted {
		t.Errorf("a bot's reference line has a result disc: %v", got)
	}
}

// TestFinalRatingColumn: a sheet with rating changes grows a column for
// them (green up, red down) and keeps the others' notes clear of it; one
// without keeps its width for the notes.
func TestFinalRatingColumn(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "europe")
	fs := finalOf(playedScene(b, 4, 44, 12))
	draw := func(fs *FinalScene) image.Image {
		var buf bytes.Buffer
		if err := r.Final(&buf, fs); err != nil {
			t.Fatal(err)
		}
		im, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		return im
	}
	plain := draw(fs)
	fs.Text.Rating = "Rating"
	fs.Players[0].Rating, fs.Players[0].RatingUp = "+12 → 1,437", 12
	fs.Players[1].Rating, fs.Players[1].RatingUp, fs.Players[1].RatingNote = "−8 → 1,120", -8, "provisional · 2 hints"
	rated := draw(fs)
	a := r.art(b)
	count := func(im image.Image, col color.RGBA) int {
		n := 0
		for y := a.h; y < im.Bounds().Dy(); y++ {
			for x := imageWidth - 330; x < imageWidth; x++ {
				if rgbaAt(im, x, y) == col {
					n++
				}
			}
		}
		return n
	}
	if count(rated, good) <= count(plain, good) || count(rated, bad) <= count(plain, bad) {
		t.Errorf("the rating column: green %d (without %d), red %d (without %d) pixels on the right",
			count(rated, good), count(plain, good), count(rated, bad), count(plain, bad))
	}
	if rated.Bounds().Dy() < plain.Bounds().Dy() {
		t.Errorf("the sheet shrank with ratings: %v, without %v", rated.Bounds(), plain.Bounds())
	}
}
