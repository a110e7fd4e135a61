package ai

import (
	"conductor/data"
	"conductor/engine"
)

// draw picks a train card (first or second of the turn) for the tracks the
// bot is gathering for.
func (p *plannerBot) draw(s *situation, legal []engine.Action, pl *plan, tracks []data.TrackID) engine.Action {
	n := analyse(s.b, &s.hand, tracks)
	if !p.o.smartDraws {
		return simpleDraw(s, legal, &n)
	}
	pv := passengerCardValue(s)
	odds := cardOdds(s)
	urgent := p.colorUrgency(s, pl)
	value := func(n *needs, c engine.Card) float64 {
		v := cardValue(s.b, n, c, pv, spareWorth)
		if c.IsColor() && n.missing[c] > 0 {
			v += urgent[c]
		}
		return v
	}
	blind := func(n *needs) float64 {
		e := 0.0
		for c, pr := range odds {
			if pr > 0 {
				e += pr * value(n, engine.Card(c))
			}
		}
		return e
	}
	second := s.v.Phase == engine.PhaseSecondDraw
	// bestSecond is the value of the best second card after taking slot skip.
	bestSecond := func(n *needs, skip int) float64 {
		v := 0.0
		if _, ok := drawSlot(legal, engine.DeckSlot); ok {
			v = blind(n)
		}
		for i, c := range s.v.FaceUp {
			if i == skip || c == engine.NoCard || c == engine.Locomotive {
				continue
			}
			v = max(v, value(n, c))
		}
		return v
	}
	best, bestV := fallback(legal), -1.0
	for _, a := range legal {
		if a.Kind != engine.ActDraw {
			continue
		}
		var v float64
		switch {
		case a.Slot == engine.DeckSlot:
			v = blind(&n)
			if !second {
				v += bestSecond(&n, -1)
			}
		default:
			c := s.v.FaceUp[a.Slot]
			v = value(&n, c)
			if !second && c != engine.Locomotive {
				after := n.take(c)
				v += bestSecond(&after, a.Slot)
			}
		}
		// A face-up card taken first turns up a new one, which the second
		// pick may want: prefer it on a tie.
		if !second && a.Slot != engine.DeckSlot {
			v += 0.05
		}
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// colorUrgency adds, for each colour, a bonus when a track that would be
// hard to replace needs it: gather first what may be taken first.
func (p *plannerBot) colorUrgency(s *situation, pl *plan) [engine.NumCards]float64 {
	var out [engine.NumCards]float64
	if !p.o.blocking || len(pl.claims) == 0 {
		return out
	}
	detour := p.planner(s).detour(pl)
	n := analyse(s.b, &s.hand, pl.claims)
	for k, t := range pl.claims {
		col := s.b.Tracks[t].Color
		if col == data.Gray {
			col = n.gray(t)
		}
		c := engine.ColorCard(col)
		out[c] = max(out[c], min(detour[k], 20)/40*threat(s, t))
	}
	return out
}

// simpleDraw takes a face-up colour card the tracks lack, never a face-up
// locomotive, and otherwise draws blind.
func simpleDraw(s *situation, legal []engine.Action, n *needs) engine.Action {
	for _, a := range legal {
		if a.Kind != engine.ActDraw || a.Slot == engine.DeckSlot {
			continue
		}
		if c := s.v.FaceUp[a.Slot]; c.IsColor() && n.missing[c] > 0 {
			return a
		}
	}
	return fallback(legal)
}
