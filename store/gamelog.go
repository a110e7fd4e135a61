package store

import (
	"bytes"
	"fmt"
)

// A game's log is kept in chunks of chunkLen entries (logcodec.go), by
// channel and chunk number, in either backend: appending a move rewrites
// the last chunk only, and whether an interaction was already applied is
// read from the last two.

// readLog reads a channel's whole log.
func readLog(t txn, channel string) ([]LogEntry, error) {
	cs, err := t.chunks(channel)
	if err != nil {
		return nil, err
	}
	return decodeLog(channel, cs)
}

// decodeLog reads a log from its chunks, in order.
func decodeLog(channel string, cs []chunk) ([]LogEntry, error) {
	var log []LogEntry
	var err error
	for _, c := range cs {
		i := len(log) / chunkLen
		if c.I != i || len(log)%chunkLen != 0 {
			return nil, fmt.Errorf("%w: game %s log has a gap at entry %d", errCorrupt, channel, len(log))
		}
		if log, err = decodeChunk(log, c.Data); err != nil {
			return nil, fmt.Errorf("%w: game %s log chunk %d: %v", errCorrupt, channel, i, err)
		}
	}
	return log, nil
}

// logTail is the end of a channel's log: the number of entries, the
// entries of the last chunk and of the one before it (for refusing a
// replayed interaction), and the last chunk as stored.
type logTail struct {
	n      int
	last   []LogEntry // of chunk (n-1)/chunkLen
	before []LogEntry // of the chunk before it
	raw    []byte     // the last chunk
}

func readTail(t txn, channel string) (*logTail, error) {
	cs, err := t.lastChunks(channel)
	if err != nil {
		return nil, err
	}
	tail := &logTail{}
	if len(cs) == 0 {
		return tail, nil
	}
	i := cs[0].I
	if tail.last, err = decodeChunk(nil, cs[0].Data); err != nil {
		return nil, fmt.Errorf("%w: game %s log chunk %d: %v", errCorrupt, channel, i, err)
	}
	if len(tail.last) == 0 || len(tail.last) > chunkLen {
		return nil, fmt.Errorf("%w: game %s log chunk %d holds %d entries", errCorrupt, channel, i, len(tail.last))
	}
	tail.n = i*chunkLen + len(tail.last)
	tail.raw = cs[0].Data
	if i > 0 && len(cs) > 1 {
		if tail.before, err = decodeChunk(nil, cs[1].Data); err != nil {
			return nil, fmt.Errorf("%w: game %s log chunk %d: %v", errCorrupt, channel, cs[1].I, err)
		}
	}
	return tail, nil
}

// repeats reports whether the tail already holds interaction id. A
// replayed interaction comes within seconds (Discord retries within its
// three-second window, and older interactions are dropped before they get
// here), so the last one or two chunks, 32 moves at least, are enough.
func (t *logTail) repeats(id string) bool {
	if id == "" {
		return false
	}
	for _, es := range [][]LogEntry{t.last, t.before} {
		for i := range es {
			if es[i].Interaction == id {
				return true
			}
		}
	}
	return false
}

// appendLog adds e as entry tail.n of channel's log.
func appendLog(t txn, channel string, tail *logTail, e *LogEntry) error {
	i := tail.n / chunkLen
	if tail.n%chunkLen == 0 {
		return t.putChunk(channel, i, appendToChunk(nil, e, nil))
	}
	var c []byte
	switch {
	case tail.n%chunkLen == chunkLen-1:
		// The chunk is full: seal it.
		c = encodeChunk(append(tail.last[:len(tail.last):len(tail.last)], *e), true)
	case tail.raw[0] == chunkRaw:
		c = appendToChunk(bytes.Clone(tail.raw), e, &tail.last[len(tail.last)-1].At)
	default:
		c = encodeChunk(append(tail.last[:len(tail.last):len(tail.last)], *e), false)
	}
	return t.putChunk(channel, i, c)
}

// writeLog rewrites channel's log from entry from on (earlier chunks
// are kept): every chunk from the one holding entry from is replaced.
func writeLog(t txn, channel string, log []LogEntry, from int) error {
	first := from / chunkLen
	if err := t.deleteChunks(channel, first); err != nil {
		return err
	}
	for i := first; i*chunkLen < len(log); i++ {
		end := min(len(log), (i+1)*chunkLen)
		if err := t.putChunk(channel, i, encodeChunk(log[i*chunkLen:end], end-i*chunkLen == chunkLen)); err != nil {
			return err
		}
	}
	return nil
}

// writeHeader stores rec without its log, times in UTC, and brings the
// indexes from what old (nil for a new game) said to what rec says.
func writeHeader(t txn, old, rec *GameRecord) error {
	h := *rec
	h.Log = nil
	h.Created, h.Updated = h.Created.UTC(), h.Updated.UTC()
	if h.Due != nil {
		d := *h.Due
		d.At = d.At.UTC()
		h.Due = &d
	}
	return t.putHeader(old, &h)
}

// writeGame replaces whatever is stored for rec.Channel with rec. When strict,
// a log that repeats an interaction id is refused with ErrDuplicate.
func writeGame(t txn, rec *GameRecord, strict bool) error {
	if strict {
		if err := uniqueInteractions(rec.Log); err != nil {
			return err
		}
	}
	old, err := t.header(rec.Channel)
	switch {
	case err == nil:
		if err := t.deleteGame(old); err != nil {
			return err
		}
	case !isNotFound(err):
		return err
	}
	if err := writeHeader(t, nil, rec); err != nil {
		return err
	}
	return writeLog(t, rec.Channel, rec.Log, 0)
}

// uniqueInteractions refuses a log that applies one interaction twice.
func uniqueInteractions(log []LogEntry) error {
	seen := make(map[string]bool, len(log))
	for _, e := range log {
		if e.Interaction == "" {
			continue
		}
		if seen[e.Interaction] {
			return ErrDuplicate
		}
		seen[e.Interaction] = true
	}
	return nil
}

// syncLog rewrites the stored log from old to updated, touching only the
// chunks after their common prefix (usually none, or the last), and drops
// a snapshot of a position the log no longer reaches. An entry after the
// prefix that repeats an interaction is refused with ErrDuplicate.
func syncLog(t txn, channel string, old, updated []LogEntry) error {
	same := 0
	for same < len(old) && same < len(updated) && sameEntry(old[same], updated[same]) {
		same++
	}
	if same == len(old) && same == len(updated) {
		return nil
	}
	// A new entry may not apply an interaction the log already holds (an
	// old log may repeat one: version 0 did not refuse replays).
	seen := make(map[string]bool, len(updated))
	for n, e := range updated {
		if e.Interaction == "" {
			continue
		}
		if n >= same && seen[e.Interaction] {
			return ErrDuplicate
		}
		seen[e.Interaction] = true
	}
	if err := writeLog(t, channel, updated, same); err != nil {
		return err
	}
	snap, err := readSnapshot(t, channel)
	if err != nil || snap == nil || snap.Moves <= same {
		return err
	}
	return t.deleteBlob(blobSnapshot, channel)
}

func sameEntry(a, b LogEntry) bool {
	return a.Seat == b.Seat && a.Action == b.Action && a.Interaction == b.Interaction && a.At.Equal(b.At)
}
