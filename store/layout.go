package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Bucket and key names of the layout described in doc.go.
var (
	bucketMeta          = []byte("meta")
	bucketGames         = []byte("games")
	bucketLogs          = []byte("logs")
	bucketSnapshots     = []byte("snapshots")
	bucketParked        = []byte("parked")
	bucketArchive       = []byte("archive")
	bucketArchivedGames = []byte("archived_games")
	keySchema           = []byte("schema")
)

// gameBuckets hold the records of a live game besides its header, keyed by
// its channel (the log: channel NUL chunk number). They are written,
// moved and deleted with the game.
var gameBuckets = [][]byte{bucketLogs, bucketSnapshots, bucketParked}

// errCorrupt marks data this code did not write in the shape it expects.
var errCorrupt = errors.New("store: corrupt game data")

// channelPrefix starts every log key of a channel.
func channelPrefix(channel string) []byte {
	return append([]byte(channel), 0)
}

// chunkKey is the key of a channel's chunk i.
func chunkKey(channel string, i int) []byte {
	return binary.BigEndian.AppendUint32(channelPrefix(channel), uint32(i))
}

// readHeader reads a live game's record without its log.
func readHeader(tx *bolt.Tx, channel string) (*GameRecord, error) {
	raw := tx.Bucket(bucketGames).Get([]byte(channel))
	if raw == nil {
		return nil, fmt.Errorf("%w in channel %s", ErrNotFound, channel)
	}
	return decodeHeader(raw)
}

func decodeHeader(raw []byte) (*GameRecord, error) {
	if raw == nil {
		return nil, fmt.Errorf("%w: game without a record", errCorrupt)
	}
	var rec GameRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	return &rec, nil
}

// writeHeader stores rec without its log, times in UTC, and brings the
// indexes from what old (nil for a new game) said to what rec says.
func writeHeader(tx *bolt.Tx, old, rec *GameRecord) error {
	h := *rec
	h.Log = nil
	h.Created, h.Updated = h.Created.UTC(), h.Updated.UTC()
	if h.Due != nil {
		d := *h.Due
		d.At = d.At.UTC()
		h.Due = &d
	}
	data, err := json.Marshal(&h)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bucketGames).Put([]byte(rec.Channel), data); err != nil {
		return err
	}
	if afterHeader != nil {
		afterHeader()
	}
	return reindex(tx, rec.Channel, old, &h)
}

// afterHeader, in tests, runs between a header and its index entries.
var afterHeader func()

// readLog reads a channel's whole log.
func readLog(tx *bolt.Tx, channel string) ([]LogEntry, error) {
	prefix := channelPrefix(channel)
	c := tx.Bucket(bucketLogs).Cursor()
	var log []LogEntry
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		i := len(log) / chunkLen
		if len(k) != len(prefix)+4 || binary.BigEndian.Uint32(k[len(prefix):]) != uint32(i) || len(log)%chunkLen != 0 {
			return nil, fmt.Errorf("%w: game %s log has a gap at entry %d", errCorrupt, channel, len(log))
		}
		var err error
		if log, err = decodeChunk(log, v); err != nil {
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

func readTail(tx *bolt.Tx, channel string) (*logTail, error) {
	prefix := channelPrefix(channel)
	c := tx.Bucket(bucketLogs).Cursor()
	// Every key of the channel sorts below channel+"\x01".
	k, _ := c.Seek(append([]byte(channel), 1))
	var v []byte
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	tail := &logTail{}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return tail, nil
	}
	if len(k) != len(prefix)+4 {
		return nil, fmt.Errorf("%w: game %s log key %q", errCorrupt, channel, k)
	}
	i := int(binary.BigEndian.Uint32(k[len(prefix):]))
	var err error
	if tail.last, err = decodeChunk(nil, v); err != nil {
		return nil, fmt.Errorf("%w: game %s log chunk %d: %v", errCorrupt, channel, i, err)
	}
	if len(tail.last) == 0 || len(tail.last) > chunkLen {
		return nil, fmt.Errorf("%w: game %s log chunk %d holds %d entries", errCorrupt, channel, i, len(tail.last))
	}
	tail.n = i*chunkLen + len(tail.last)
	tail.raw = v
	if i > 0 {
		if _, pv := c.Prev(); pv != nil {
			if tail.before, err = decodeChunk(nil, pv); err != nil {
				return nil, fmt.Errorf("%w: game %s log chunk %d: %v", errCorrupt, channel, i-1, err)
			}
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

// appendLog adds e as entry t.n of channel's log.
func appendLog(tx *bolt.Tx, channel string, t *logTail, e *LogEntry) error {
	logs := tx.Bucket(bucketLogs)
	i := t.n / chunkLen
	if t.n%chunkLen == 0 {
		return logs.Put(chunkKey(channel, i), appendToChunk(nil, e, nil))
	}
	var chunk []byte
	switch {
	case t.n%chunkLen == chunkLen-1:
		// The chunk is full: seal it.
		chunk = encodeChunk(append(t.last[:len(t.last):len(t.last)], *e), true)
	case t.raw[0] == chunkRaw:
		chunk = appendToChunk(bytes.Clone(t.raw), e, &t.last[len(t.last)-1].At)
	default:
		chunk = encodeChunk(append(t.last[:len(t.last):len(t.last)], *e), false)
	}
	return logs.Put(chunkKey(channel, i), chunk)
}

// writeLog rewrites channel's log from entry from on (earlier chunks
// are kept): every chunk from the one holding entry from is replaced.
func writeLog(tx *bolt.Tx, channel string, log []LogEntry, from int) error {
	first := from / chunkLen
	if err := deleteKeys(tx.Bucket(bucketLogs), chunkKey(channel, first), channelPrefix(channel)); err != nil {
		return err
	}
	logs := tx.Bucket(bucketLogs)
	for i := first; i*chunkLen < len(log); i++ {
		end := min(len(log), (i+1)*chunkLen)
		if err := logs.Put(chunkKey(channel, i), encodeChunk(log[i*chunkLen:end], end-i*chunkLen == chunkLen)); err != nil {
			return err
		}
	}
	return nil
}

// deleteKeys deletes the keys of b from start on that have prefix.
func deleteKeys(b *bolt.Bucket, start, prefix []byte) error {
	// Collect first: deleting under a running cursor can skip keys.
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(start); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// deleteGame removes everything of the live game old in its channel.
func deleteGame(tx *bolt.Tx, old *GameRecord) error {
	ch := []byte(old.Channel)
	if err := tx.Bucket(bucketGames).Delete(ch); err != nil {
		return err
	}
	prefix := channelPrefix(old.Channel)
	if err := deleteKeys(tx.Bucket(bucketLogs), prefix, prefix); err != nil {
		return err
	}
	for _, b := range [][]byte{bucketSnapshots, bucketParked} {
		if err := tx.Bucket(b).Delete(ch); err != nil {
			return err
		}
	}
	return reindex(tx, old.Channel, old, nil)
}

// writeGame replaces whatever is stored for rec.Channel with rec. When strict,
// a log that repeats an interaction id is refused with ErrDuplicate.
func writeGame(tx *bolt.Tx, rec *GameRecord, strict bool) error {
	if strict {
		if err := uniqueInteractions(rec.Log); err != nil {
			return err
		}
	}
	var old *GameRecord
	if raw := tx.Bucket(bucketGames).Get([]byte(rec.Channel)); raw != nil {
		var err error
		if old, err = decodeHeader(raw); err != nil {
			return err
		}
		if err := deleteGame(tx, old); err != nil {
			return err
		}
	}
	if err := writeHeader(tx, nil, rec); err != nil {
		return err
	}
	return writeLog(tx, rec.Channel, rec.Log, 0)
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
func syncLog(tx *bolt.Tx, channel string, old, updated []LogEntry) error {
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
	if err := writeLog(tx, channel, updated, same); err != nil {
		return err
	}
	snap, err := readSnapshot(tx, channel)
	if err != nil || snap == nil || snap.Moves <= same {
		return err
	}
	return tx.Bucket(bucketSnapshots).Delete([]byte(channel))
}

func sameEntry(a, b LogEntry) bool {
	return a.Seat == b.Seat && a.Action == b.Action && a.Interaction == b.Interaction && a.At.Equal(b.At)
}
