package store

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrUnknownBucket: the file holds a top-level bucket this build does not
// know how to assign to a server.
var ErrUnknownBucket = errors.New("store: unknown bucket")

// keying says whose records the keys of a top-level bucket are, so that the
// records of one server can be copied to another database (conductor
// reshard) without knowing each bucket's contents.
type keying int

const (
	// perDatabase buckets describe the file itself (schema, shard) and never move.
	perDatabase keying = iota + 1
	// perChannel keys start with a channel id, ended by a NUL byte or by
	// the key itself; the value may be a nested bucket (games/<channel>/...).
	perChannel
	// perGuild keys start with a guild id ended by a NUL byte (archive keys).
	perGuild
	// derived buckets are indexes computed from the games' headers
	// (index.go): never moved, but re-derived for the games that move.
	derived
)

// bucketKeying declares every top-level bucket. A bucket the file holds and
// this table does not know stops Inventory and Export with an error rather
// than being left behind: add every new top-level bucket here (a test
// checks that each bucket a fresh file gets is declared). A new per-channel
// bucket, such as a queue of pending posts per channel, needs only its line
// here to move with its channel's server.
var bucketKeying = map[string]keying{
	string(bucketMeta):          perDatabase,
	string(bucketShared):        perDatabase,
	string(bucketGames):         perChannel,
	string(bucketArchive):       perGuild,
	string(bucketArchivedGames): perGuild,
	string(bucketOutbox):        perChannel,
	string(bucketLogs):          perChannel,
	string(bucketSnapshots):     perChannel,
	string(bucketParked):        perChannel,
	string(bucketIndexGuild):    derived,
	string(bucketIndexParent):   derived,
	string(bucketIndexRematch):  derived,
	string(bucketDeadlines):     derived,
	// The ratings are derived from the archive, but per server: they move
	// with its archive (the same formula on both sides reads them).
	string(bucketRatings):       perGuild,
	string(bucketRatingRanks):   perGuild,
	string(bucketGuildSettings): perGuild,
}

// keyOwner returns the channel or guild id a key of a perChannel or perGuild
// bucket belongs to: the bytes before the first NUL, or the whole key.
func keyOwner(key []byte) string {
	if i := bytes.IndexByte(key, 0); i >= 0 {
		return string(key[:i])
	}
	return string(key)
}

// bucketKind looks a top-level bucket up in bucketKeying.
func bucketKind(name []byte) (keying, error) {
	k, ok := bucketKeying[string(name)]
	if !ok {
		return 0, fmt.Errorf("%w: top-level bucket %q is not declared in store/ownership.go; "+
			"this conductor does not know whose records it holds, so it will not move it "+
			"(use the conductor that wrote the file)", ErrUnknownBucket, name)
	}
	return k, nil
}
