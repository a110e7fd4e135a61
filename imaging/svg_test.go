package imaging

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// svgTrack is one track as the SVG draws it.
type svgTrack struct {
	id, owner int
	ref       string
	label     string
	polygons  [][]pt
	last      bool
}

// parseSVGTracks reads every track group of a board SVG.
func parseSVGTracks(t *testing.T, doc []byte) []svgTrack {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var out []svgTrack
	var cur *svgTrack
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			classes := strings.Fields(attr["class"])
			switch {
			case el.Name.Local == "g" && len(classes) > 0 && classes[0] == "track":
				id, _ := strconv.Atoi(attr["data-id"])
				owner, _ := strconv.Atoi(attr["data-owner"])
				out = append(out, svgTrack{id: id, owner: owner, ref: attr["data-ref"], label: attr["aria-label"], last: strings.Contains(attr["class"], "last")})
				cur = &out[len(out)-1]
			case el.Name.Local == "polygon" && attr["class"] == "car" && cur != nil:
				var poly []pt
				for _, p := range strings.Fields(attr["points"]) {
					x, y, _ := strings.Cut(p, ",")
					fx, _ := strconv.ParseFloat(x, 64)
					fy, _ := strconv.ParseFloat(y, 64)
					poly = append(poly, pt{fx, fy})
				}
				cur.polygons = append(cur.polygons, poly)
			}
		case xml.EndElement:
			if el.Name.Local == "g" {
				cur = nil
			}
		}
	}
	return out
}

// TestBoardSVGTracksMatchTheEngineAndThePNG: on every board, each track of
// the SVG names the engine's track reference (which parses back to it),
// carries its owner and its label, and its car spaces are where the PNG
// fills them: a pixel inside each SVG space is the owner's colour in the
// PNG drawn from the same scene.
func TestBoardSVGTracksMatchTheEngineAndThePNG(t *testing.T) {
	r := shared()
	for _, id := range []string{"usa", "europe", "marklin"} {
		t.Run(id, func(t *testing.T) {
			b := testkit.Board(t, id)
			s := emptyScene(b, 5)
			for i := range s.Owners {
				s.Owners[i] = int8(i % 5)
			}
			s.LastMove.Tracks = []data.TrackID{3}
			words := BoardWords{Title: b.Name}
			for i := range b.Tracks {
				words.Tracks = append(words.Tracks, "label <"+strconv.Itoa(i)+"> & more")
			}
			var svg bytes.Buffer
			if err := r.BoardSVG(&svg, s, words, "art.png"); err != nil {
				t.Fatal(err)
			}
			tracks := parseSVGTracks(t, svg.Bytes())
			if len(tracks) != len(b.Tracks) {
				t.Fatalf("%d tracks in the SVG, the board has %d", len(tracks), len(b.Tracks))
			}
			_, im := renderBoard(t, r, s)
			a := r.art(b)
			unchecked := 0
			for i, tr := range tracks {
				if tr.id != i {
					t.Fatalf("track %d is written as data-id %d", i, tr.id)
				}
				got, err := engine.ParseTrackRef(b, tr.ref)
				if err != nil || got != data.TrackID(i) {
					t.Errorf("track %d: data-ref %q parses to %d (%v)", i, tr.ref, got, err)
				}
				if tr.owner != i%5 {
					t.Errorf("track %d: data-owner %d, the scene says %d", i, tr.owner, i%5)
				}
				if want := words.Tracks[i]; tr.label != want {
					t.Errorf("track %d: aria-label %q, want %q", i, tr.label, want)
				}
				if tr.last != (i == 3) {
					t.Errorf("track %d: last move marked %v", i, tr.last)
				}
				want := r.TrackPolygons(b, data.TrackID(i))
				if len(tr.polygons) != len(want) || len(want) != int(b.Tracks[i].Length) {
					t.Fatalf("track %d: %d spaces in the SVG, %d drawn, length %d", i, len(tr.polygons), len(want), b.Tracks[i].Length)
				}
				matched := 0
				for k, poly := range tr.polygons {
					for c := range 4 {
						if math.Abs(poly[c].X-want[k][c][0]) > 0.01 || math.Abs(poly[c].Y-want[k][c][1]) > 0.01 {
							t.Fatalf("track %d space %d corner %d: SVG %v, PNG geometry %v", i, k, c, poly[c], want[k][c])
						}
					}
					// Three quarters of the way from the centre to the front:
					// inside the car, clear of the mark at its centre.
					ctr := pt{(poly[0].X + poly[1].X + poly[2].X + poly[3].X) / 4, (poly[0].Y + poly[1].Y + poly[2].Y + poly[3].Y) / 4}
					front := pt{(poly[1].X + poly[2].X) / 2, (poly[1].Y + poly[2].Y) / 2}
					p := pt{ctr.X + 0.7*(front.X-ctr.X), ctr.Y + 0.7*(front.Y-ctr.Y)}
					if covered(a, s, i, p) {
						continue
					}
					if rgbaAt(im, int(p.X), int(p.Y)) == playerColor(i%5) {
						matched++
					} else {
						t.Errorf("track %d space %d: the PNG at the SVG's space (%.0f,%.0f) is %v, not seat %d's colour", i, k, p.X, p.Y, rgbaAt(im, int(p.X), int(p.Y)), i%5)
					}
				}
				if matched == 0 {
					unchecked++
				}
			}
			if unchecked > len(b.Tracks)/10 {
				t.Errorf("%d of %d tracks could not be checked against the PNG (covered everywhere)", unchecked, len(b.Tracks))
			}
		})
	}
}

// TestBoardSVGShowsStationsPassengersAndGoods: the cities carry what the
// scene puts on them, and labels are escaped.
func TestBoardSVGShowsStationsPassengersAndGoods(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "marklin")
	s := emptyScene(b, 3)
	s.Passengers = []PassengerMark{{City: 2, Seat: 1}}
	s.Goods[4] = []int{7, 5}
	s.Stations[5] = 2
	s.LastMove.Cities = []data.CityID{2}
	var svg bytes.Buffer
	if err := r.BoardSVG(&svg, s, BoardWords{Title: `<Märklin & "co">`}, "a.png?x=1&y=2"); err != nil {
		t.Fatal(err)
	}
	doc := svg.String()
	for _, want := range []string{
		`data-city="2" data-name="` + b.Cities[2].Name,
		`data-passenger="1"`, `data-goods="7"`, `data-station="2"`,
		`&lt;Märklin &amp; &#34;co&#34;&gt;`, `href="a.png?x=1&amp;y=2"`, `class="city last"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the SVG lacks %s", want)
		}
	}
	if err := xml.Unmarshal(svg.Bytes(), new(struct{})); err != nil {
		t.Errorf("not well-formed: %v", err)
	}
}

// TestBoardArtIsTheMapOfThePNG: the art under the SVG is the PNG's map
// without the panel, of the SVG's size.
func TestBoardArtIsTheMapOfThePNG(t *testing.T) {
	r := shared()
	b := testkit.Board(t, "europe")
	var buf bytes.Buffer
	if err := r.BoardArt(&buf, b, Letters{}); err != nil {
		t.Fatal(err)
	}
	art, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w, h := r.SVGSize(b)
	if art.Bounds().Dx() != w || art.Bounds().Dy() != h {
		t.Fatalf("art is %v, the SVG %dx%d", art.Bounds(), w, h)
	}
	_, board := renderBoard(t, r, emptyScene(b, 2))
	same, n := 0, 0
	for y := 0; y < h; y += 7 {
		for x := 0; x < w; x += 7 {
			n++
			if rgbaAt(art, x, y) == rgbaAt(board, x, y) {
				same++
			}
		}
	}
	if same < n*95/100 {
		t.Errorf("only %d of %d samples of the art match the empty board's map", same, n)
	}
	if !strings.HasPrefix(ArtName(b), "europe-") || ArtName(b) == ArtName(testkit.Board(t, "usa")) {
		t.Errorf("art name %q", ArtName(b))
	}
}
