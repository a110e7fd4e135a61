package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// The bbolt file's buckets and keys (doc.go has the layout).
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

// decodeHeader reads a header as either backend stores it: GameRecord as
// JSON, without its log.
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

// notFound is the error for a channel without a live game.
func notFound(channel string) error {
	return fmt.Errorf("%w in channel %s", ErrNotFound, channel)
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
