package store

import (
	"crypto/rand"
)

// keyReplay holds the secret that signs the public replay pages' links
// (web/): 32 random bytes, made on first use. A game's id is in every
// button, so a link must carry a signature a reader cannot forge. It is
// the database's, so that every process serving it signs alike.
const keyReplay = "replay-key"

// replayKeySize is the size of the replay key in bytes.
const replayKeySize = 32

// ReplayKey returns the database's replay-link key, making it on first use.
func (s *Store) ReplayKey() ([]byte, error) {
	var key []byte
	err := s.be.viewOne(func(t txn) error {
		v, err := t.meta(keyReplay)
		if len(v) == replayKeySize {
			key = append([]byte(nil), v...)
		}
		return err
	})
	if err != nil || key != nil {
		return key, err
	}
	err = s.update(func(t txn) error {
		// meta claims the key in a read-write transaction: of two
		// processes making it at once, the second finds the first's.
		v, err := t.meta(keyReplay)
		if err != nil {
			return err
		}
		if len(v) == replayKeySize {
			key = append([]byte(nil), v...) // made meanwhile
			return nil
		}
		key = make([]byte, replayKeySize)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		return t.putMeta(keyReplay, key)
	})
	return key, err
}
