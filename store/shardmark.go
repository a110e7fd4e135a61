package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Keys of the meta bucket that record how a bbolt file is used when the
// bot runs sharded, one file per shard (see doc.go). Older files lack them,
// which is not an error. A PostgreSQL database has no such mark: every
// shard shares it.
var (
	keyShard   = []byte("shard")   // "id/count": the shard this file was last served as
	keyReshard = []byte("reshard") // "from/to": a conductor reshard that has not finished
)

// shardInstead says why PostgreSQL has no shard mark.
const shardInstead = "on PostgreSQL every shard shares the database, and which process serves which shards is not kept in it this way (docs/scale.md)"

// ShardIdentity is the gateway shard a database serves: shard ID of Count.
type ShardIdentity struct {
	ID, Count int
}

func (id ShardIdentity) String() string {
	return fmt.Sprintf("shard %d of %d", id.ID, id.Count)
}

// Shard returns the shard the file was last served as; ok is false when no
// shard was ever recorded (a file from before shards were recorded, or one
// never served by the bot).
func (s *Store) Shard() (id ShardIdentity, ok bool, err error) {
	f, err := s.fileOnly("the shard mark", shardInstead)
	if err != nil {
		return id, false, err
	}
	err = f.db.View(func(tx *bolt.Tx) error {
		id, ok, err = readPair(tx, keyShard)
		return err
	})
	return id, ok, err
}

// SetShard records the shard the file is served as; a zero Count erases the
// record (a file emptied by a reshard to fewer shards serves none).
func (s *Store) SetShard(id ShardIdentity) error {
	if id.Count != 0 && (id.Count < 1 || id.ID < 0 || id.ID >= id.Count) {
		return fmt.Errorf("store: %v is not a shard", id)
	}
	return s.writePair(keyShard, id.ID, id.Count, id.Count != 0)
}

// ReshardPending returns the shard counts of a reshard that marked this
// file and has not finished; ok is false when there is none.
func (s *Store) ReshardPending() (from, to int, ok bool, err error) {
	f, err := s.fileOnly("the reshard mark", shardInstead)
	if err != nil {
		return 0, 0, false, err
	}
	err = f.db.View(func(tx *bolt.Tx) error {
		var p ShardIdentity
		p, ok, err = readPair(tx, keyReshard)
		from, to = p.ID, p.Count
		return err
	})
	return from, to, ok, err
}

// SetReshardPending marks the file as being resharded from one shard count
// to another; the bot refuses to serve a marked file.
func (s *Store) SetReshardPending(from, to int) error {
	return s.writePair(keyReshard, from, to, true)
}

// ClearReshardPending removes the mark once the reshard is complete.
func (s *Store) ClearReshardPending() error {
	return s.writePair(keyReshard, 0, 0, false)
}

func readPair(tx *bolt.Tx, key []byte) (ShardIdentity, bool, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return ShardIdentity{}, false, nil
	}
	raw := meta.Get(key)
	if raw == nil {
		return ShardIdentity{}, false, nil
	}
	var p ShardIdentity
	if _, err := fmt.Sscanf(string(raw), "%d/%d", &p.ID, &p.Count); err != nil {
		return p, false, fmt.Errorf("%w: meta/%s is %q", errCorrupt, key, raw)
	}
	return p, true, nil
}

func (s *Store) writePair(key []byte, a, b int, set bool) error {
	f, err := s.fileOnly("the shard mark", shardInstead)
	if err != nil {
		return err
	}
	if err := s.ready(); err != nil {
		return err
	}
	return f.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return errors.New("store: no meta bucket")
		}
		if !set {
			return meta.Delete(key)
		}
		return meta.Put(key, fmt.Appendf(nil, "%d/%d", a, b))
	})
}
