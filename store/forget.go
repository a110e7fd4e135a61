package store

import (
	bolt "go.etcd.io/bbolt"
)

// ForgetGuild deletes every live and archived game of guild (for /ttr forget)
// in one transaction, and returns how many of each it removed. The guild
// index finds its live games.
func (s *Store) ForgetGuild(guild string) (live, archived int, err error) {
	if err := s.ready(); err != nil {
		return 0, 0, err
	}
	err = s.update(func(tx *bolt.Tx) error {
		live, archived = 0, 0
		for _, ch := range guildChannels(tx, guild) {
			old, err := readHeader(tx, ch)
			if err != nil {
				return err
			}
			if err := deleteGame(tx, old); err != nil {
				return err
			}
			live++
		}

		prefix := guildPrefix(guild)
		archive, archivedGames := tx.Bucket(bucketArchive), tx.Bucket(bucketArchivedGames)
		var keys [][]byte
		c := archive.Cursor()
		for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
			keys = append(keys, append([]byte(nil), k...))
		}
		// archived_games holds the same keys, but sweep its prefix too so a
		// record without a summary cannot survive.
		c = archivedGames.Cursor()
		for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
			if archive.Get(k) == nil {
				keys = append(keys, append([]byte(nil), k...))
			}
		}
		for _, k := range keys {
			if err := archive.Delete(k); err != nil {
				return err
			}
			if err := archivedGames.Delete(k); err != nil {
				return err
			}
		}
		archived = len(keys)
		return nil
	})
	return live, archived, err
}
