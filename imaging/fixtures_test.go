package imaging

import (
	"math/rand/v2"
	"sync"

	"conductor/data"
	"conductor/engine"
)

// shared is one renderer for the tests that do not need a fresh one, so
// each board's art is built once per test run.
var shared = sync.OnceValue(NewRenderer)

// emptyScene is a board at the start of a game: nothing claimed.
func emptyScene(b *data.Board, players int) *Scene {
	s := &Scene{Board: b, Current: 0, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities)),
		Goods: make([][]int, len(b.Cities)), DeckSize: b.Rules.Cards.Total() - 5 - players*b.Rules.Hand,
		TicketDeckSize: len(b.Tickets) - 3*players}
	for i := range s.Owners {
		s.Owners[i] = -1
	}
	for i := range s.Stations {
		s.Stations[i] = -1
	}
	for i, c := range b.Cities {
		s.Goods[i] = append([]int(nil), c.GoodsStack...)
	}
	names := []string{"Alice", "Bob", "Chloé", "Dmitri", "Eve"}
	for i := range players {
		s.Players = append(s.Players, PlayerPanel{Name: names[i], Color: (i * 2) % 5, Trains: b.Rules.Trains,
			Stations: b.Rules.Stations, Cards: b.Rules.Hand, Tickets: 3, PassengersLeft: b.Rules.Passengers, Bot: i == players-1})
	}
	s.FaceUp = []engine.Card{engine.ColorCard(data.Red), engine.Locomotive, engine.ColorCard(data.Green),
		engine.ColorCard(data.White), engine.ColorCard(data.Yellow)}
	s.Status = "Alice's turn"
	return s
}

// playedScene grows each player's network from a random city for claims
// tracks in all, the way a game would, and fills the rest of the scene.
func playedScene(b *data.Board, players, claims int, seed uint64) *Scene {
	s := emptyScene(b, players)
	rng := rand.New(rand.NewPCG(seed, 7))
	reached := make([]map[data.CityID]bool, players)
	for p := range reached {
		reached[p] = map[data.CityID]bool{data.CityID(rng.IntN(b.NumCities())): true}
	}
	owns := func(p int, id data.TrackID) bool {
		for _, o := range b.Parallel(id) {
			if s.Owners[o] == int8(s.Players[p].Color) {
				return true
			}
		}
		return false
	}
	score := make([]int, players)
	for n := 0; n < claims; n++ {
		p := n % players
		var options []data.TrackID
		for c := range reached[p] {
			for _, id := range b.Adj[c] {
				if s.Owners[id] < 0 && !owns(p, id) && s.Players[p].Trains >= b.Tracks[id].Length {
					options = append(options, id)
				}
			}
		}
		if len(options) == 0 {
			for id := range b.Tracks {
				if s.Owners[id] < 0 && s.Players[p].Trains >= b.Tracks[id].Length {
					options = append(options, data.TrackID(id))
				}
			}
		}
		if len(options) == 0 {
			continue
		}
		// Sort for determinism (map iteration above is random).
		sortTracks(options)
		id := options[rng.IntN(len(options))]
		t := &b.Tracks[id]
		s.Owners[id] = int8(s.Players[p].Color)
		reached[p][t.A], reached[p][t.B] = true, true
		s.Players[p].Trains -= t.Length
		score[p] += b.RoutePoints(t.Length)
		s.LastMove = Highlight{Tracks: []data.TrackID{id},
			Text: s.Players[p].Name + " claimed " + b.TrackName(id) + " (" + t.Color.String() + ", " + itoa(t.Length) + ")."}
	}
	for p := range s.Players {
		s.Players[p].Score = score[p]
		s.Players[p].Cards = 3 + rng.IntN(9)
		s.Players[p].Tickets = 2 + rng.IntN(4)
	}
	if b.Rules.Stations > 0 {
		for p := range s.Players {
			for k := range 1 + p%2 {
				c := (p*7 + k*13 + 3) % b.NumCities()
				if s.Stations[c] < 0 {
					s.Stations[c] = int8(s.Players[p].Color)
					s.Players[p].Stations--
				}
			}
		}
	}
	if b.Rules.Passengers > 0 {
		for p := range s.Players {
			for k := range 2 {
				c := data.CityID((p*5 + k*11 + 1) % b.NumCities())
				s.Passengers = append(s.Passengers, PassengerMark{City: c, Seat: s.Players[p].Color})
				s.Players[p].PassengersLeft--
				if len(s.Goods[c]) > 0 {
					s.Goods[c] = s.Goods[c][1:]
				}
			}
		}
	}
	s.Current = claims % players
	s.Status = s.Players[s.Current].Name + "'s turn"
	s.DeckSize = 40
	s.DiscardSize = 17
	s.TicketDeckSize = 22
	s.FaceUp = []engine.Card{engine.ColorCard(data.Orange), engine.ColorCard(data.Blue), engine.Locomotive,
		engine.ColorCard(data.Pink), engine.ColorCard(data.Black)}
	if b.Rules.Passengers > 0 {
		s.FaceUp[4] = engine.Passenger
		s.FaceUp[1] = engine.Locomotive4
	}
	return s
}

func sortTracks(ts []data.TrackID) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j] < ts[j-1]; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// handOf is player p's private view of a played scene, with made-up cards
// and the board's first tickets that touch the player's network.
func handOf(s *Scene, p int) *HandScene {
	b := s.Board
	pl := s.Players[p]
	h := &HandScene{Board: b, Player: pl.Name, Color: pl.Color, Trains: pl.Trains, Stations: pl.Stations}
	for i, k := range []engine.Card{1, 2, 4, 7, 8, engine.Locomotive} {
		h.Cards[k] = (i*3+p)%4 + 1
	}
	reached := map[data.CityID]bool{}
	for id, o := range s.Owners {
		if int(o) == pl.Color {
			h.Owned = append(h.Owned, data.TrackID(id))
			reached[b.Tracks[id].A], reached[b.Tracks[id].B] = true, true
		}
	}
	for _, t := range b.Tickets {
		if len(h.Tickets) == 5 {
			break
		}
		if reached[t.A] || reached[t.B] {
			h.Tickets = append(h.Tickets, TicketLine{From: b.Cities[t.A].Name, To: b.Cities[t.B].Name, Points: t.Points,
				Completed: reached[t.A] && reached[t.B], Cities: []data.CityID{t.A, t.B}})
		}
	}
	return h
}

// finalOf is the score sheet of a played scene.
func finalOf(s *Scene) *FinalScene {
	fs := &FinalScene{Board: s.Board, Owners: s.Owners}
	best := -1
	for p := range s.Players {
		h := handOf(s, p)
		l := FinalLine{Name: s.Players[p].Name, Color: s.Players[p].Color, RoutePoints: s.Players[p].Score,
			StationPoints: 4 * s.Players[p].Stations}
		for _, t := range h.Tickets {
			if t.Completed {
				l.TicketsWon = append(l.TicketsWon, t)
			} else {
				l.TicketsLost = append(l.TicketsLost, t)
			}
		}
		l.LongestPath = longestWalk(s.Board, h.Owned)
		l.Total = l.RoutePoints + sumPoints(l.TicketsWon) - sumPoints(l.TicketsLost) + l.StationPoints
		fs.Players = append(fs.Players, l)
		if best < 0 || l.Total > fs.Players[best].Total {
			best = p
		}
	}
	if s.Board.Rules.LongestPathBonus > 0 {
		fs.Players[best].Bonuses = []Bonus{{"European Express", s.Board.Rules.LongestPathBonus}}
		fs.Players[best].Total += s.Board.Rules.LongestPathBonus
	}
	fs.Players[best].Winner = true
	return fs
}

// longestWalk is a greedy walk over owned tracks, a stand-in for the
// engine's longest path.
func longestWalk(b *data.Board, owned []data.TrackID) []data.TrackID {
	var best []data.TrackID
	for _, start := range owned {
		used := map[data.TrackID]bool{start: true}
		path := []data.TrackID{start}
		at := b.Tracks[start].B
		for {
			next := data.TrackID(-1)
			for _, id := range owned {
				if !used[id] && (b.Tracks[id].A == at || b.Tracks[id].B == at) {
					next = id
					break
				}
			}
			if next < 0 {
				break
			}
			used[next] = true
			path = append(path, next)
			at = b.Tracks[next].Other(at)
		}
		if len(path) > len(best) {
			best = path
		}
	}
	return best
}
