package engine

import "conductor/data"

// revealTunnel turns up the tunnel cards and either completes the claim (no
// extra cards needed) or waits for the player to pay or give up.
func (g *Game) revealTunnel(seat int, a Action) {
	n := g.board.Rules.TunnelReveal
	revealed := g.tunnel.revealed[:0]
	for range n {
		c := g.popDeck()
		if c == NoCard {
			break // fewer cards than three: reveal what exists
		}
		revealed = append(revealed, c)
	}
	extra := 0
	for _, c := range revealed {
		// A locomotive always matches; a colour matches the colour played,
		// unless only locomotives were played.
		if c == Locomotive || (a.Color != data.Gray && c == ColorCard(a.Color)) {
			extra++
		}
	}
	g.tunnel = tunnelState{claim: a, revealed: revealed, extra: extra}
	g.emit(Event{Kind: EvTunnelReveal, Seat: seat, Track: a.Track, Cards: append([]Card(nil), revealed...), Count: extra})
	if extra == 0 {
		g.discardTunnel()
		g.completeClaim(seat, a, 0, 0)
		return
	}
	g.phase = PhaseTunnel
}

// discardTunnel puts the revealed cards on the discards at the end of the turn.
func (g *Game) discardTunnel() {
	g.discard = append(g.discard, g.tunnel.revealed...)
	g.tunnel.revealed = g.tunnel.revealed[:0]
}

// TunnelPayable reports whether seat can pay the pending tunnel's extra
// cards with locos locomotives.
func (g *Game) checkTunnelPay(seat int, a Action) error {
	ts := &g.tunnel
	p := &g.players[seat]
	t := &g.board.Tracks[ts.claim.Track]
	baseColored := t.Length - ts.claim.Locos - ts.claim.Locos4
	extraColored := ts.extra - a.Locos
	if a.Locos < 0 || extraColored < 0 {
		return g.refuse(ErrBadAction, "tunnel.bad_locos", "extra", ts.extra)
	}
	if ts.claim.Color == data.Gray && extraColored > 0 {
		return g.refuse(ErrNotAllowed, "tunnel.locos_only", "extra", ts.extra)
	}
	haveColored := 0
	if ts.claim.Color != data.Gray {
		haveColored = p.Hand[ts.claim.Color] - baseColored
	}
	haveLocos := p.Hand[Locomotive] - ts.claim.Locos
	if extraColored > haveColored || a.Locos > haveLocos {
		held := CardsHeld{Color: ts.claim.Color, Count: max(haveColored, 0), Locos: max(haveLocos, 0)}
		if ts.claim.Color == data.Gray {
			return g.refuse(ErrCannotAfford, "tunnel.short_locos",
				"extra", ts.extra, "held", held)
		}
		return g.refuse(ErrCannotAfford, "tunnel.short",
			"extra", ts.extra, "colour", ts.claim.Color, "held", held)
	}
	return nil
}

// CanPayTunnel returns the locomotive counts with which seat can pay the
// pending tunnel, fewest locomotives first.
func (g *Game) CanPayTunnel(seat int) []int {
	if g.phase != PhaseTunnel || seat != g.current {
		return nil
	}
	var out []int
	for l := 0; l <= g.tunnel.extra; l++ {
		if g.checkTunnelPay(seat, Action{Kind: ActTunnelPay, Locos: l}) == nil {
			out = append(out, l)
		}
	}
	return out
}

func (g *Game) performTunnelPay(seat int, a Action) {
	extra := g.tunnel.extra
	claim := g.tunnel.claim
	g.discardTunnel()
	g.completeClaim(seat, claim, extra-a.Locos, a.Locos)
}

func (g *Game) performTunnelCancel(seat int) {
	g.emit(Event{Kind: EvTunnelGiveUp, Seat: seat, Track: g.tunnel.claim.Track})
	g.players[seat].gaveUp, g.players[seat].gaveUpSet = g.tunnel.claim.Track, true
	g.discardTunnel()
	g.setLastMove(seat, nil, nil)
	g.endTurn()
}
