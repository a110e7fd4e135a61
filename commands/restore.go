package commands

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"conductor/data"
	"conductor/engine"
	"conductor/store"
)

// A table is rebuilt from its record: the engine's state from the game's
// latest snapshot (written every snapshotEvery moves at least, when a
// board was just posted), then the moves after it replayed and narrated.
// Loading a game thus replays a few dozen moves at most, whatever its
// length. A snapshot is a cache: one that cannot be read is ignored and
// the whole log replayed.
//
// A snapshot holds the engine's state (engine.MarshalState) and the last
// lines of the table's narration, which /log shows and the board's picture
// ends with; it is taken when a board was just due, so no narration waits
// for the next board then. It is compressed with flate:
//
//	version byte, then deflated: uvarint length, state, uvarint lines, each uvarint length and text

// snapshotEvery is the most moves a loaded game replays after its
// snapshot, but for those since the last board (a few).
const snapshotEvery = 32

// snapshotLines is how much narration a snapshot keeps: what /log shows
// (logCommand).
const snapshotLines = 15

const tableSnapshotVersion = 1

// rebuilt is a game as it stood after some of its moves.
type rebuilt struct {
	game      *engine.Game
	told      narration
	snapMoves int // the moves of the snapshot used (0: none)
}

// rebuild sets up the game of rec after its first upto moves, from snap
// when it is of no later position.
func rebuild(boards *data.Catalog, log *slog.Logger, rec *store.GameRecord, snap *store.Snapshot, upto int) (*rebuilt, error) {
	cfg, err := gameConfig(boards, rec)
	if err != nil {
		return nil, err
	}
	b := &rebuilt{}
	var g *engine.Game
	if snap != nil && snap.Moves <= upto {
		if state, lines, err := decodeTableSnapshot(snap.Data); err == nil {
			g, err = engine.Restore(cfg, state, engineMoves(cfg, rec.Log[:snap.Moves]))
			if err == nil {
				b.told.history, b.snapMoves = lines, snap.Moves
			} else {
				log.Warn("snapshot not restored; replaying the game", "channel", rec.Channel, "err", err)
			}
		} else {
			log.Warn("snapshot unreadable; replaying the game", "channel", rec.Channel, "err", err)
		}
	}
	if g == nil {
		if g, err = engine.New(cfg); err != nil {
			return nil, err
		}
	}
	// The narration waiting for the next board is what was said since the
	// last board was due, as apply decides it.
	turn, phase := g.Turn(), g.Phase()
	for i, e := range rec.Log[b.snapMoves:upto] {
		a, err := engine.ParseAction(cfg.Board, e.Action)
		var ev []engine.Event
		if err == nil {
			ev, err = g.Apply(e.Seat, a)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", b.snapMoves+i+1, e.Action, err)
		}
		done := g.Turn() != turn || (phase == engine.PhaseSetup && g.Phase() != engine.PhaseSetup)
		b.told.tell(rec, g, ev, done || phase == engine.PhaseSetup)
		if done && boardDue(rec, g, e.Seat) {
			b.told.turn = b.told.turn[:0]
		}
		turn, phase = g.Turn(), g.Phase()
	}
	b.game = g
	return b, nil
}

// engineMoves parses a log's moves for the engine's own log.
func engineMoves(cfg engine.Config, log []store.LogEntry) []engine.Move {
	moves := make([]engine.Move, len(log))
	for i, e := range log {
		a, _ := engine.ParseAction(cfg.Board, e.Action) // the log replayed once already
		moves[i] = engine.Move{Seat: e.Seat, Action: a}
	}
	return moves
}

// snapshotDue says whether the move that makes the log n long should
// leave a snapshot: enough moves since the last one, and no narration
// waiting for a board.
func (t *table) snapshotDue(n int) bool {
	return n-t.snapMoves >= snapshotEvery && len(t.told.turn) == 0 && t.game.Phase() != engine.PhaseOver
}

// tableSnapshot encodes the game's state and the last lines of narration.
func (t *table) tableSnapshot(n int) *store.Snapshot {
	state := t.game.MarshalState()
	if state == nil {
		return nil
	}
	lines := t.told.history
	if len(lines) > snapshotLines {
		lines = lines[len(lines)-snapshotLines:]
	}
	raw := binary.AppendUvarint(nil, uint64(len(state)))
	raw = append(raw, state...)
	raw = binary.AppendUvarint(raw, uint64(len(lines)))
	for _, l := range lines {
		raw = binary.AppendUvarint(raw, uint64(len(l)))
		raw = append(raw, l...)
	}
	var buf bytes.Buffer
	buf.WriteByte(tableSnapshotVersion)
	// A flate writer costs a megabyte to make: reuse them.
	w, _ := deflaters.Get().(*flate.Writer)
	if w == nil {
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	} else {
		w.Reset(&buf)
	}
	w.Write(raw)
	w.Close()
	deflaters.Put(w)
	return &store.Snapshot{Moves: n, Data: buf.Bytes()}
}

var (
	deflaters sync.Pool // *flate.Writer
	inflaters sync.Pool // io.ReadCloser, a flate.Resetter
)

func inflate(p []byte) ([]byte, error) {
	r, _ := inflaters.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(bytes.NewReader(p))
	} else if err := r.(flate.Resetter).Reset(bytes.NewReader(p), nil); err != nil {
		return nil, err
	}
	out, err := io.ReadAll(r)
	inflaters.Put(r)
	return out, err
}

var errSnapshot = errors.New("unreadable table snapshot")

func decodeTableSnapshot(data []byte) (state []byte, lines []string, err error) {
	if len(data) == 0 || data[0] != tableSnapshotVersion {
		return nil, nil, errSnapshot
	}
	raw, err := inflate(data[1:])
	if err != nil {
		return nil, nil, err
	}
	next := func() ([]byte, bool) {
		n, k := binary.Uvarint(raw)
		if k <= 0 || uint64(len(raw)-k) < n {
			return nil, false
		}
		p := raw[k : k+int(n)]
		raw = raw[k+int(n):]
		return p, true
	}
	state, ok := next()
	if !ok {
		return nil, nil, errSnapshot
	}
	count, k := binary.Uvarint(raw)
	if k <= 0 || count > snapshotLines {
		return nil, nil, errSnapshot
	}
	raw = raw[k:]
	for range count {
		l, ok := next()
		if !ok {
			return nil, nil, errSnapshot
		}
		lines = append(lines, string(l))
	}
	if len(raw) != 0 {
		return nil, nil, errSnapshot
	}
	return state, lines, nil
}
