package ai

import (
	"conductor/data"
	"conductor/engine"
)

// situation is a bot's reading of its view: who holds what, which tracks it
// may still claim, its tickets, and how long the game will probably last.
// Everything here comes from the engine.PlayerView; nothing else is known.
type situation struct {
	v     *engine.PlayerView
	b     *data.Board
	seat  int
	n     int // players
	hand  engine.Hand
	rules *data.Rules

	own       []bool // by track: held by this seat
	claimable []bool // by track: this seat may claim it (holders and parallel rule; cards and trains aside)
	oppHeld   []bool // by track: held by an opponent
	ownTracks []data.TrackID
	net       engine.Connectivity // this seat's network

	trains   int // this seat's trains left
	stations int // this seat's stations left

	tickets []goal // held tickets, completed or not

	// turnsLeft estimates the turns this seat still plays, this one included.
	turnsLeft float64

	w *work // the bot's scratch space
}

// goal is a ticket as the planners see it: two places to join and its value.
type goal struct {
	ticket data.TicketID
	a, b   data.CityID
	points int
	done   bool
}

// trainsPerTurn is the prior rate at which a player lays trains, measured in
// bot games (claims and draws together); observed rates pull away from it.
const trainsPerTurn = 1.15

// read builds the situation from a view, with a scratch space of its own.
func read(v *engine.PlayerView) *situation {
	return newWork().begin(v)
}

// load fills s from v, reusing s's buffers.
func (s *situation) load(v *engine.PlayerView) {
	b := v.Board
	w := s.w
	*s = situation{v: v, b: b, seat: v.Seat, n: len(v.Players), hand: v.Hand, rules: &b.Rules, w: w,
		own: s.own, claimable: s.claimable, oppHeld: s.oppHeld, ownTracks: s.ownTracks[:0],
		net: s.net, tickets: s.tickets[:0]}
	s.own = grow(s.own, len(b.Tracks))
	s.claimable = grow(s.claimable, len(b.Tracks))
	s.oppHeld = grow(s.oppHeld, len(b.Tracks))
	clear(s.own)
	clear(s.oppHeld)
	for t, o := range v.Owners {
		switch {
		case int(o) == s.seat:
			s.own[t] = true
			s.ownTracks = append(s.ownTracks, data.TrackID(t))
		case o >= 0:
			s.oppHeld[t] = true
		}
	}
	for t := range b.Tracks {
		s.claimable[t] = s.mayClaim(data.TrackID(t))
	}
	s.net.Reset(b)
	s.net.AddOwned(s.own)
	me := v.Players[s.seat]
	s.trains, s.stations = me.Trains, me.Stations
	for _, ts := range v.Tickets {
		t := &b.Tickets[ts.Ticket]
		s.tickets = append(s.tickets, goal{ticket: ts.Ticket, a: t.A, b: t.B, points: t.Points, done: ts.Completed})
	}
	s.turnsLeft = s.estimateTurnsLeft()
}

// mayClaim applies the holder rules of engine.claimFree: the track is free,
// the seat holds none of its parallel tracks, and with 2 or 3 players nobody
// does.
func (s *situation) mayClaim(t data.TrackID) bool {
	if s.v.Owners[t] >= 0 {
		return false
	}
	for _, o := range s.b.Parallel(t) {
		if o == t || s.v.Owners[o] < 0 {
			continue
		}
		if int(s.v.Owners[o]) == s.seat || s.n <= 3 {
			return false
		}
	}
	return true
}

// turnsPlayed counts the turns a seat has completed since the game began.
func (s *situation) turnsPlayed(seat int) int {
	t := s.v.Turn
	if t <= seat {
		return 0
	}
	return (t - seat + s.n - 1) / s.n
}

// estimateTurnsLeft guesses how many more turns this seat plays: the game
// ends a round after some player's trains fall to EndTrains. Each player
// lays trains at about their observed rate, but a player holding many cards
// can lay them much faster: count both and take the sooner.
func (s *situation) estimateTurnsLeft() float64 {
	if s.v.LastRound {
		return 1
	}
	const priorTurns = 8
	best := 1e9
	for p, pl := range s.v.Players {
		toLay := float64(pl.Trains - s.rules.EndTrains)
		used := float64(s.rules.Trains - pl.Trains)
		rate := (used + trainsPerTurn*priorTurns) / (float64(s.turnsPlayed(p)) + priorTurns)
		left := toLay / rate
		if p != s.seat {
			// Claims of about 3.5 trains, and draws for what the hand lacks.
			rush := toLay/3.5 + max(0, toLay-0.8*float64(pl.Cards))/cardsPerTurn
			left = min(left, 1.15*rush)
		}
		if p < s.seat {
			// An earlier seat ends the game sooner relative to this seat's turns.
			left -= 0.5
		}
		best = min(best, left)
	}
	return max(best, 0) + 1
}

// crowding is the slack a plan loses to the seats beyond two (options.crowd).
func (s *situation) crowding() float64 {
	return s.w.crowd * float64(max(0, s.n-2))
}

// minOpponentTrains is the fewest trains any opponent has left.
func (s *situation) minOpponentTrains() int {
	m := 1 << 30
	for p, pl := range s.v.Players {
		if p != s.seat {
			m = min(m, pl.Trains)
		}
	}
	return m
}

// incomplete returns the held tickets not yet completed, in a scratch
// buffer of the decision (the next call overwrites it).
func (s *situation) incomplete() []goal {
	out := s.w.goals[:0]
	for _, g := range s.tickets {
		if !g.done {
			out = append(out, g)
		}
	}
	s.w.goals = out
	return out
}

// goalOf turns a ticket into a goal, completed when the network joins it.
func (s *situation) goalOf(id data.TicketID) goal {
	t := &s.b.Tickets[id]
	return goal{ticket: id, a: t.A, b: t.B, points: t.Points, done: s.net.Connected(t.A, t.B)}
}

// hasStations reports whether this edition has stations and the seat has one left.
func (s *situation) hasStations() bool { return s.rules.Stations > 0 && s.stations > 0 }

// stationCost is the number of cards this seat's next station costs.
func (s *situation) stationCost() int {
	built := s.rules.Stations - s.stations
	if built < 0 || built >= len(s.rules.StationCosts) {
		return 0
	}
	return s.rules.StationCosts[built]
}
