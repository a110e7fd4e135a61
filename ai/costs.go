package ai

import (
	"conductor/data"
	"conductor/engine"
)

// Costs are measured in card-equivalents: a turn drawing train cards brings
// about two cards, so a turn is worth two; points convert at about 1.25
// points a card (a good turn is worth some 2.5 points).
const (
	cardsPerTurn   = 2.0
	pointsPerCard  = 1.25
	usefulPerDraw  = 1.6 // cards a draw turn adds to a plan in practice
	stationPenalty = 4   // points an unbuilt station is worth at the end (Europe)
)

// costModel prices claiming a track for planning, in card-equivalents.
type costModel struct {
	claimTurn    float64 // the turn spent claiming
	perTrain     float64 // trains are a budget: what one is worth besides its card
	routePoints  float64 // card-equivalents credited per route point scored
	colorPenalty float64 // per space of a coloured (not gray) track: one colour is harder to gather
	ferryLoco    float64 // per locomotive a ferry demands, beyond the card itself
	tunnelRisk   float64 // expected extra cards and failed attempts on a tunnel
	stations     bool    // plan to borrow opponents' tracks with stations (Europe)
	// goods credits, per goods point on top of the stacks at its ends, a
	// track that takes passengers through rich cities (Märklin).
	goods float64
}

// fillBaseCosts prices every track for s's seat: 0 for its own, blocked for what
// it can never use, the claim cost for open tracks, and (when stations are
// planned) a station's cost for an opponent's track.
func (m *costModel) fillBaseCosts(s *situation, cost []float64) {
	b := s.b
	stationOK := m.stations && s.hasStations()
	for i := range b.Tracks {
		t := data.TrackID(i)
		tr := &b.Tracks[i]
		switch {
		case s.own[t]:
			cost[t] = 0
		case s.claimable[t] && tr.Length <= s.trains:
			cost[t] = m.claimCost(s, tr)
		case m.stations && s.oppHeld[t] && s.ownStationAt(t):
			cost[t] = 0.5 // a station already built can lend it
		case stationOK && s.oppHeld[t] && s.stationCity(t) != engine.NoCity:
			cost[t] = float64(s.stationCost()) + m.claimTurn + stationPenalty/pointsPerCard + 1
		default:
			cost[t] = blocked
		}
	}
}

// claimCost prices claiming tr with cards still to gather.
func (m *costModel) claimCost(s *situation, tr *data.Track) float64 {
	l := float64(tr.Length)
	c := l*(1+m.perTrain) + m.claimTurn - m.routePoints*float64(s.b.RoutePoints(tr.Length))
	if tr.Color != data.Gray {
		c += m.colorPenalty * l
	}
	c += m.ferryLoco * float64(tr.Locomotives)
	if tr.Tunnel && s.rules.TunnelReveal > 0 {
		c += m.tunnelRisk
	}
	if m.goods > 0 && s.rules.Passengers > 0 {
		c -= m.goods * float64(firstToken(s, tr.A)+firstToken(s, tr.B))
	}
	return max(c, 0.5)
}

// stationCity returns a city where this seat could build a station to
// borrow opponent track t (one end without a station, or with its own), or
// NoCity.
func (s *situation) stationCity(t data.TrackID) data.CityID {
	tr := &s.b.Tracks[t]
	for _, c := range [2]data.CityID{tr.A, tr.B} {
		if s.b.Cities[c].Country {
			continue
		}
		if o := s.v.Stations[c]; o < 0 || int(o) == s.seat {
			return c
		}
	}
	return engine.NoCity
}

// ownStationAt reports whether this seat has a station at an end of t.
func (s *situation) ownStationAt(t data.TrackID) bool {
	tr := &s.b.Tracks[t]
	return int(s.v.Stations[tr.A]) == s.seat || int(s.v.Stations[tr.B]) == s.seat
}

// creditHand lowers the cost of tracks the hand already pays for, given a
// first plan: each planned track gets its share of the cards of its colour
// (gray tracks: the colour analyse chose), any other track the cards the
// plan leaves spare. Replanning with these costs bends the network towards
// the colours held instead of waiting for colours that do not come.
func creditHand(s *situation, base []float64, pl *plan, weight float64) {
	n := analyse(s.b, &s.hand, pl.claims)
	spare := func(c engine.Card) int { return max(0, s.hand[c]-n.want[c]) }
	inPlan := grow(s.w.inPlan, len(s.b.Tracks))
	clear(inPlan)
	s.w.inPlan = inPlan
	for _, t := range pl.claims {
		inPlan[t] = true
	}
	for i := range s.b.Tracks {
		t := data.TrackID(i)
		if base[t] == blocked || s.own[t] || !s.claimable[t] {
			continue
		}
		tr := &s.b.Tracks[t]
		need := tr.Length - tr.Locomotives
		have := 0
		switch {
		case inPlan[t]:
			col := tr.Color
			if col == data.Gray {
				col = n.gray(t)
			}
			c := engine.ColorCard(col)
			if n.want[c] > 0 {
				have = s.hand[c] * need / n.want[c]
			}
		case tr.Color != data.Gray:
			have = spare(engine.ColorCard(tr.Color))
		default:
			for _, col := range data.CardColors {
				have = max(have, spare(engine.ColorCard(col)))
			}
		}
		base[t] = max(base[t]-weight*float64(min(have, need)), 0.3)
	}
}
