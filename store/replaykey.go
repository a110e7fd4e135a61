package store

import (
	"crypto/rand"
	"errors"

	bolt "go.etcd.io/bbolt"
)

// keyReplay holds the secret that signs the public replay pages' links
// (web/): 32 random bytes, made on first use. A game's id is in every
// button, so a link must carry a signature a reader cannot forge.
var keyReplay = []byte("replay-key")

// replayKeySize is the size of the replay key in bytes.
const replayKeySize = 32

// ReplayKey returns the database's replay-link key, making it on first use.
func (s *Store) ReplayKey() ([]byte, error) {
	var key []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		if meta := tx.Bucket(bucketMeta); meta != nil {
			if v := meta.Get(keyReplay); len(v) == replayKeySize {
				key = append([]byte(nil), v...)
			}
		}
		return nil
	})
	if err != nil || key != nil {
		return key, err
	}
	if err := s.ready(); err != nil {
		return nil, err
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			return errors.New("store: no meta bucket")
		}
		if v := meta.Get(keyReplay); len(v) == replayKeySize {
			key = append([]byte(nil), v...) // made meanwhile
			return nil
		}
		key = make([]byte, replayKeySize)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		return meta.Put(keyReplay, key)
	})
	return key, err
}
