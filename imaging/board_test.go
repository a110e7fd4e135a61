package imaging

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

func renderBoard(t testing.TB, r *Renderer, s *Scene) ([]byte, image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := r.Board(&buf, s); err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), im
}

func rgbaAt(im image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(im.At(x, y)).(color.RGBA)
}

// covered reports whether something is drawn over the map at p on purpose
// (a name, a station, goods, passengers, another track's space where two
// tracks cross), so a sample there says nothing about track tid under it.
func covered(a *boardArt, s *Scene, tid int, p pt) bool {
	ip := image.Pt(int(p.X), int(p.Y))
	probe := quad{{p.X - 0.5, p.Y - 0.5}, {p.X + 0.5, p.Y - 0.5}, {p.X + 0.5, p.Y + 0.5}, {p.X - 0.5, p.Y + 0.5}}
	for other, row := range a.spaces {
		if other == tid {
			continue
		}
		for _, sp := range row {
			cs := a.v.corners(sp, 2.5)
			if (quad{cs[0], cs[1], cs[2], cs[3]}).overlaps(probe) {
				return true
			}
		}
	}
	for _, l := range a.labels {
		if ip.In(l.box) {
			return true
		}
	}
	for ci, spots := range a.badges {
		for k, q := range spots {
			used := (k == 0 && ci < len(s.Stations) && s.Stations[ci] >= 0) ||
				(k == 1 && ci < len(s.Goods) && len(s.Goods[ci]) > 0)
			if k == 2 {
				for _, pm := range s.Passengers {
					used = used || int(pm.City) == ci
				}
			}
			if used && math.Abs(p.X-q.X) < 14+float64(k/2)*30 && math.Abs(p.Y-q.Y) < 14 {
				return true
			}
		}
	}
	return false
}

// spaceSamples are two points on a space's axis, a third of its length
// either side of the centre: inside the car, clear of its border and of the
// marker shape at its centre.
func spaceSamples(v view, sp space) [2]pt {
	c := v.centre(sp)
	dx, dy := math.Cos(sp.Angle)*sp.L*v.scale*0.34, math.Sin(sp.Angle)*sp.L*v.scale*0.34
	return [2]pt{{c.X - dx, c.Y - dy}, {c.X + dx, c.Y + dy}}
}

func TestBoardPictureSize(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		_, im := renderBoard(t, r, playedScene(b, 3, 30, 2))
		if im.Bounds().Dx() != 1600 {
			t.Errorf("%s: width %d, want 1600", id, im.Bounds().Dx())
		}
		if want := r.art(b).h; im.Bounds().Dy() != want || want < minHeight {
			t.Errorf("%s: height %d, want %d (at least %d)", id, im.Bounds().Dy(), want, minHeight)
		}
	}
}

func TestClaimedTracksShowOwnerColour(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		s := playedScene(b, 5, 60, 4)
		a := r.art(b)
		_, im := renderBoard(t, r, s)
		checked, total := 0, 0
		for tid, o := range s.Owners {
			if o < 0 {
				continue
			}
			want := playerColor(int(o))
			for _, sp := range a.spaces[tid] {
				for _, p := range spaceSamples(a.v, sp) {
					total++
					if covered(a, s, tid, p) {
						continue
					}
					checked++
					if got := rgbaAt(im, int(p.X), int(p.Y)); got != want {
						t.Errorf("%s: %s space at (%.0f,%.0f) is %v, want owner %d's %v", id, b.TrackName(data.TrackID(tid)), p.X, p.Y, got, o, want)
					}
				}
			}
		}
		if total == 0 || checked < total*90/100 {
			t.Errorf("%s: checked %d of %d samples; too many covered", id, checked, total)
		}
		t.Logf("%s: checked %d of %d samples", id, checked, total)
	}
}

func TestStationsAndPassengersDrawn(t *testing.T) {
	r := shared()
	for _, id := range []string{"europe", "marklin"} {
		b := testkit.Board(t, id)
		s := playedScene(b, 4, 30, 5)
		a := r.art(b)
		_, im := renderBoard(t, r, s)
		countNear := func(p pt, want color.RGBA) int {
			n := 0
			for y := int(p.Y) - 9; y <= int(p.Y)+9; y++ {
				for x := int(p.X) - 9; x <= int(p.X)+9; x++ {
					if rgbaAt(im, x, y) == want {
						n++
					}
				}
			}
			return n
		}
		stations := 0
		for ci, seat := range s.Stations {
			if seat < 0 {
				continue
			}
			stations++
			if n := countNear(a.badges[ci][0], playerColor(int(seat))); n < 40 {
				t.Errorf("%s: station of seat %d at %s: %d pixels of its colour", id, seat, b.Cities[ci].Name, n)
			}
		}
		if b.Rules.Stations > 0 && stations == 0 {
			t.Errorf("%s: the scene has no stations to check", id)
		}
		for _, pm := range s.Passengers {
			if n := countNear(a.badges[pm.City][2], playerColor(pm.Seat)); n < 25 {
				t.Errorf("%s: passenger of seat %d at %s: %d pixels of its colour", id, pm.Seat, b.Cities[pm.City].Name, n)
			}
		}
		if b.Rules.Passengers > 0 && len(s.Passengers) == 0 {
			t.Errorf("%s: the scene has no passengers to check", id)
		}
	}
}

// TestEmptyBoardHasNoPlayerColours: before anything is claimed, no pixel of
// the map is in a player's colour, so a claimed track cannot be mistaken.
func TestEmptyBoardHasNoPlayerColours(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		_, im := renderBoard(t, r, emptyScene(b, 5))
		found := map[color.RGBA]int{}
		for y := 0; y < im.Bounds().Dy(); y++ {
			for x := 0; x < mapWidth; x++ {
				c := rgbaAt(im, x, y)
				for _, pc := range playerColors {
					if c == pc {
						found[c]++
					}
				}
			}
		}
		if len(found) > 0 {
			t.Errorf("%s: empty map has player colours: %v", id, found)
		}
	}
}

// TestBoardPNGCarriesNothingElse: the board picture is posted publicly, so
// its file holds the picture and nothing more (no text chunks), and drawing
// players' private hands with the same renderer does not change it.
func TestBoardPNGCarriesNothingElse(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "europe")
	s := playedScene(b, 4, 40, 6)
	before, _ := renderBoard(t, r, s)
	for p := range s.Players {
		h := handOf(s, p)
		if len(h.Tickets) == 0 {
			t.Fatalf("player %d holds no tickets; the test needs some", p)
		}
		var buf bytes.Buffer
		if err := r.Hand(&buf, h); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := renderBoard(t, r, s)
	if !bytes.Equal(before, after) {
		t.Error("the board picture changed after drawing hands")
	}
	chunks, err := pngChunks(after)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		switch c {
		case "IHDR", "PLTE", "IDAT", "IEND":
		default:
			t.Errorf("board PNG has a %s chunk", c)
		}
	}
	for p := range s.Players {
		for _, tl := range handOf(s, p).Tickets {
			for _, name := range []string{tl.From, tl.To} {
				if bytes.Contains(after, []byte(name)) {
					t.Errorf("board PNG bytes contain %q", name)
				}
			}
		}
	}
}

// pngChunks lists a PNG file's chunk types in order.
func pngChunks(b []byte) ([]string, error) {
	if len(b) < 8 || string(b[1:4]) != "PNG" {
		return nil, errBadPNG
	}
	var out []string
	for i := 8; i+8 <= len(b); {
		n := int(b[i])<<24 | int(b[i+1])<<16 | int(b[i+2])<<8 | int(b[i+3])
		out = append(out, string(b[i+4:i+8]))
		i += 12 + n
	}
	return out, nil
}

var errBadPNG = bytes.ErrTooLarge

func TestBoardPNGSize(t *testing.T) {
	r := shared()
	raw, _ := renderBoard(t, r, midGame(t))
	if len(raw) > 200<<10 {
		t.Errorf("mid-game Europe PNG is %d bytes, want at most 200 KiB", len(raw))
	}
	t.Logf("mid-game Europe PNG: %d bytes", len(raw))
}

// TestBoardToleratesOddScenes: a scene with missing or out-of-range parts
// still draws (the commands layer fills scenes; a slip must not crash).
func TestBoardToleratesOddScenes(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "marklin")
	odd := &Scene{Board: b, Current: 7, Owners: []int8{9, -3, 2}, Stations: make([]int8, len(b.Cities)+5),
		Passengers: []PassengerMark{{City: 999, Seat: 1}, {City: -1, Seat: 0}, {City: 2, Seat: 42}},
		Goods:      [][]int{{9, 8}, nil, {}}, FaceUp: []engine.Card{200, engine.NoCard, 3, 9, 10, 11, 1},
		Players:  []PlayerPanel{{Name: "a very long name that does not fit in the panel at all 🚂", Color: -6}},
		LastMove: Highlight{Tracks: []data.TrackID{-1, 9999}, Cities: []data.CityID{-2, 5000}, Text: "x"}}
	for _, s := range []*Scene{{Board: b}, odd} {
		if _, im := renderBoard(t, r, s); im.Bounds().Dx() != imageWidth {
			t.Errorf("odd scene drew %v", im.Bounds())
		}
	}
	var buf bytes.Buffer
	if err := r.Board(&buf, &Scene{}); err == nil {
		t.Error("a scene without a board drew")
	}
	if err := r.Hand(&buf, &HandScene{Board: b, Owned: []data.TrackID{-5, 30000}}); err != nil {
		t.Error(err)
	}
	if err := r.Final(&buf, &FinalScene{Board: b, Players: []FinalLine{{Name: "x", LongestPath: []data.TrackID{-1, 7000}}}}); err != nil {
		t.Error(err)
	}
}

// TestPanelTitleIsTheScenes: the panel's top line is the scene's title
// (the edition in the table's language), the board's name without one.
func TestPanelTitleIsTheScenes(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "europe")
	s := emptyScene(b, 2)
	_, plain := renderBoard(t, r, s)
	s.Title = "Zug um Zug — Europa · Mega-Europa"
	_, titled := renderBoard(t, r, s)
	header, elsewhere := 0, 0
	for y := 0; y < plain.Bounds().Dy(); y++ {
		for x := panelX; x < imageWidth; x++ {
			if rgbaAt(plain, x, y) != rgbaAt(titled, x, y) {
				if y < 32 {
					header++
				} else {
					elsewhere++
				}
			}
		}
	}
	if header == 0 || elsewhere != 0 {
		t.Errorf("a title changes %d pixels of the title line and %d elsewhere; want some and none", header, elsewhere)
	}
}
