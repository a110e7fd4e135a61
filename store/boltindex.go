package store

import (
	"bytes"
	"encoding/binary"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The indexes of a bbolt file: buckets derived from the games' headers,
// written in the transaction that writes the header (putHeader,
// deleteGame), built once when an older file is upgraded, and never moved
// between databases: Import and Remove re-derive them for the games they
// move.
//
//	index_guild/<guild> NUL <channel>     the game's status
//	index_parent/<parent> NUL <channel>   the seated members' ids, comma-separated
//	index_rematch/<game id>               the channel of the live game opened as its rematch
//	deadlines/<8-byte at> <channel>       Deadline.Kind
//
// A deadline's at is Unix nanoseconds with the sign bit flipped,
// big-endian, so that keys sort by time.
var (
	bucketIndexGuild   = []byte("index_guild")
	bucketIndexParent  = []byte("index_parent")
	bucketIndexRematch = []byte("index_rematch")
	bucketDeadlines    = []byte("deadlines")
)

// indexBuckets are the buckets derived from the games' headers.
var indexBuckets = [][]byte{bucketIndexGuild, bucketIndexParent, bucketIndexRematch, bucketDeadlines}

// indexEntry is one key a header puts in one index.
type indexEntry struct {
	bucket     []byte
	key, value []byte
}

// indexEntries are the index keys of the game rec in channel (nil: none).
func indexEntries(channel string, rec *GameRecord) []indexEntry {
	if rec == nil {
		return nil
	}
	out := []indexEntry{{bucketIndexGuild, pairKey(rec.Guild, channel), []byte(rec.Status)}}
	if p := rec.Options[optionParent]; p != "" {
		out = append(out, indexEntry{bucketIndexParent, pairKey(p, channel), []byte(strings.Join(members(rec), ","))})
	}
	if id := rec.Options[optionRematchOf]; id != "" {
		out = append(out, indexEntry{bucketIndexRematch, []byte(id), []byte(channel)})
	}
	if d := rec.Due; d != nil && !d.At.IsZero() {
		out = append(out, indexEntry{bucketDeadlines, dueKey(d.At, channel), []byte(d.Kind)})
	}
	return out
}

func pairKey(a, b string) []byte {
	return append(append([]byte(a), 0), b...)
}

func guildPrefix(guild string) []byte {
	return append([]byte(guild), 0)
}

func dueKey(at time.Time, channel string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(dueNanos(at))^(1<<63)), channel...)
}

func dueTime(key []byte) time.Time {
	return time.Unix(0, int64(binary.BigEndian.Uint64(key)^(1<<63))).UTC()
}

// reindex moves channel's index entries from what old said to what rec
// says (either may be nil).
func reindex(tx *bolt.Tx, channel string, old, rec *GameRecord) error {
	before, after := indexEntries(channel, old), indexEntries(channel, rec)
	for _, e := range before {
		if !hasEntry(after, e) {
			if err := tx.Bucket(e.bucket).Delete(e.key); err != nil {
				return err
			}
		}
	}
	for _, e := range after {
		if !hasEntry(before, e) {
			if err := tx.Bucket(e.bucket).Put(e.key, e.value); err != nil {
				return err
			}
		}
	}
	return nil
}

func hasEntry(es []indexEntry, e indexEntry) bool {
	for _, x := range es {
		if bytes.Equal(x.bucket, e.bucket) && bytes.Equal(x.key, e.key) && bytes.Equal(x.value, e.value) {
			return true
		}
	}
	return false
}

func hasPrefix(k, prefix []byte) bool {
	return len(k) >= len(prefix) && string(k[:len(prefix)]) == string(prefix)
}
