package engine

import (
	"math/rand/v2"
	"testing"

	"conductor/data"
	"conductor/internal/testkit"
)

// checkTrail fails unless path is a trail of distinct tracks from tracks,
// each sharing a city with the next, with length cars in all, touching a
// country only at an end.
func checkTrail(t *testing.T, b *data.Board, tracks, path []data.TrackID, length int) {
	t.Helper()
	held := map[data.TrackID]bool{}
	for _, id := range tracks {
		held[id] = true
	}
	used := map[data.TrackID]bool{}
	sum := 0
	for _, id := range path {
		if !held[id] || used[id] {
			t.Fatalf("path %v: track %s not held or used twice", path, b.TrackName(id))
		}
		used[id] = true
		sum += b.Tracks[id].Length
	}
	if sum != length {
		t.Fatalf("path %v has %d cars, reported %d", path, sum, length)
	}
	if len(path) == 0 {
		return
	}
	// Walk the path from either end of its first track.
	walks := func(from data.CityID) bool {
		at := from
		for i, id := range path {
			tr := b.Tracks[id]
			if tr.A != at && tr.B != at || i > 0 && b.Cities[at].Country {
				return false
			}
			at = tr.Other(at)
		}
		return !(at == from && b.Cities[at].Country) // a country touched twice
	}
	if first := b.Tracks[path[0]]; !walks(first.A) && !walks(first.B) {
		t.Fatalf("path %v is not continuous or passes through a country", path)
	}
}

func TestLongestPathHandCounted(t *testing.T) {
	type r = [3]string
	cases := []struct {
		name, board string
		routes      []r
		want        int
	}{
		{"a chain", "usa", []r{{"Seattle", "Portland", "gray"}, {"Portland", "San Francisco", "green"}, {"San Francisco", "Los Angeles", "pink"}}, 1 + 5 + 3},
		// Helena with arms of 6, 6 and 4: a path takes two arms.
		{"branches take the two longest arms", "usa", []r{{"Helena", "Seattle", "yellow"}, {"Helena", "Duluth", "orange"}, {"Helena", "Calgary", "gray"}}, 12},
		// Triangle Kansas City – Omaha – Denver (1+4+4) with tails Denver –
		// Santa Fe (2) and Kansas City – Saint Louis (2): the best path walks
		// one tail and the whole loop, Saint Louis – KC – Omaha – Denver – KC.
		{"a loop with tails", "usa", []r{{"Kansas City", "Omaha", "gray"}, {"Omaha", "Denver", "pink"}, {"Denver", "Kansas City", "black"},
			{"Denver", "Santa Fe", "gray"}, {"Kansas City", "Saint Louis", "blue"}}, 11},
		{"a plain cycle", "usa", []r{{"Kansas City", "Omaha", "gray"}, {"Omaha", "Denver", "pink"}, {"Denver", "Kansas City", "black"}}, 9},
		// Two triangles meeting at Denver: every city has even degree, so one
		// path uses every track and passes Denver twice.
		{"a figure eight", "usa", []r{{"Kansas City", "Omaha", "gray"}, {"Omaha", "Denver", "pink"}, {"Denver", "Kansas City", "black"},
			{"Denver", "Santa Fe", "gray"}, {"Santa Fe", "Oklahoma City", "blue"}, {"Oklahoma City", "Denver", "red"}}, 18},
		{"two separate networks", "europe", []r{{"Budapest", "Kyiv", "gray"}, {"Paris", "Frankfurt", "white"}, {"Frankfurt", "Berlin", "red"}, {"Berlin", "Wien", "green"}}, 9},
		// Saarbrücken – Karlsruhe – Freiburg plus both into Frankreich: the
		// loop through Frankreich may not be closed (9); the best is
		// Frankreich – Freiburg – Karlsruhe – Saarbrücken.
		{"a country ends the path", "marklin", []r{{"Saarbrücken", "Frankreich", "green"}, {"Freiburg", "Frankreich", "yellow"},
			{"Freiburg", "Karlsruhe", "white"}, {"Karlsruhe", "Saarbrücken", "gray"}}, 2 + 3 + 3},
		{"two tracks into one country", "marklin", []r{{"Saarbrücken", "Frankreich", "green"}, {"Freiburg", "Frankreich", "yellow"}}, 2},
		{"nothing", "usa", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := testkit.Board(t, c.board)
			held := routes(t, b, c.routes...)
			n, path := LongestPath(b, held)
			if n != c.want {
				t.Fatalf("longest path %d, want %d (path %v)", n, c.want, path)
			}
			checkTrail(t, b, held, path, n)
		})
	}
}

func TestLongestPathIgnoresRepeatedTracks(t *testing.T) {
	b := testkit.Board(t, "usa")
	id := testkit.Track(t, b, "Helena", "Seattle", data.Yellow)
	if n, path := LongestPath(b, []data.TrackID{id, id}); n != 6 || len(path) != 1 {
		t.Fatalf("got %d over %v, want 6 over one track", n, path)
	}
}

// exhaustive is a plain longest-trail search written apart from PathSearch:
// from every node, try every unused track, stopping at countries.
func exhaustive(b *data.Board, held []data.TrackID) int {
	used := map[data.TrackID]bool{}
	isHeld := map[data.TrackID]bool{}
	for _, id := range held {
		isHeld[id] = true
	}
	best := 0
	var walk func(start, at data.CityID, length int)
	walk = func(start, at data.CityID, length int) {
		best = max(best, length)
		if at != start && b.Cities[at].Country {
			return
		}
		for _, id := range b.Adj[at] {
			o := b.Tracks[id].Other(at)
			if !isHeld[id] || used[id] || o == start && b.Cities[o].Country {
				continue
			}
			used[id] = true
			walk(start, o, length+b.Tracks[id].Length)
			used[id] = false
		}
	}
	for c := range b.Cities {
		walk(data.CityID(c), data.CityID(c), 0)
	}
	return best
}

func TestLongestPathAgreesWithExhaustiveSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		var reused PathSearch
		for range 150 {
			// Random connected-ish networks: grow from a random city.
			var held []data.TrackID
			in := map[data.TrackID]bool{}
			frontier := []data.CityID{data.CityID(rng.IntN(len(b.Cities)))}
			for len(held) < 4+rng.IntN(14) && len(frontier) > 0 {
				c := frontier[rng.IntN(len(frontier))]
				adj := b.Adj[c]
				tid := adj[rng.IntN(len(adj))]
				if in[tid] {
					frontier = append(frontier, b.Tracks[tid].Other(c))
					continue
				}
				in[tid] = true
				held = append(held, tid)
				frontier = append(frontier, b.Tracks[tid].Other(c))
			}
			want := exhaustive(b, held)
			n, path := reused.Longest(b, held)
			if n != want {
				t.Fatalf("%s: longest %d, exhaustive search %d, tracks %v", id, n, want, held)
			}
			checkTrail(t, b, held, path, n)
		}
	}
}

func TestPathSearchReusedDoesNotAllocate(t *testing.T) {
	b := testkit.Board(t, "europe")
	held := latePosition(b, 4, 7)[0].Tracks
	var s PathSearch
	s.Longest(b, held)
	if n := testing.AllocsPerRun(20, func() { s.Longest(b, held) }); n != 0 {
		t.Fatalf("a reused PathSearch allocates %v times per search", n)
	}
}

func BenchmarkLongestPath(b *testing.B) {
	for _, id := range []string{"usa", "europe", "marklin"} {
		bd := testkit.Board(b, id)
		hs := latePosition(bd, 4, 7)
		b.Run(id, func(b *testing.B) {
			var s PathSearch
			for b.Loop() {
				for _, h := range hs {
					s.Longest(bd, h.Tracks)
				}
			}
		})
	}
}

// denseNetwork takes, breadth first from a city, one track of every route
// it meets until 45 trains are placed: a tight mesh with many loops, far
// more tangled than real play, to bound the path search's worst case.
func denseNetwork(b *data.Board, from string) []data.TrackID {
	start, _ := b.City(from)
	var held []data.TrackID
	group := map[int]bool{}
	seen := map[data.CityID]bool{start: true}
	queue := []data.CityID{start}
	trains := 0
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, id := range b.Adj[c] {
			tr := b.Tracks[id]
			if group[tr.Group] || trains+tr.Length > b.Rules.Trains {
				continue
			}
			group[tr.Group] = true
			held = append(held, id)
			trains += tr.Length
			if o := tr.Other(c); !seen[o] {
				seen[o] = true
				queue = append(queue, o)
			}
		}
	}
	return held
}

func BenchmarkLongestPathDense(b *testing.B) {
	for _, c := range [][2]string{{"usa", "Kansas City"}, {"europe", "Wien"}, {"marklin", "Köln"}} {
		bd := testkit.Board(b, c[0])
		held := denseNetwork(bd, c[1])
		b.Run(c[0], func(b *testing.B) {
			var s PathSearch
			for b.Loop() {
				s.Longest(bd, held)
			}
			b.ReportMetric(float64(len(held)), "tracks")
		})
	}
}
