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
	bucketArchive       = []byte("archive")
	bucketArchivedGames = []byte("archived_games")
	keySchema           = []byte("schema")
	keyRecord           = []byte("record")
	bucketLog           = []byte("log")
	bucketInteractions  = []byte("interactions")
)

// errCorrupt marks data this code did not write in the shape it expects.
var errCorrupt = errors.New("store: corrupt game data")

func logKey(n int) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(n))
}

// readGame reads the whole record kept in game bucket gb.
func readGame(gb *bolt.Bucket) (*GameRecord, error) {
	rec, err := readHeader(gb)
	if err != nil {
		return nil, err
	}
	if err := readBody(gb, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// readBody adds the log of game bucket gb to its header rec.
func readBody(gb *bolt.Bucket, rec *GameRecord) error {
	lb := gb.Bucket(bucketLog)
	if lb == nil {
		return fmt.Errorf("%w: game %s has no log bucket", errCorrupt, rec.Channel)
	}
	if n := logLen(lb); n > 0 {
		rec.Log = make([]LogEntry, 0, n)
	}
	c := lb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if binary.BigEndian.Uint64(k) != uint64(len(rec.Log)) {
			return fmt.Errorf("%w: game %s log has a gap at entry %d", errCorrupt, rec.Channel, len(rec.Log))
		}
		var e LogEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("%w: game %s log entry %d: %v", errCorrupt, rec.Channel, len(rec.Log), err)
		}
		rec.Log = append(rec.Log, e)
	}
	return nil
}

// readHeader reads a game's record without its log.
func readHeader(gb *bolt.Bucket) (*GameRecord, error) {
	raw := gb.Get(keyRecord)
	if raw == nil {
		return nil, fmt.Errorf("%w: game bucket without a record", errCorrupt)
	}
	var rec GameRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	return &rec, nil
}

// writeHeader stores rec without its log, times in UTC.
func writeHeader(gb *bolt.Bucket, rec *GameRecord) error {
	h := *rec
	h.Log = nil
	h.Created, h.Updated = h.Created.UTC(), h.Updated.UTC()
	data, err := json.Marshal(&h)
	if err != nil {
		return err
	}
	return gb.Put(keyRecord, data)
}

// writeGame replaces whatever is stored for rec.Channel with rec. When strict,
// a log that repeats an interaction id is refused with ErrDuplicate.
func writeGame(games *bolt.Bucket, rec *GameRecord, strict bool) error {
	key := []byte(rec.Channel)
	if games.Bucket(key) != nil {
		if err := games.DeleteBucket(key); err != nil {
			return err
		}
	}
	gb, err := games.CreateBucket(key)
	if err != nil {
		return err
	}
	if err := writeHeader(gb, rec); err != nil {
		return err
	}
	lb, err := gb.CreateBucket(bucketLog)
	if err != nil {
		return err
	}
	ib, err := gb.CreateBucket(bucketInteractions)
	if err != nil {
		return err
	}
	for n, e := range rec.Log {
		if err := putEntry(lb, ib, n, e, strict); err != nil {
			return err
		}
	}
	return nil
}

// putEntry stores entry n and indexes its interaction id.
func putEntry(lb, ib *bolt.Bucket, n int, e LogEntry, strict bool) error {
	key := logKey(n)
	if e.Interaction != "" {
		id := []byte(e.Interaction)
		if ib.Get(id) != nil {
			if strict {
				return ErrDuplicate
			}
		} else if err := ib.Put(id, key); err != nil {
			return err
		}
	}
	e.At = e.At.UTC()
	data, err := json.Marshal(&e)
	if err != nil {
		return err
	}
	return lb.Put(key, data)
}

// logLen is the number of entries in log bucket lb (keys run 0..n-1).
func logLen(lb *bolt.Bucket) int {
	k, _ := lb.Cursor().Last()
	if k == nil {
		return 0
	}
	return int(binary.BigEndian.Uint64(k)) + 1
}

// syncLog rewrites the stored log from old to updated, touching only the
// entries after their common prefix (usually none, or the appended ones).
func syncLog(gb *bolt.Bucket, old, updated []LogEntry) error {
	lb, ib := gb.Bucket(bucketLog), gb.Bucket(bucketInteractions)
	if lb == nil || ib == nil {
		return fmt.Errorf("%w: game without log buckets", errCorrupt)
	}
	same := 0
	for same < len(old) && same < len(updated) && sameEntry(old[same], updated[same]) {
		same++
	}
	for n := same; n < len(old); n++ {
		key := logKey(n)
		if err := lb.Delete(key); err != nil {
			return err
		}
		if id := []byte(old[n].Interaction); len(id) > 0 && bytes.Equal(ib.Get(id), key) {
			if err := ib.Delete(id); err != nil {
				return err
			}
		}
	}
	for n := same; n < len(updated); n++ {
		if err := putEntry(lb, ib, n, updated[n], true); err != nil {
			return err
		}
	}
	return nil
}

func sameEntry(a, b LogEntry) bool {
	return a.Seat == b.Seat && a.Action == b.Action && a.Interaction == b.Interaction && a.At.Equal(b.At)
}
