package ai

import (
	"math"

	"conductor/data"
	"conductor/engine"
)

// ticketReader infers from public play which tickets the other seats are
// likely to hold: a player builds toward its tickets, so a ticket whose
// cities its tracks have brought much closer together is likelier held
// than one its network ignores. The search deals the other seats' tickets
// by these odds (engine.DeterminizeWeighted) instead of uniformly, so its
// playouts see the opponents racing for what they really need.
type ticketReader struct {
	b      *data.Board
	router *router
	bare   []float64 // per ticket: its shortest path on the empty board
	cost   []float64
	// odds[seat][ticket], filled by read.
	odds [][]float64
	// demand, filled by read: by track, how many of the other seats'
	// tickets want it, by the odds (each seat's held tickets shared out
	// over the tickets by their odds, each wanting the open tracks of its
	// cheapest path for that seat).
	demand []float64
	path   []data.TrackID
	paths  []data.TrackID // a seat's tickets' paths, end to end
	ends   []int          // by ticket: where its path ends in paths
}

// inferenceSharpness is β in odds = exp(β·progress), progress being the
// share of a ticket's shortest path the seat's own tracks have covered
// (negative when others' tracks have made it longer), per board.
// TestTicketOdds logs how well β = 0, 2, 4, 6, 8 fit the tickets really
// held in hard-vs-hard games: USA fits best at 4–6, Märklin at 8, Europe at
// 6 (8 a little worse, −2.00 against −1.89 nats), where 8 won more
// self-play games on the development seed (61.5% against 59.5% at 5).
// Other boards get defaultSharpness.
var inferenceSharpness = map[string]float64{"usa": 5, "europe": 8, "marklin": 8}

const defaultSharpness = 5.0

// sharpness is the β of board b.
func sharpness(b *data.Board) float64 {
	if beta, ok := inferenceSharpness[b.ID]; ok {
		return beta
	}
	return defaultSharpness
}

func newTicketReader(b *data.Board) *ticketReader {
	r := &ticketReader{b: b, router: newRouter(b), bare: make([]float64, len(b.Tickets)), cost: make([]float64, len(b.Tracks))}
	for i := range b.Tracks {
		r.cost[i] = float64(b.Tracks[i].Length)
	}
	for i := range b.Tickets {
		tk := &b.Tickets[i]
		r.bare[i], _ = r.router.between(tk.A, tk.B, r.cost, nil)
	}
	return r
}

// read fills the odds of every seat but v.Seat for every ticket, from the
// tracks claimed in v, and returns them as engine odds.
func (r *ticketReader) read(v *engine.PlayerView, beta float64) engine.TicketOdds {
	n := len(v.Players)
	for len(r.odds) < n {
		r.odds = append(r.odds, make([]float64, len(r.b.Tickets)))
	}
	r.demand = grow(r.demand, len(r.b.Tracks))
	clear(r.demand)
	r.ends = grow(r.ends, len(r.b.Tickets))
	for s := range n {
		if s == v.Seat {
			continue
		}
		r.seatCosts(v.Owners, s, len(v.Players))
		r.paths = r.paths[:0]
		total := 0.0
		for i := range r.b.Tickets {
			r.odds[s][i] = math.Exp(beta * r.progress(i))
			total += r.odds[s][i]
			for _, t := range r.path {
				if r.cost[t] > 0 {
					r.paths = append(r.paths, t)
				}
			}
			r.ends[i] = len(r.paths)
		}
		if total <= 0 {
			continue
		}
		held := float64(v.Players[s].Tickets)
		start := 0
		for i := range r.b.Tickets {
			p := held * r.odds[s][i] / total
			for _, t := range r.paths[start:r.ends[i]] {
				r.demand[t] += p
			}
			start = r.ends[i]
		}
	}
	return func(seat int, t data.TicketID) float64 { return r.odds[seat][t] }
}

// seatCosts prices the tracks for seat s: its own are free, the others'
// are blocked, the open ones cost their length.
// At 2–3 players a track whose parallel another seat holds is closed.
func (r *ticketReader) seatCosts(owners []int8, s, players int) {
	closes := players <= 3
	for t := range r.b.Tracks {
		switch o := owners[t]; {
		case int(o) == s:
			r.cost[t] = 0
		case o >= 0:
			r.cost[t] = blocked
		default:
			r.cost[t] = float64(r.b.Tracks[t].Length)
			if closes {
				for _, u := range r.b.Groups[r.b.Tracks[t].Group] {
					if owners[u] >= 0 && int(owners[u]) != s {
						r.cost[t] = blocked
					}
				}
			}
		}
	}
}

// progress is the share of ticket i's shortest path already covered at
// the current costs: 1 when connected, 0 when untouched, −0.5 when it can
// no longer be connected (held tickets do fail, but seldom by choice).
func (r *ticketReader) progress(i int) float64 {
	tk := &r.b.Tickets[i]
	left, path := r.router.between(tk.A, tk.B, r.cost, r.path)
	r.path = path
	bare := r.bare[i]
	if left == blocked || bare == blocked || bare == 0 {
		return -0.5
	}
	return max(-0.5, (bare-left)/bare)
}
