package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The layout of schema version 1, kept as it was for the upgrades that
// read or write it (0 → 1 → 2):
//
//	games/<channel>/record              GameRecord as JSON, without Log
//	games/<channel>/log/<n>             LogEntry n as JSON, n as 8-byte big-endian
//	games/<channel>/interactions/<id>   index n of the entry that applied it

var (
	v1Record       = []byte("record")
	v1Log          = []byte("log")
	v1Interactions = []byte("interactions")
)

// readGameV1 reads the whole record kept in a version 1 game bucket.
func readGameV1(gb *bolt.Bucket) (*GameRecord, error) {
	raw := gb.Get(v1Record)
	if raw == nil {
		return nil, fmt.Errorf("%w: game bucket without a record", errCorrupt)
	}
	var rec GameRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	lb := gb.Bucket(v1Log)
	if lb == nil {
		return nil, fmt.Errorf("%w: game %s has no log bucket", errCorrupt, rec.Channel)
	}
	c := lb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(len(rec.Log)) {
			return nil, fmt.Errorf("%w: game %s log has a gap at entry %d", errCorrupt, rec.Channel, len(rec.Log))
		}
		var e LogEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return nil, fmt.Errorf("%w: game %s log entry %d: %v", errCorrupt, rec.Channel, len(rec.Log), err)
		}
		rec.Log = append(rec.Log, e)
	}
	return &rec, nil
}

// writeGameV1 stores rec in the version 1 layout, indexing the first use
// of each interaction id (version 0 logs may repeat one).
func writeGameV1(games *bolt.Bucket, rec *GameRecord) error {
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
	h := *rec
	h.Log = nil
	h.Created, h.Updated = h.Created.UTC(), h.Updated.UTC()
	data, err := json.Marshal(&h)
	if err != nil {
		return err
	}
	if err := gb.Put(v1Record, data); err != nil {
		return err
	}
	lb, err := gb.CreateBucket(v1Log)
	if err != nil {
		return err
	}
	ib, err := gb.CreateBucket(v1Interactions)
	if err != nil {
		return err
	}
	for n, e := range rec.Log {
		key := binary.BigEndian.AppendUint64(nil, uint64(n))
		if id := []byte(e.Interaction); len(id) > 0 && ib.Get(id) == nil {
			if err := ib.Put(id, key); err != nil {
				return err
			}
		}
		e.At = e.At.UTC()
		data, err := json.Marshal(&e)
		if err != nil {
			return err
		}
		if err := lb.Put(key, data); err != nil {
			return err
		}
	}
	return nil
}
