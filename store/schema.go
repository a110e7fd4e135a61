package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CurrentSchema is the layout version of a bbolt file this code reads and
// writes (PostgreSQL has its own: pgschema.go).
const CurrentSchema = 3

// migration upgrades a file from one schema version to the next.
type migration struct {
	name string
	up   func(tx *bolt.Tx) error
}

// migrations[i] upgrades version i to i+1; len(migrations) == CurrentSchema.
var migrations = []migration{
	{"split each game's log into one key per entry and index interaction ids", migrate0to1},
	{"compact logs in chunks, and index games by server, parent channel, rematch and deadline", migrate1to2},
	{"keep the ratings' index and the servers' settings", migrate2to3},
}

// prepareSchema returns the file's schema version, first giving a brand-new
// (bucketless) file the current layout.
func prepareSchema(db *bolt.DB) (int, error) {
	var version int
	fresh := false
	// Opening an existing file writes nothing.
	err := db.View(func(tx *bolt.Tx) error {
		fresh = true
		tx.ForEach(func([]byte, *bolt.Bucket) error { fresh = false; return nil })
		if fresh {
			return nil
		}
		v, err := readVersion(tx)
		version = v
		return err
	})
	if err != nil || !fresh {
		return version, err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		empty := true
		tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if empty {
			if err := createBuckets(tx); err != nil {
				return err
			}
			version = CurrentSchema
			return writeVersion(tx, CurrentSchema)
		}
		v, err := readVersion(tx)
		version = v
		return err
	})
	return version, err
}

// readVersion reads meta/schema; a file without a meta bucket predates
// versioning and is version 0.
func readVersion(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	raw := meta.Get(keySchema)
	if raw == nil {
		return 0, nil
	}
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 0 {
		return 0, fmt.Errorf("store: unreadable schema version %q", raw)
	}
	return v, nil
}

func writeVersion(tx *bolt.Tx, v int) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	return meta.Put(keySchema, []byte(strconv.Itoa(v)))
}

func runMigrations(db *bolt.DB, steps []migration) (from, to int, err error) {
	err = db.View(func(tx *bolt.Tx) (err error) {
		from, err = readVersion(tx)
		return err
	})
	if err != nil {
		return 0, 0, err
	}
	if from > len(steps) {
		return from, from, fmt.Errorf("%w: version %d, this build knows up to %d",
			ErrSchemaTooNew, from, len(steps))
	}
	to = from
	for v := from; v < len(steps); v++ {
		err := db.Update(func(tx *bolt.Tx) error {
			tune(tx)
			if err := steps[v].up(tx); err != nil {
				return err
			}
			return writeVersion(tx, v+1)
		})
		if err != nil {
			return from, to, fmt.Errorf("store: migration %d->%d (%s): %w", v, v+1, steps[v].name, err)
		}
		to = v + 1
	}
	return from, to, nil
}

// createBuckets makes the top-level buckets of the current layout.
func createBuckets(tx *bolt.Tx) error {
	names := [][]byte{bucketMeta, bucketGames, bucketArchive, bucketArchivedGames, bucketOutbox}
	names = append(names, gameBuckets...)
	names = append(names, indexBuckets...)
	names = append(names, ratingBuckets...)
	for _, name := range names {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// migrate0to1 converts the unversioned layout, where games/<channel> held the
// whole GameRecord (log included) as one JSON value, into the
// version 1 layout (schema1.go).
func migrate0to1(tx *bolt.Tx) error {
	type oldGame struct {
		channel string
		rec     GameRecord
	}
	var old []oldGame
	if games := tx.Bucket(bucketGames); games != nil {
		err := games.ForEach(func(k, v []byte) error {
			if v == nil {
				return fmt.Errorf("games/%s is a bucket, not a version 0 record", k)
			}
			var g oldGame
			g.channel = string(k)
			if err := json.Unmarshal(v, &g.rec); err != nil {
				return fmt.Errorf("games/%s: %w", k, err)
			}
			old = append(old, g)
			return nil
		})
		if err != nil {
			return err
		}
		if err := tx.DeleteBucket(bucketGames); err != nil {
			return err
		}
	}
	for _, name := range [][]byte{bucketMeta, bucketGames, bucketArchive, bucketArchivedGames, bucketOutbox} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	games := tx.Bucket(bucketGames)
	for _, g := range old {
		// The key, not the JSON, decided which channel a version 0 game was in.
		g.rec.Channel = g.channel
		// Version 0 did not refuse replays, so an old log may repeat an id;
		// keep its history as it is and index the first use.
		if err := writeGameV1(games, &g.rec); err != nil {
			return fmt.Errorf("games/%s: %w", g.channel, err)
		}
	}
	return nil
}

// checkKind is the deadline an upgrade gives every live game: the service
// looks at each once and sets the deadline it needs (a turn timer, a bot's
// move), which only it knows how to compute. It is due since checkAt,
// the Unix epoch: due at once by any clock.
const checkKind = "check"

var checkAt = time.Unix(0, 0).UTC()

// migrate1to2 converts the version 1 layout (schema1.go), a bucket per
// game with a key per log entry, into the version 2 layout of doc.go, one
// game at a time, and builds the indexes. Every live game gets a deadline
// due at once (checkKind).
func migrate1to2(tx *bolt.Tx) error {
	if err := createBuckets(tx); err != nil {
		return err
	}
	tune(tx)
	games := tx.Bucket(bucketGames)
	t := &boltTx{tx: tx}
	var channels [][]byte
	err := games.ForEach(func(k, v []byte) error {
		if v != nil {
			return fmt.Errorf("games/%s is not a version 1 game bucket", k)
		}
		channels = append(channels, bytes.Clone(k))
		return nil
	})
	if err != nil {
		return err
	}
	for _, ch := range channels {
		rec, err := readGameV1(games.Bucket(ch))
		if err != nil {
			return fmt.Errorf("games/%s: %w", ch, err)
		}
		// The key, not the JSON, says which channel a game is in.
		rec.Channel = string(ch)
		if err := games.DeleteBucket(ch); err != nil {
			return err
		}
		rec.Due = &Deadline{At: checkAt, Kind: checkKind}
		if err := writeHeader(t, nil, rec); err != nil {
			return fmt.Errorf("games/%s: %w", ch, err)
		}
		if err := writeLog(t, rec.Channel, rec.Log, 0); err != nil {
			return fmt.Errorf("games/%s: %w", ch, err)
		}
	}
	return nil
}
