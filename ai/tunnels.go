package ai

import (
	"slices"

	"conductor/data"
	"conductor/engine"
)

// tunnelSpare reports whether, after the cheapest payment for tunnel t, the
// hand keeps a card that could meet the tunnel's surprise.
func tunnelSpare(s *situation, t data.TrackID, opts []engine.Action) bool {
	l := s.b.Tracks[t].Length
	plain := appendPlain(s.w.acts[:0], opts)
	s.w.acts = plain
	for _, a := range plain {
		h := spend(s.b, s.hand, a, l)
		spare := h[engine.Locomotive]
		if a.Color != data.Gray {
			spare += h[engine.ColorCard(a.Color)]
		}
		if spare >= 1 {
			return true
		}
	}
	return false
}

// tunnel pays a tunnel's extra cards when the track is worth them.
func (p *plannerBot) tunnel(s *situation, legal []engine.Action) engine.Action {
	cancel, _ := firstOf(legal, engine.ActTunnelCancel)
	pay, ok := firstOf(legal, engine.ActTunnelPay) // fewest locomotives first
	if !ok || s.v.Tunnel == nil {
		return cancel
	}
	t := s.v.Tunnel.Track
	extra := s.v.Tunnel.Extra
	pl := p.plan(s)
	if slices.Contains(pl.claims, t) || s.b.RoutePoints(s.b.Tracks[t].Length) >= 2*extra || s.turnsLeft <= 2 {
		return pay
	}
	return cancel
}
