package recorded

import (
	"sort"

	"conductor/engine"
)

// corners are the rule corners a record can promise to show, with what
// each means. The generator lists those a game shows; the replay checks
// they still happen, so a record cannot quietly stop covering one.
var corners = map[string]string{
	"flush":            "three locomotives face up, the display discarded",
	"reshuffle":        "the discards shuffled into a new deck",
	"tickets-drawn":    "destination tickets drawn during the game",
	"long-tickets":     "long tickets asked for in a ticket mix (Märklin)",
	"tunnel-free":      "a tunnel whose revealed cards ask nothing extra",
	"tunnel-paid":      "a tunnel's extra cards paid",
	"tunnel-cancelled": "a tunnel given up after the reveal",
	"ferry":            "a ferry claimed with its locomotives",
	"locomotive-4":     "a claim paid with +4 locomotives (Märklin)",
	"double-route":     "both tracks of a double route claimed",
	"station":          "a station built",
	"station-borrowed": "a station borrowing an opponent's track at the final count",
	"passenger-placed": "a passenger placed on a claimed route's city (Märklin)",
	"passenger-moved":  "a passenger moved, collecting goods (Märklin)",
	"last-round":       "the last round announced",
	"pass":             "a player who could do nothing passed",
	"ticket-failed":    "a ticket not completed, counted against its holder",
	"bonus-shared":     "a bonus shared by players tied for it",
	"tie":              "the highest totals tied, the tie-breaks deciding",
}

// CornerNames lists the known corners in order.
func CornerNames() []string {
	out := make([]string, 0, len(corners))
	for c := range corners {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Corners collects the corners a game shows. See observes moves (it fits
// Game.Replay's observe); SeeFinal the final count.
type Corners map[string]bool

// See notes the corners a move shows; g is the game after it.
func (c Corners) See(g *engine.Game, m engine.Move, ev []engine.Event) {
	b := g.Board()
	switch m.Action.Kind {
	case engine.ActTunnelPay:
		c["tunnel-paid"] = true
	case engine.ActTunnelCancel:
		c["tunnel-cancelled"] = true
	case engine.ActDrawTickets:
		if m.Action.Long > 0 {
			c["long-tickets"] = true
		}
	case engine.ActClaim:
		if m.Action.Locos4 > 0 {
			c["locomotive-4"] = true
		}
	}
	for _, e := range ev {
		switch e.Kind {
		case engine.EvFlush:
			c["flush"] = true
		case engine.EvReshuffle:
			c["reshuffle"] = true
		case engine.EvTicketsDrawn:
			if g.Phase() != engine.PhaseSetup {
				c["tickets-drawn"] = true
			}
		case engine.EvTunnelReveal:
			if e.Count == 0 {
				c["tunnel-free"] = true
			}
		case engine.EvClaim:
			if b.Tracks[e.Track].Locomotives > 0 {
				c["ferry"] = true
			}
			for _, p := range b.Parallel(e.Track) {
				if p != e.Track && g.Owner(p) >= 0 {
					c["double-route"] = true
				}
			}
		case engine.EvStation:
			c["station"] = true
		case engine.EvPassengerPlaced:
			c["passenger-placed"] = true
		case engine.EvPassengerMoved:
			c["passenger-moved"] = true
		case engine.EvLastRound:
			c["last-round"] = true
		case engine.EvPass:
			c["pass"] = true
		}
	}
}

// SeeFinal notes the corners of the final count.
func (c Corners) SeeFinal(fs *engine.FinalScore) {
	longest, most := 0, 0
	for _, p := range fs.Players {
		if len(p.Borrowed) > 0 {
			c["station-borrowed"] = true
		}
		if p.CompletedTickets < len(p.Tickets) {
			c["ticket-failed"] = true
		}
		if p.LongestBonus {
			longest++
		}
		if p.TicketsBonus {
			most++
		}
	}
	if longest > 1 || most > 1 {
		c["bonus-shared"] = true
	}
	if len(fs.Ranking) > 1 && fs.Players[fs.Ranking[0]].Total == fs.Players[fs.Ranking[1]].Total {
		c["tie"] = true
	}
}

// Names lists the corners seen, in order.
func (c Corners) Names() []string {
	var out []string
	for _, n := range CornerNames() {
		if c[n] {
			out = append(out, n)
		}
	}
	return out
}
