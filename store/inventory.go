package store

import (
	"encoding/json"
	"fmt"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// Inventory is what a database holds, by server: what conductor reshard
// needs to decide which records belong in another shard's database.
type Inventory struct {
	// Guilds maps each guild id with records here ("" for DMs, "local" for
	// terminal games) to its counts: top-level keys per bucket, e.g.
	// Guilds[g]["games"] is its live games, ["archive"] its finished ones.
	Guilds map[string]map[string]int
	// Channels maps each channel with per-channel records to its guild, as
	// this file tells it (its live game, or an archived game's summary).
	Channels map[string]string
	// Unplaced counts, per channel and bucket, per-channel records of
	// channels whose guild this file does not tell: no live game there and
	// no archived game from there (another database may tell).
	Unplaced map[string]map[string]int
	// Unknown lists the top-level buckets not declared in ownership.go:
	// not counted, and Export refuses to run while they exist.
	Unknown []string
}

// GuildIDs returns the guilds with records, sorted.
func (inv *Inventory) GuildIDs() []string {
	ids := make([]string, 0, len(inv.Guilds))
	for g := range inv.Guilds {
		ids = append(ids, g)
	}
	sort.Strings(ids)
	return ids
}

// ChannelsOf returns the channels of guild with per-channel records, sorted.
func (inv *Inventory) ChannelsOf(guild string) []string {
	var chs []string
	for c, g := range inv.Channels {
		if g == guild {
			chs = append(chs, c)
		}
	}
	sort.Strings(chs)
	return chs
}

// Inventory counts the file's records by guild in one read transaction.
// Buckets it does not know are listed in Unknown, not counted.
func (s *Store) Inventory() (*Inventory, error) {
	f, err := s.fileOnly("counting a file's records by server", reshardInstead)
	if err != nil {
		return nil, err
	}
	if err := s.ready(); err != nil {
		return nil, err
	}
	inv := &Inventory{Guilds: map[string]map[string]int{}, Channels: map[string]string{}, Unplaced: map[string]map[string]int{}}
	add := func(guild, bucket string) {
		if inv.Guilds[guild] == nil {
			inv.Guilds[guild] = map[string]int{}
		}
		inv.Guilds[guild][bucket]++
	}
	err = f.db.View(func(tx *bolt.Tx) error {
		// Per-channel keys whose guild no live game tells, by bucket.
		pending := map[string]map[string]int{}
		err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			kind, err := bucketKind(name)
			if err != nil {
				inv.Unknown = append(inv.Unknown, string(name))
				return nil
			}
			bucket := string(name)
			if gameOwned(name) {
				// A game's log and snapshot move with it: not counted.
				return nil
			}
			switch kind {
			case perGuild:
				return b.ForEach(func(k, _ []byte) error {
					add(keyOwner(k), bucket)
					return nil
				})
			case perChannel:
				if bucket == string(bucketGames) {
					return b.ForEach(func(k, v []byte) error {
						head, err := decodeHeader(v)
						if err != nil {
							return fmt.Errorf("games/%s: %w", k, err)
						}
						inv.Channels[string(k)] = head.Guild
						add(head.Guild, bucket)
						return nil
					})
				}
				return b.ForEach(func(k, _ []byte) error {
					ch := keyOwner(k)
					if pending[ch] == nil {
						pending[ch] = map[string]int{}
					}
					pending[ch][bucket]++
					return nil
				})
			}
			return nil
		})
		if err != nil || len(pending) == 0 {
			return err
		}
		// Channels without a live game: their archived games tell the
		// guild. Only read the summaries when there is something to place.
		if err := archivedChannels(tx, pending, inv.Channels); err != nil {
			return err
		}
		for ch, counts := range pending {
			guild, ok := inv.Channels[ch]
			for bucket, n := range counts {
				if !ok {
					if inv.Unplaced[ch] == nil {
						inv.Unplaced[ch] = map[string]int{}
					}
					inv.Unplaced[ch][bucket] += n
					continue
				}
				for range n {
					add(guild, bucket)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return inv, nil
}

// archivedChannels records in channels the guild of each channel of wanted
// that the archive summaries name.
func archivedChannels(tx *bolt.Tx, wanted map[string]map[string]int, channels map[string]string) error {
	archive := tx.Bucket(bucketArchive)
	if archive == nil {
		return nil
	}
	return archive.ForEach(func(k, v []byte) error {
		var e struct {
			Channel string `json:"channel"`
		}
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("%w: archive entry %q: %v", errCorrupt, k, err)
		}
		if _, ok := wanted[e.Channel]; ok {
			if _, known := channels[e.Channel]; !known {
				channels[e.Channel] = keyOwner(k)
			}
		}
		return nil
	})
}
