package engine

import (
	"encoding/binary"
	"errors"
	"fmt"

	"conductor/data"
)

// A state snapshot lets a stored game be rebuilt without replaying its
// whole log: MarshalState writes everything Apply changes, and Restore puts
// it back into a game set up from the same Config. The log itself is not
// in the snapshot (the caller has it). A snapshot is a cache of the log:
// a reader that gets ErrSnapshotVersion (or any error) replays instead.
//
// Every field of Game and Player that a move can change must be written
// here; TestSnapshotKnowsEveryField fails when a new one is not. Changing
// the encoding means a new snapshotVersion.

// snapshotVersion is the first byte of a snapshot.
const snapshotVersion = 2

// ErrSnapshotVersion: the snapshot was written by another version of the
// engine; replay the log instead.
var ErrSnapshotVersion = errors.New("engine: snapshot of another version")

// MarshalState encodes the game's state after its moves so far. A game
// that is over has no snapshot (its final score is not kept): it returns
// nil then.
func (g *Game) MarshalState() []byte {
	if g.phase == PhaseOver {
		return nil
	}
	w := &stateWriter{b: []byte{snapshotVersion}}
	rng, _ := g.rng.pcg.MarshalBinary()
	w.bytes(rng)
	w.int(len(g.players))
	for i := range g.players {
		p := &g.players[i]
		w.hand(&p.Hand)
		w.tickets(p.Tickets)
		w.tickets(p.Pending)
		w.int(p.Trains)
		w.int(p.Stations)
		w.int(p.Score)
		w.ints(p.Goods)
		w.int(p.PassengersLeft)
		w.int(p.PassengersUsed)
		w.int(p.setupStep)
		w.int(p.setupKept)
		w.bool(p.setupNeedMx)
		w.length(len(p.givenBack), p.givenBack == nil)
		for _, gb := range p.givenBack {
			w.int(int(gb.ticket))
			w.bool(gb.boxed)
			w.bool(gb.waiting)
			w.int(gb.above)
		}
		w.hand(&p.shown)
		w.int(int(p.gaveUp))
		w.bool(p.gaveUpSet)
	}
	w.int(int(g.phase))
	w.int(g.current)
	w.int(g.turn)
	w.cards(g.deck)
	w.cards(g.discard)
	w.cards(g.faceUp)
	w.tickets(g.tickets[0])
	w.tickets(g.tickets[1])
	w.int8s(g.owner)
	w.int8s(g.station)
	w.int8s(g.passenger)
	w.int8s(g.goods)
	w.tickets(g.setupReturned)
	w.action(&g.tunnel.claim)
	w.cards(g.tunnel.revealed)
	w.int(g.tunnel.extra)
	w.int(g.finalTurns)
	w.int(g.passes)
	w.int(g.lastMove.seat)
	w.length(len(g.lastMove.tracks), g.lastMove.tracks == nil)
	for _, t := range g.lastMove.tracks {
		w.int(int(t))
	}
	w.length(len(g.lastMove.cities), g.lastMove.cities == nil)
	for _, c := range g.lastMove.cities {
		w.int(int(c))
	}
	return w.b
}

// Restore rebuilds the game that MarshalState encoded, set up from cfg
// (the game's own Config), with log as its moves so far.
func Restore(cfg Config, state []byte, log []Move) (*Game, error) {
	if len(state) == 0 || state[0] != snapshotVersion {
		return nil, ErrSnapshotVersion
	}
	g, err := New(cfg)
	if err != nil {
		return nil, err
	}
	r := &stateReader{b: state[1:]}
	if err := g.rng.pcg.UnmarshalBinary(r.bytes()); err != nil && r.err == nil {
		r.err = err
	}
	if n := r.int(); n != len(g.players) {
		return nil, fmt.Errorf("engine: snapshot of %d players for a game of %d", n, len(g.players))
	}
	for i := range g.players {
		p := &g.players[i]
		r.hand(&p.Hand)
		p.Tickets = r.tickets()
		p.Pending = r.tickets()
		p.Trains = r.int()
		p.Stations = r.int()
		p.Score = r.int()
		p.Goods = r.ints()
		p.PassengersLeft = r.int()
		p.PassengersUsed = r.int()
		p.setupStep = r.int()
		p.setupKept = r.int()
		p.setupNeedMx = r.bool()
		p.givenBack = nil
		if n := r.length(); n >= 0 {
			p.givenBack = make([]givenBack, n)
			for k := range p.givenBack {
				p.givenBack[k] = givenBack{ticket: data.TicketID(r.int()), boxed: r.bool(), waiting: r.bool(), above: r.int()}
			}
		}
		r.hand(&p.shown)
		p.gaveUp = data.TrackID(r.int())
		p.gaveUpSet = r.bool()
	}
	g.phase = Phase(r.int())
	g.current = r.int()
	g.turn = r.int()
	g.deck = r.cards()
	g.discard = r.cards()
	g.faceUp = r.cards()
	g.tickets[0] = r.tickets()
	g.tickets[1] = r.tickets()
	g.owner = r.int8s()
	g.station = r.int8s()
	g.passenger = r.int8s()
	g.goods = r.int8s()
	g.setupReturned = r.tickets()
	r.action(&g.tunnel.claim)
	g.tunnel.revealed = r.cards()
	g.tunnel.extra = r.int()
	g.finalTurns = r.int()
	g.passes = r.int()
	g.lastMove.seat = r.int()
	g.lastMove.tracks = nil
	if n := r.length(); n >= 0 {
		g.lastMove.tracks = make([]data.TrackID, n)
		for i := range g.lastMove.tracks {
			g.lastMove.tracks[i] = data.TrackID(r.int())
		}
	}
	g.lastMove.cities = nil
	if n := r.length(); n >= 0 {
		g.lastMove.cities = make([]data.CityID, n)
		for i := range g.lastMove.cities {
			g.lastMove.cities[i] = data.CityID(r.int())
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("engine: unreadable snapshot: %w", r.err)
	}
	switch {
	case g.phase >= PhaseOver, g.current < 0 || g.current >= len(g.players),
		len(g.owner) != len(cfg.Board.Tracks), len(g.station) != len(cfg.Board.Cities),
		len(g.passenger) != len(cfg.Board.Cities), len(g.goods) != len(cfg.Board.Cities):
		return nil, errors.New("engine: the snapshot does not fit the game")
	}
	g.log = log
	return g, nil
}

// stateWriter writes varints; a slice is its length plus one (0: nil).
type stateWriter struct{ b []byte }

func (w *stateWriter) int(v int) { w.b = binary.AppendVarint(w.b, int64(v)) }

func (w *stateWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *stateWriter) length(n int, isNil bool) {
	if isNil {
		w.b = binary.AppendUvarint(w.b, 0)
		return
	}
	w.b = binary.AppendUvarint(w.b, uint64(n)+1)
}

func (w *stateWriter) bytes(p []byte) {
	w.length(len(p), p == nil)
	w.b = append(w.b, p...)
}

func (w *stateWriter) cards(cs []Card) {
	w.length(len(cs), cs == nil)
	for _, c := range cs {
		w.b = append(w.b, byte(c))
	}
}

func (w *stateWriter) tickets(ts []data.TicketID) {
	w.length(len(ts), ts == nil)
	for _, t := range ts {
		w.int(int(t))
	}
}

func (w *stateWriter) ints(vs []int) {
	w.length(len(vs), vs == nil)
	for _, v := range vs {
		w.int(v)
	}
}

func (w *stateWriter) int8s(vs []int8) {
	w.length(len(vs), vs == nil)
	for _, v := range vs {
		w.b = append(w.b, byte(v))
	}
}

func (w *stateWriter) hand(h *Hand) {
	for _, n := range h {
		w.int(n)
	}
}

func (w *stateWriter) action(a *Action) {
	w.int(int(a.Kind))
	w.int(a.Slot)
	w.int(int(a.Track))
	w.int(int(a.City))
	w.int(int(a.Color))
	w.int(a.Locos)
	w.int(a.Locos4)
	w.bool(a.Passenger)
	w.int(a.Long)
	w.b = binary.AppendUvarint(w.b, a.Keep)
	w.length(len(a.Path), a.Path == nil)
	for _, t := range a.Path {
		w.int(int(t))
	}
}

// stateReader reads what stateWriter wrote; the first error sticks.
type stateReader struct {
	b   []byte
	err error
}

var errShortState = errors.New("snapshot cut short")

func (r *stateReader) int() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errShortState
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *stateReader) bool() bool {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShortState
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v != 0
}

// length reads a slice's length, -1 for nil.
func (r *stateReader) length() int {
	if r.err != nil {
		return -1
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b)-n)+1 {
		r.err = errShortState
		return -1
	}
	r.b = r.b[n:]
	return int(v) - 1
}

func (r *stateReader) bytes() []byte {
	n := r.length()
	if n < 0 || n > len(r.b) {
		if n > len(r.b) {
			r.err = errShortState
		}
		return nil
	}
	p := append([]byte{}, r.b[:n]...)
	r.b = r.b[n:]
	return p
}

func (r *stateReader) cards() []Card {
	n := r.length()
	if n < 0 || n > len(r.b) {
		if n > len(r.b) {
			r.err = errShortState
		}
		return nil
	}
	cs := make([]Card, n)
	for i := range cs {
		cs[i] = Card(r.b[i])
	}
	r.b = r.b[n:]
	return cs
}

func (r *stateReader) tickets() []data.TicketID {
	n := r.length()
	if n < 0 {
		return nil
	}
	ts := make([]data.TicketID, n)
	for i := range ts {
		ts[i] = data.TicketID(r.int())
	}
	return ts
}

func (r *stateReader) ints() []int {
	n := r.length()
	if n < 0 {
		return nil
	}
	vs := make([]int, n)
	for i := range vs {
		vs[i] = r.int()
	}
	return vs
}

func (r *stateReader) int8s() []int8 {
	n := r.length()
	if n < 0 || n > len(r.b) {
		if n > len(r.b) {
			r.err = errShortState
		}
		return nil
	}
	vs := make([]int8, n)
	for i := range vs {
		vs[i] = int8(r.b[i])
	}
	r.b = r.b[n:]
	return vs
}

func (r *stateReader) hand(h *Hand) {
	for i := range h {
		h[i] = r.int()
	}
}

func (r *stateReader) action(a *Action) {
	a.Kind = ActionKind(r.int())
	a.Slot = r.int()
	a.Track = data.TrackID(r.int())
	a.City = data.CityID(r.int())
	a.Color = data.Color(r.int())
	a.Locos = r.int()
	a.Locos4 = r.int()
	a.Passenger = r.bool()
	a.Long = r.int()
	if r.err == nil {
		v, n := binary.Uvarint(r.b)
		if n <= 0 {
			r.err = errShortState
		} else {
			a.Keep, r.b = v, r.b[n:]
		}
	}
	a.Path = nil
	if n := r.length(); n >= 0 {
		a.Path = make([]data.TrackID, n)
		for i := range a.Path {
			a.Path[i] = data.TrackID(r.int())
		}
	}
}
