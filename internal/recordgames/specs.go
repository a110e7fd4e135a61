package main

import (
	"conductor/engine"
)

// specs are the records: a bot game for every edition and variant, then
// games steered towards rule corners.
var specs = []spec{
	{name: "usa-base-bots", board: "usa", variant: "base", levels: []string{"easy", "hard"}, seed: 1,
		about: []string{"USA, base tickets: two bots play a whole game."}},
	{name: "usa-1910-bots", board: "usa", variant: "1910", levels: []string{"normal", "hard", "easy", "hard", "normal"}, seed: 1,
		about: []string{"USA, 1910 tickets: five bots play a whole game."}},
	{name: "europe-classic-bots", board: "europe", variant: "classic", levels: []string{"hard", "normal", "easy"}, seed: 1,
		about: []string{"Europe, classic rules: three bots play a whole game."}},
	{name: "europe-1912-bots", board: "europe", variant: "1912", levels: []string{"normal", "hard", "hard", "easy"}, seed: 1,
		about: []string{"Europe 1912: four bots play a whole game."}},
	{name: "europe-mega-bots", board: "europe", variant: "mega", levels: []string{"hard", "easy", "normal", "hard", "normal"}, seed: 1,
		about: []string{"Mega Europe: five bots play a whole game (two setup steps: long tickets, then regular ones)."}},
	{name: "europe-bigcities-bots", board: "europe", variant: "bigcities", levels: []string{"normal", "hard"}, seed: 1,
		about: []string{"Big Cities of Europe: two bots play a whole game (only big-city tickets, four drawn)."}},
	{name: "marklin-bots", board: "marklin", variant: "standard", levels: []string{"hard", "normal", "easy", "hard"}, seed: 1,
		about: []string{"Märklin: four bots play a whole game."}},

	{name: "europe-tunnels", board: "europe", variant: "classic", levels: []string{"normal", "hard", "normal"}, seed: 100,
		steer: tunnels, want: []string{"tunnel-free", "tunnel-paid", "tunnel-cancelled"},
		about: []string{"Europe, classic rules: tunnels. The bots are steered to claim tunnels",
			"whenever they can, and to give up the first that asks for extra cards:",
			"a tunnel claimed with nothing extra, one paid, one given up."}},
	{name: "europe-ferries", board: "europe", variant: "classic", levels: []string{"hard", "normal"}, seed: 200,
		steer: ferries, want: []string{"ferry"},
		about: []string{"Europe, classic rules: ferries. The bots are steered to claim ferries",
			"whenever they can, paying their locomotive symbols."}},
	{name: "europe-stations", board: "europe", variant: "1912", levels: []string{"hard", "normal", "hard", "normal"}, seed: 300,
		steer: stations, want: []string{"station", "station-borrowed"},
		about: []string{"Europe 1912: stations. The bots are steered to build stations on",
			"their tickets' cities next to opponents' tracks, and the final count",
			"borrows an opponent's track through one."}},
	{name: "marklin-passengers", board: "marklin", variant: "standard", levels: []string{"normal", "hard", "normal"}, seed: 400,
		steer: passengers, want: []string{"passenger-placed", "passenger-moved", "locomotive-4", "long-tickets"},
		about: []string{"Märklin: passengers. The bots are steered to place a passenger with",
			"every claim that allows one and to move passengers as soon as they can;",
			"the game also pays with +4 locomotives and mixes long tickets."}},
	{name: "usa-tie", board: "usa", variant: "base", levels: []string{"hard", "hard", "normal"}, seed: 500,
		want: []string{"tie"},
		about: []string{"USA: a tie. The highest totals are equal and the tie-breaks",
			"(most tickets completed, then the longest path) decide the winner."}},
	{name: "europe-tie", board: "europe", variant: "classic", levels: []string{"hard", "normal", "hard"}, seed: 600,
		want: []string{"tie"},
		about: []string{"Europe: a tie. The highest totals are equal and the tie-breaks",
			"(most tickets completed, fewest stations built, the European Express) decide."}},
}

// tunnels claims a tunnel whenever one can be claimed (a few times a game,
// so that a seat does not try the same tunnel forever) and gives up the
// first tunnel that asks for extra cards.
func tunnels() steerFunc {
	tries, cancelled := 0, false
	return func(g *engine.Game, seat int, legal []engine.Action, chosen engine.Action) engine.Action {
		b := g.Board()
		if _, _, extra, ok := g.TunnelReveal(); ok {
			if extra > 0 && !cancelled {
				cancelled = true
				return engine.Action{Kind: engine.ActTunnelCancel}
			}
			return chosen
		}
		if tries >= 6 {
			return chosen
		}
		for _, a := range legal {
			if a.Kind == engine.ActClaim && b.Tracks[a.Track].Tunnel {
				tries++
				return a
			}
		}
		return chosen
	}
}

// ferries claims a ferry whenever one can be claimed.
func ferries() steerFunc {
	return func(g *engine.Game, seat int, legal []engine.Action, chosen engine.Action) engine.Action {
		for _, a := range legal {
			if a.Kind == engine.ActClaim && g.Board().Tracks[a.Track].Locomotives > 0 {
				return a
			}
		}
		return chosen
	}
}

// stations builds a station, once the game is under way, on a city of one
// of the seat's unfinished tickets that an opponent's track reaches.
func stations() steerFunc {
	return func(g *engine.Game, seat int, legal []engine.Action, chosen engine.Action) engine.Action {
		if g.Turn() < 8*g.NumPlayers() {
			return chosen
		}
		b := g.Board()
		v := g.View(seat)
		for _, a := range legal {
			if a.Kind != engine.ActStation {
				continue
			}
			for _, tk := range v.Tickets {
				t := &b.Tickets[tk.Ticket]
				if tk.Completed || (t.A != a.City && t.B != a.City) {
					continue
				}
				for _, id := range b.Adj[a.City] {
					if o := g.Owner(id); o >= 0 && o != seat {
						return a
					}
				}
			}
		}
		return chosen
	}
}

// passengers places a passenger with every claim that allows one and moves
// passengers as soon as it can.
func passengers() steerFunc {
	return func(g *engine.Game, seat int, legal []engine.Action, chosen engine.Action) engine.Action {
		for _, a := range legal {
			if a.Kind == engine.ActMovePassenger {
				return a
			}
		}
		if chosen.Kind == engine.ActClaim && !chosen.Passenger {
			for _, a := range legal {
				if a.Kind == engine.ActClaim && a.Passenger && a.Track == chosen.Track && a.Color == chosen.Color &&
					a.Locos == chosen.Locos && a.Locos4 == chosen.Locos4 {
					return a
				}
			}
		}
		return chosen
	}
}
