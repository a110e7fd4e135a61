package imaging

import (
	"bytes"
	"image/png"
	"math"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

func TestFinalPicture(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		s := playedScene(b, 4, 44, 12)
		fs := finalOf(s)
		var buf bytes.Buffer
		if err := r.Final(&buf, fs); err != nil {
			t.Fatal(err)
		}
		im, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		a := r.art(b)
		if im.Bounds().Dx() != imageWidth || im.Bounds().Dy() <= a.h+len(fs.Players)*finalRowH {
			t.Errorf("%s: score sheet is %v", id, im.Bounds())
		}
		// Claimed tracks in their owners' colours.
		for tid, o := range fs.Owners {
			if o < 0 {
				continue
			}
			for _, sp := range a.spaces[tid] {
				for _, p := range spaceSamples(a.v, sp) {
					if !covered(a, &Scene{Stations: fs.Stations}, tid, p) && rgbaAt(im, int(p.X), int(p.Y)) != playerColor(int(o)) {
						t.Errorf("%s: %s not in its owner's colour at %v", id, b.TrackName(data.TrackID(tid)), p)
					}
				}
			}
		}
		// Each longest path outlined: the glow shows beside its spaces.
		for _, pl := range fs.Players {
			if len(pl.LongestPath) == 0 {
				t.Fatalf("%s: fixture has no longest path for %s", id, pl.Name)
			}
			shown, total := 0, 0
			for _, tid := range pl.LongestPath {
				for _, sp := range a.spaces[tid] {
					total++
					c := a.v.centre(sp)
					off := (sp.W/2)*a.v.scale + 4.6 // beyond the train (3.2), within the glow (6)
					nx, ny := -math.Sin(sp.Angle)*off, math.Cos(sp.Angle)*off
					if near(im, pt{c.X + nx, c.Y + ny}, 0, glow) || near(im, pt{c.X - nx, c.Y - ny}, 0, glow) {
						shown++
					}
				}
			}
			if shown < total*8/10 {
				t.Errorf("%s: %s's longest path outlined on %d of %d spaces", id, pl.Name, shown, total)
			}
		}
		// The winner's row, first in the ranking, is highlighted.
		winnerFirst := true
		for _, pl := range fs.Players {
			winnerFirst = winnerFirst && (!pl.Winner || pl.Total >= maxTotal(fs))
		}
		if winnerFirst && rgbaAt(im, panelX+9, playerTop+3) != turnBG {
			t.Errorf("%s: the winner's row is not highlighted", id)
		}
	}
}

func maxTotal(fs *FinalScene) int {
	m := math.MinInt
	for _, p := range fs.Players {
		m = max(m, p.Total)
	}
	return m
}

// TestFinalNumbersNeverSignZero: a player without tickets shows "0" in
// both ticket columns, not "+0" and "−0"; other numbers keep their sign.
func TestFinalNumbersNeverSignZero(t *testing.T) {
	b := testkit.Board(t, "europe")
	a := shared().art(b)
	fs := &FinalScene{Board: b, Text: testFinalText, Players: []FinalLine{{Name: "A"}, {Name: "B",
		TicketsWon: []TicketLine{{Points: 8}}, TicketsLost: []TicketLine{{Points: 5}, {Points: 6}}}}}
	want := map[string][2]string{"Tickets +": {"0", "+8"}, "Tickets −": {"0", "−11"}}
	for _, col := range a.finalColumns(fs) {
		w, ok := want[col.title]
		if !ok {
			continue
		}
		delete(want, col.title)
		for i := range fs.Players {
			if got := col.value(&fs.Players[i]); got != w[i] {
				t.Errorf("%s for %s: %q, want %q", col.title, fs.Players[i].Name, got, w[i])
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("the sheet lacks the columns %v", want)
	}
}
