package engine

import (
	"fmt"

	"conductor/data"
)

// checkInvariants verifies what must hold after every action of any game.
func checkInvariants(g *Game) error {
	b := g.board
	r := &b.Rules
	cards := len(g.deck) + len(g.discard) + len(g.tunnel.revealed)
	for _, c := range g.faceUp {
		if c != NoCard {
			cards++
		}
	}
	for i := range g.players {
		p := &g.players[i]
		for _, n := range p.Hand {
			if n < 0 {
				return fmt.Errorf("seat %d holds a negative count: %v", i, p.Hand)
			}
		}
		cards += p.Hand.Total()
	}
	if cards != r.Cards.Total() {
		return fmt.Errorf("%d cards in play, want %d", cards, r.Cards.Total())
	}
	for i := range g.players {
		p := &g.players[i]
		trains, pts, stations := 0, 0, 0
		for t, o := range g.owner {
			if int(o) == i {
				trains += b.Tracks[t].Length
				pts += b.RoutePoints(b.Tracks[t].Length)
			}
		}
		for _, o := range g.station {
			if int(o) == i {
				stations++
			}
		}
		goods := 0
		for _, v := range p.Goods {
			goods += v
		}
		if p.Trains+trains != r.Trains {
			return fmt.Errorf("seat %d: %d trains left + %d placed != %d", i, p.Trains, trains, r.Trains)
		}
		if p.Stations+stations != r.Stations {
			return fmt.Errorf("seat %d: %d stations left + %d built != %d", i, p.Stations, stations, r.Stations)
		}
		if p.Score != pts+goods {
			return fmt.Errorf("seat %d: running score %d, route table says %d + goods %d", i, p.Score, pts, goods)
		}
		if p.Trains < 0 {
			return fmt.Errorf("seat %d has %d trains", i, p.Trains)
		}
		placed := 0
		for _, o := range g.passenger {
			if int(o) == i {
				placed++
			}
		}
		if p.PassengersLeft+placed+p.PassengersUsed != r.Passengers {
			return fmt.Errorf("seat %d: passengers %d left + %d placed + %d used != %d", i, p.PassengersLeft, placed, p.PassengersUsed, r.Passengers)
		}
	}
	for _, grp := range b.Groups {
		held := map[int8]int{}
		n := 0
		for _, t := range grp {
			if o := g.owner[t]; o >= 0 {
				held[o]++
				n++
			}
		}
		for o, k := range held {
			if k > 1 {
				return fmt.Errorf("seat %d holds %d tracks of %s", o, k, b.TrackName(grp[0]))
			}
		}
		if len(g.players) <= 3 && n > 1 {
			return fmt.Errorf("%d tracks of %s held with %d players", n, b.TrackName(grp[0]), len(g.players))
		}
	}
	taken := 0
	for c := range b.Cities {
		if int(g.goods[c]) > len(b.Cities[c].GoodsStack) {
			return fmt.Errorf("more goods taken from %s than it had", b.Cities[c].Name)
		}
		taken += int(g.goods[c])
	}
	collected := 0
	for i := range g.players {
		collected += len(g.players[i].Goods)
	}
	if taken != collected {
		return fmt.Errorf("%d goods tokens taken, %d collected", taken, collected)
	}
	var _ data.TrackID
	return nil
}
