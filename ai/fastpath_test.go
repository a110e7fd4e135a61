package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"conductor/ai/match"
	"conductor/data"
	"conductor/engine"
	"conductor/internal/testkit"
)

// searchByScan is the router's search as it was first written: a plain
// scan for the nearest unsettled node. The heap must settle nodes in the
// same order and find the same paths.
func searchByScan(r *router, sources []data.CityID, cost []float64, target data.CityID) {
	for i := range r.dist {
		r.dist[i] = blocked
		r.via[i] = noTrack
		r.done[i] = false
	}
	for _, c := range sources {
		r.dist[c] = 0
	}
	for {
		u, best := -1, blocked
		for i, d := range r.dist {
			if !r.done[i] && d < best {
				u, best = i, d
			}
		}
		if u < 0 {
			return
		}
		r.done[u] = true
		city := data.CityID(u)
		if city == target {
			return
		}
		if r.b.Cities[u].Country && r.via[u] != noTrack {
			continue
		}
		for _, t := range r.b.Adj[u] {
			c := cost[t]
			if c == blocked {
				continue
			}
			o := r.b.Tracks[t].Other(city)
			if d := best + c; d < r.dist[o] {
				r.dist[o] = d
				r.via[o] = t
			}
		}
	}
}

// The heap router finds exactly the paths and distances of the scan, ties
// included (costs drawn from a few values, so that ties are common), from
// one or many sources, to a target or to every node.
func TestRouterMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, b := range testkit.Catalog().Boards() {
		heap, scan := newRouter(b), newRouter(b)
		cost := make([]float64, len(b.Tracks))
		for trial := range 400 {
			for i := range cost {
				switch rng.IntN(6) {
				case 0:
					cost[i] = blocked
				case 1:
					cost[i] = 0
				default:
					cost[i] = float64(rng.IntN(4)) + 0.5*float64(rng.IntN(2))
				}
			}
			n := len(b.Cities)
			sources := []data.CityID{data.CityID(rng.IntN(n))}
			for range rng.IntN(3) {
				sources = append(sources, data.CityID(rng.IntN(n)))
			}
			target := data.CityID(rng.IntN(n))
			if trial%4 == 0 {
				target = engine.NoCity
			}
			heap.search(sources, cost, target)
			searchByScan(scan, sources, cost, target)
			if !slices.Equal(heap.dist, scan.dist) || !slices.Equal(heap.via, scan.via) || !slices.Equal(heap.done, scan.done) {
				t.Fatalf("%s trial %d: heap and scan disagree (sources %v, target %d)", b.ID, trial, sources, target)
			}
		}
	}
}

// deficitAfter is drawSim.after as first written: the full count.
func deficitAfter(d *drawSim, h *engine.Hand, c engine.Card, def int) int {
	switch {
	case c == engine.Locomotive || c == engine.Locomotive4:
		return def - 1
	case c.IsColor() && h[c] < d.want[c]:
		return def - 1
	}
	h[c]++
	nd := d.deficit(h)
	h[c]--
	return nd
}

// The draw simulation's shortcuts (cards that cannot count, the gray
// tracks' part cached by spare count) give the full count's answers, for
// random track sets and hands on every edition.
func TestDrawSimShortcutsMatchFullCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for _, b := range testkit.Catalog().Boards() {
		v := scene(t, b.ID, 2)
		s := read(&v)
		for range 300 {
			var tracks []data.TrackID
			for range 1 + rng.IntN(8) {
				tracks = append(tracks, data.TrackID(rng.IntN(len(b.Tracks))))
			}
			var d drawSim
			d.load(s, tracks)
			var h engine.Hand
			for range rng.IntN(14) {
				h[engine.Card(rng.IntN(engine.NumCards))]++
			}
			var sc spareCache
			sc.clear()
			for range 12 {
				def := d.deficit(&h)
				if def == 0 {
					break
				}
				for c := range engine.Card(engine.NumCards) {
					want := deficitAfter(&d, &h, c, def)
					if got := d.after(&h, c, def); got != want {
						t.Fatalf("%s: after(%v) = %d, the full count %d", b.ID, c, got, want)
					}
					short := -1
					if got := d.afterCached(&h, c, def, &sc, &short); got != want {
						t.Fatalf("%s: afterCached(%v) = %d, the full count %d", b.ID, c, got, want)
					}
					checked++
				}
				c := engine.Card(rng.IntN(engine.NumCards))
				if d.changesSpares(&h, c) {
					sc.clear()
				}
				h[c]++
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d cards checked", checked)
	}
}

// TestPlannerBotsKeepNothingBetweenDecisions: a planning bot reuses its
// scratch space (and the expert's playouts one view) from decision to
// decision, across seats, boards and table sizes; its choices are those of
// a fresh bot handed a fresh view, in every position of games with 2 to 5
// seats on every edition.
func TestPlannerBotsKeepNothingBetweenDecisions(t *testing.T) {
	compared := 0
	reused := map[string]*plannerBot{"hard": newPlannerBot(hardOptions), "normal": newPlannerBot(normalOptions)}
	var view engine.PlayerView
	for _, id := range []string{"usa", "europe", "marklin"} {
		b := testkit.Board(t, id)
		for players := 2; players <= 5; players++ {
			levels := repeatLevel("hard", players)
			levels[players-1] = "normal"
			m, err := newMatch(b, "", levels, uint64(100+players))
			if err != nil {
				t.Fatal(err)
			}
			step := 0
			m.Before = func(d match.Decision) error {
				g, seat, legal := m.Game, d.Seat, d.Legal
				step++
				if (testing.Short() || raceEnabled) && step%5 != 0 {
					return nil
				}
				g.ViewInto(seat, &view)
				for _, level := range []string{"hard", "normal"} {
					fresh, _ := New(level, 0)
					want := fresh.Choose(g.View(seat), slices.Clone(legal))
					got := reused[level].choose(&view, legal)
					if !got.Equal(want) {
						return fmt.Errorf("%s, %d players, step %d, %s: %s reused, %s fresh", id, players, step, level,
							engine.FormatAction(b, got), engine.FormatAction(b, want))
					}
					compared++
				}
				return nil
			}
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if compared < 500 {
		t.Fatalf("only %d decisions compared", compared)
	}
}

// A claim set gives each track's claims in the order offered, whether the
// legal list keeps them together or scatters them.
func TestClaimSetGroupsClaimsByTrack(t *testing.T) {
	claim := func(t data.TrackID, locos int) engine.Action {
		return engine.Action{Kind: engine.ActClaim, Track: t, Locos: locos}
	}
	together := []engine.Action{engine.Draw(engine.DeckSlot), claim(4, 0), claim(4, 1), claim(2, 0), {Kind: engine.ActDrawTickets}}
	scattered := []engine.Action{claim(4, 0), claim(2, 0), engine.Draw(1), claim(4, 1)}
	var c claimSet
	for round := range 2 {
		for _, legal := range [][]engine.Action{together, scattered, nil} {
			c.reset(legal)
			if legal == nil {
				if c.len() != 0 || c.of(4) != nil {
					t.Fatalf("round %d: claims left over from the last list", round)
				}
				continue
			}
			if !slices.Equal(c.tracks, []data.TrackID{2, 4}) || len(c.of(2)) != 1 || len(c.of(7)) != 0 || c.of(-1) != nil {
				t.Fatalf("round %d: tracks %v, of(2) %v", round, c.tracks, c.of(2))
			}
			if got := c.of(4); len(got) != 2 || got[0].Locos != 0 || got[1].Locos != 1 {
				t.Fatalf("round %d: track 4's claims %+v", round, got)
			}
		}
	}
}

// The longest-path watch's shortcuts (the others' longest path read only
// from seats that could beat it; a gain: the seat already leads, cannot
// reach the leader, or adds a track away from its own) give the full
// search's answers for every track, in positions of games on USA and
// Europe.
func TestLongestGainShortcutsMatchTheSearch(t *testing.T) {
	checked := 0
	for _, id := range []string{"usa", "europe"} {
		for i, d := range collectDecisions(t, id) {
			if i%4 != 0 || d.view.Phase != engine.PhaseTurn {
				continue
			}
			s := read(&d.view)
			w := newLongestWatch(s)
			var search engine.PathSearch
			theirs := 0
			for o := range s.n {
				var ts []data.TrackID
				for tr, owner := range s.v.Owners {
					if int(owner) == o && o != s.seat {
						ts = append(ts, data.TrackID(tr))
					}
				}
				l, _ := search.Longest(s.b, ts)
				theirs = max(theirs, l)
			}
			if theirs != w.theirs {
				t.Fatalf("%s: the others' longest path %d, the search says %d", id, w.theirs, theirs)
			}
			for tr := range s.b.Tracks {
				with := append(slices.Clone(s.ownTracks), data.TrackID(tr))
				after, _ := search.Longest(s.b, with)
				has := func(l int) int {
					if l > 0 && l >= w.theirs {
						return 1
					}
					return 0
				}
				want := float64(w.bonus * (has(after) - has(w.mine)))
				if got := w.gain(data.TrackID(tr)); got != want {
					t.Fatalf("%s: gain of %s %v, the search says %v", id, s.b.TrackName(data.TrackID(tr)), got, want)
				}
				checked++
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d gains checked", checked)
	}
}
