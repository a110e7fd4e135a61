package commands

import (
	"math"
	"slices"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
)

// Why a hint's move: one line worked out from the asker's own view alone
// (never the other hands, tickets or decks), for the choices beyond a
// turn's move: the tickets to keep, how many long ones to ask for, a
// tunnel's extra cards and the colour a claim is paid with.

// routes is a reading of a view for the reasons: for each ticket the seat
// holds, the fewest trains still to lay to join it (over its own tracks
// and the free ones) and those free tracks.
type routes struct {
	v    *engine.PlayerView
	cost []float64 // by track: 0 own, its length free, +Inf taken
}

func readRoutes(v *engine.PlayerView) *routes {
	b := v.Board
	r := &routes{v: v, cost: make([]float64, len(b.Tracks))}
	for t := range b.Tracks {
		switch o := int(v.Owners[t]); {
		case o == v.Seat:
			r.cost[t] = 0
		case o >= 0:
			r.cost[t] = math.Inf(1)
		default:
			r.cost[t] = float64(b.Tracks[t].Length)
			// With 2 or 3 players a double route is closed once one is taken.
			if len(v.Players) <= 3 {
				for _, u := range b.Parallel(data.TrackID(t)) {
					if v.Owners[u] >= 0 {
						r.cost[t] = math.Inf(1)
					}
				}
			}
		}
	}
	return r
}

// path returns the fewest trains to join a and z and the free tracks of
// such a path (Dijkstra over the board; Märklin countries end a path);
// +Inf and nil when they cannot be joined.
func (r *routes) path(a, z data.CityID) (float64, []data.TrackID) {
	d, all := r.fullPath(a, z)
	var free []data.TrackID
	for _, t := range all {
		if r.cost[t] > 0 {
			free = append(free, t)
		}
	}
	return d, free
}

// fullPath is path with every track of the path, those costing nothing too.
func (r *routes) fullPath(a, z data.CityID) (float64, []data.TrackID) {
	b := r.v.Board
	n := len(b.Cities)
	dist := make([]float64, n)
	via := make([]data.TrackID, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i], via[i] = math.Inf(1), -1
	}
	dist[a] = 0
	for {
		u, best := -1, math.Inf(1)
		for i, d := range dist {
			if !done[i] && d < best {
				u, best = i, d
			}
		}
		if u < 0 || data.CityID(u) == z {
			break
		}
		done[u] = true
		if b.Cities[u].Country && u != int(a) {
			continue
		}
		for _, t := range b.Adj[u] {
			o := b.Tracks[t].Other(data.CityID(u))
			if d := best + r.cost[t]; d < dist[o] {
				dist[o], via[o] = d, t
			}
		}
	}
	if math.IsInf(dist[z], 1) {
		return dist[z], nil
	}
	var all []data.TrackID
	for c := z; via[c] >= 0; c = b.Tracks[via[c]].Other(c) {
		all = append(all, via[c])
	}
	return dist[z], all
}

// needed lists, for the tickets the seat holds and has not joined, the free
// tracks of their cheapest paths but skip.
func (r *routes) needed(skip data.TrackID) []data.TrackID {
	var out []data.TrackID
	for _, ts := range r.v.Tickets {
		if ts.Completed {
			continue
		}
		tk := &r.v.Board.Tickets[ts.Ticket]
		_, free := r.path(tk.A, tk.B)
		for _, t := range free {
			if t != skip && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func ticketName(b *data.Board, id data.TicketID) string {
	tk := &b.Tickets[id]
	return b.Cities[tk.A].Name + "–" + b.Cities[tk.B].Name
}

// keepReason says why keep a's tickets: one is joined already, one left
// out costs too many trains, or they share their way.
func keepReason(loc string, v *engine.PlayerView, a engine.Action) string {
	b := v.Board
	r := readRoutes(v)
	var kept, left []data.TicketID
	for i, id := range v.Pending {
		if a.Keep&(1<<uint(i)) != 0 {
			kept = append(kept, id)
		} else {
			left = append(left, id)
		}
	}
	trains := func(id data.TicketID) float64 {
		tk := &b.Tickets[id]
		d, _ := r.path(tk.A, tk.B)
		return d
	}
	for _, id := range kept {
		if trains(id) == 0 {
			return present.T(loc, "hint.why.keep_done", "ticket", ticketName(b, id))
		}
	}
	// The ticket left out that costs most.
	worst, worstTrains := data.TicketID(-1), -1.0
	for _, id := range left {
		if d := trains(id); d > worstTrains {
			worst, worstTrains = id, d
		}
	}
	if worst >= 0 {
		if math.IsInf(worstTrains, 1) {
			return present.T(loc, "hint.why.keep_blocked", "ticket", ticketName(b, worst))
		}
		return present.T(loc, "hint.why.keep_dear", "ticket", ticketName(b, worst), "trains", int(worstTrains))
	}
	// Everything kept: do two of them share tracks?
	var paths [][]data.TrackID
	for _, id := range kept {
		tk := &b.Tickets[id]
		_, free := r.path(tk.A, tk.B)
		paths = append(paths, free)
	}
	for i := range kept {
		for j := i + 1; j < len(kept); j++ {
			for _, t := range paths[i] {
				if slices.Contains(paths[j], t) {
					return present.T(loc, "hint.why.keep_share", "a", ticketName(b, kept[i]), "b", ticketName(b, kept[j]))
				}
			}
		}
	}
	return present.T(loc, "hint.why.keep")
}

// mixReason says why ask for a draw's number of long tickets (Märklin).
func mixReason(loc string, v *engine.PlayerView, a engine.Action, n int) string {
	if 2*a.Long > n {
		return present.T(loc, "hint.why.mix_long", "trains", v.Players[v.Seat].Trains)
	}
	return present.T(loc, "hint.why.mix_short")
}

// tunnelReason says why pay a tunnel's extra cards, or give it up.
func tunnelReason(loc string, v *engine.PlayerView, a engine.Action) string {
	b := v.Board
	if v.Tunnel == nil {
		return present.T(loc, "hint.why.other")
	}
	t := v.Tunnel.Track
	points := b.RoutePoints(b.Tracks[t].Length)
	if a.Kind == engine.ActTunnelCancel {
		return present.T(loc, "hint.why.tunnel_dear", "extra", v.Tunnel.Extra, "points", points)
	}
	r := readRoutes(v)
	for _, ts := range v.Tickets {
		if ts.Completed {
			continue
		}
		tk := &b.Tickets[ts.Ticket]
		if _, free := r.path(tk.A, tk.B); slices.Contains(free, t) {
			return present.T(loc, "hint.why.tunnel_needed", "ticket", ticketName(b, ts.Ticket))
		}
	}
	return present.T(loc, "hint.why.tunnel_worth", "points", points, "extra", v.Tunnel.Extra)
}

// stationReason says what a station lends: another seat's route at its
// city on the cheapest way to join a ticket the seat holds.
func stationReason(loc string, v *engine.PlayerView, a engine.Action) string {
	b := v.Board
	r := readRoutes(v)
	lent := map[data.TrackID]bool{}
	for _, t := range b.Adj[a.City] {
		if o := int(v.Owners[t]); o >= 0 && o != v.Seat {
			r.cost[t] = 0 // a station lends it
			lent[t] = true
		}
	}
	for _, ts := range v.Tickets {
		if ts.Completed {
			continue
		}
		tk := &b.Tickets[ts.Ticket]
		_, all := r.fullPath(tk.A, tk.B)
		for _, t := range all {
			if lent[t] {
				return present.T(loc, "hint.why.station", "route", present.RouteLabel(loc, b, t), "ticket", ticketName(b, ts.Ticket))
			}
		}
	}
	return present.T(loc, "hint.why.station_points")
}

// paymentReason says why pay a claim or station with a's colour, against
// the other ways offered: it keeps a colour a route the seat's tickets
// still need wants, or it spends the colour they need least.
func paymentReason(loc string, v *engine.PlayerView, a engine.Action, others []engine.Action) string {
	b := v.Board
	skip := data.TrackID(-1)
	if a.Kind == engine.ActClaim {
		skip = a.Track
	}
	need := readRoutes(v).needed(skip)
	for _, o := range others {
		if o.Color == a.Color || o.Color == data.Gray {
			continue
		}
		for _, t := range need {
			if b.Tracks[t].Color == o.Color {
				return present.T(loc, "hint.why.pay_keep", "colour", present.CardName(loc, engine.ColorCard(o.Color)),
					"route", present.RouteLabel(loc, b, t))
			}
		}
	}
	if a.Color != data.Gray {
		return present.T(loc, "hint.why.pay_spare", "colour", present.CardName(loc, engine.ColorCard(a.Color)))
	}
	return present.T(loc, "hint.why.other")
}

// paidCards lists the cards payment a (a claim or a station of the view's
// seat) spends, read from the view.
func paidCards(v *engine.PlayerView, a engine.Action) []engine.Card {
	b := v.Board
	length := 0
	switch a.Kind {
	case engine.ActClaim:
		length = b.Tracks[a.Track].Length
	case engine.ActStation:
		r := &b.Rules
		if built := r.Stations - v.Players[v.Seat].Stations; built >= 0 && built < len(r.StationCosts) {
			length = max(r.StationCosts[built], 1)
		}
	}
	return cardsOf(a, length)
}

// mixSize is how many tickets a mix choice deals in the view's position:
// the setup step's, or the variant's draw.
func mixSize(v *engine.PlayerView) int {
	vr, ok := v.Board.Variant(v.Variant)
	if !ok {
		return 0
	}
	if v.Phase == engine.PhaseSetup {
		for _, st := range vr.Setup {
			if st.Mix > 0 {
				return st.Mix
			}
		}
	}
	return vr.Draw
}
