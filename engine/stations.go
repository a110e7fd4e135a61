package engine

import (
	"slices"

	"conductor/data"
)

// StationChoice is the outcome of ChooseStations.
type StationChoice struct {
	// Borrowed lists the opponent tracks the stations use, lowest id first.
	Borrowed []data.TrackID
	// TicketPoints is the sum of the tickets' values, added when completed
	// and subtracted when not, with the borrowed tracks in the network.
	TicketPoints int
	// Completed tells, ticket by ticket, whether it is completed.
	Completed []bool
}

// ChooseStations picks, for a player's built stations (Europe), the opponent
// tracks they use. Each station lends its owner exactly one track claimed by
// an opponent and touching the station's city, the same track for every
// ticket. own lists the player's tracks, opponent marks (by TrackID) every
// track another player holds. The choice of all stations together maximises
// the ticket points; among equal choices it borrows the fewest tracks, then
// the lowest track ids, so the result never depends on search order.
func ChooseStations(b *data.Board, own []data.TrackID, opponent []bool, stations []data.CityID, tickets []HeldTicket) StationChoice {
	var s stationSearch
	s.base.Reset(b)
	for _, t := range own {
		s.base.Add(t)
	}
	return s.choose(b, own, opponent, stations, tickets)
}

type stationSearch struct {
	base    Connectivity
	levels  []Connectivity // levels[i]: base plus the picks of stations before i
	options [][]data.TrackID
	tickets []HeldTicket
	own     []bool // by TrackID: the player's own tracks

	pick      []data.TrackID // current pick per station, -1 for none
	best      []data.TrackID // sorted distinct picks of the best choice
	bestScore int
	found     bool
	candidate []data.TrackID
}

// noTrack marks a station that borrows nothing.
const noTrack data.TrackID = -1

// choose runs the search; s.base must already hold the player's own tracks.
func (s *stationSearch) choose(b *data.Board, own []data.TrackID, opponent []bool, stations []data.CityID, tickets []HeldTicket) StationChoice {
	s.tickets = tickets
	s.options = s.options[:0]
	if ticketPoints(&s.base, tickets) < maxTicketPoints(tickets) {
		s.own = grow(s.own, len(b.Tracks))
		clear(s.own)
		for _, t := range own {
			s.own[t] = true
		}
		for _, city := range stations {
			if opts := s.useful(b, city, opponent); len(opts) > 0 {
				s.options = append(s.options, opts)
			}
		}
	}
	s.found = false
	s.best = s.best[:0]
	if len(s.options) == 0 {
		s.bestScore = ticketPoints(&s.base, tickets)
	} else {
		if cap(s.levels) < len(s.options)+1 {
			s.levels = make([]Connectivity, len(s.options)+1)
		}
		s.levels = s.levels[:len(s.options)+1]
		s.levels[0].CopyFrom(&s.base)
		s.pick = grow(s.pick, len(s.options))
		s.explore(0)
	}
	choice := StationChoice{Borrowed: slices.Clone(s.best), TicketPoints: s.bestScore, Completed: make([]bool, len(tickets))}
	final := &s.base
	if len(s.options) > 0 {
		final = &s.levels[0]
		final.CopyFrom(&s.base)
		for _, t := range s.best {
			final.Add(t)
		}
	}
	for i, tk := range tickets {
		choice.Completed[i] = final.Connected(tk.A, tk.B)
	}
	return choice
}

// useful lists the opponent tracks at city that could change the player's
// network: one per parallel group (the lowest id; parallel tracks join the
// same places) and none whose ends the player's own tracks already join.
func (s *stationSearch) useful(b *data.Board, city data.CityID, opponent []bool) []data.TrackID {
	if int(city) < 0 || int(city) >= len(b.Adj) {
		return nil
	}
	var opts []data.TrackID
	for _, t := range b.Adj[city] { // sorted by id
		if int(t) >= len(opponent) || !opponent[t] || s.own[t] {
			continue
		}
		tr := &b.Tracks[t]
		if s.base.Connected(tr.A, tr.B) ||
			slices.ContainsFunc(opts, func(o data.TrackID) bool { return b.Tracks[o].Group == tr.Group }) {
			continue
		}
		opts = append(opts, t)
	}
	return opts
}

// explore tries every option of station i and the stations after it.
func (s *stationSearch) explore(i int) {
	if i == len(s.options) {
		s.consider(ticketPoints(&s.levels[i], s.tickets))
		return
	}
	s.pick[i] = noTrack
	s.levels[i+1].CopyFrom(&s.levels[i])
	s.explore(i + 1)
	for _, t := range s.options[i] {
		s.pick[i] = t
		s.levels[i+1].CopyFrom(&s.levels[i])
		s.levels[i+1].Add(t)
		s.explore(i + 1)
	}
}

// consider compares the current picks, scoring points, with the best so far.
func (s *stationSearch) consider(points int) {
	s.candidate = s.candidate[:0]
	for _, t := range s.pick {
		if t != noTrack && !slices.Contains(s.candidate, t) {
			s.candidate = append(s.candidate, t)
		}
	}
	slices.Sort(s.candidate)
	better := !s.found || points > s.bestScore ||
		points == s.bestScore && (len(s.candidate) < len(s.best) ||
			len(s.candidate) == len(s.best) && slices.Compare(s.candidate, s.best) < 0)
	if better {
		s.found = true
		s.bestScore = points
		s.best = append(s.best[:0], s.candidate...)
	}
}

// ticketPoints adds completed tickets' values and subtracts the others'.
func ticketPoints(net *Connectivity, tickets []HeldTicket) int {
	sum := 0
	for _, tk := range tickets {
		if net.Connected(tk.A, tk.B) {
			sum += tk.Points
		} else {
			sum -= tk.Points
		}
	}
	return sum
}

// maxTicketPoints is the score of completing every ticket.
func maxTicketPoints(tickets []HeldTicket) int {
	sum := 0
	for _, tk := range tickets {
		sum += tk.Points
	}
	return sum
}
