package store

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The indexes find by key what a request needs, instead of reading every
// game: the live games of a server, the games played in the threads of a
// channel, the rematch of a game, and the deadlines (deadlines.go). They
// are derived from the games' headers, written in the transaction that
// writes the header (writeHeader, deleteGame), built once when an older
// file is upgraded, and never moved between databases: Import and Remove
// re-derive them for the games they move.
//
//	index_guild/<guild> NUL <channel>     the game's status
//	index_parent/<parent> NUL <channel>   the seated members' ids, comma-separated
//	index_rematch/<game id>               the channel of the live game opened as its rematch
//	deadlines/<at> <channel>              Deadline.Kind (deadlines.go)
var (
	bucketIndexGuild   = []byte("index_guild")
	bucketIndexParent  = []byte("index_parent")
	bucketIndexRematch = []byte("index_rematch")
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
	if p := rec.Options["parent"]; p != "" {
		out = append(out, indexEntry{bucketIndexParent, pairKey(p, channel), []byte(strings.Join(members(rec), ","))})
	}
	if id := rec.Options["rematch_of"]; id != "" {
		out = append(out, indexEntry{bucketIndexRematch, []byte(id), []byte(channel)})
	}
	if d := rec.Due; d != nil && !d.At.IsZero() {
		out = append(out, indexEntry{bucketDeadlines, dueKey(d.At, channel), []byte(d.Kind)})
	}
	return out
}

// members are the ids of the people seated at a table.
func members(rec *GameRecord) []string {
	var ids []string
	for _, st := range rec.Seats {
		if st.Bot == "" && st.UserID != "" {
			ids = append(ids, st.UserID)
		}
	}
	return ids
}

func pairKey(a, b string) []byte {
	return append(append([]byte(a), 0), b...)
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

// Thread is a live game played in a thread of a channel.
type Thread struct {
	Channel string   // the thread
	Members []string // the ids of the people seated there
}

// Threads lists the live games played in threads of parent, by thread id.
func (s *Store) Threads(parent string) ([]Thread, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var out []Thread
	prefix := channelPrefix(parent)
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketIndexParent).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			th := Thread{Channel: string(k[len(prefix):])}
			if len(v) > 0 {
				th.Members = strings.Split(string(v), ",")
			}
			out = append(out, th)
		}
		return nil
	})
	return out, err
}

// RematchOf returns the channel of the live game opened as the rematch of
// game id, or ErrNotFound.
func (s *Store) RematchOf(id string) (string, error) {
	if err := s.ready(); err != nil {
		return "", err
	}
	var ch string
	err := s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketIndexRematch).Get([]byte(id))
		if v == nil {
			return fmt.Errorf("%w: no rematch of game %s", ErrNotFound, id)
		}
		ch = string(v)
		return nil
	})
	return ch, err
}

// guildChannels lists the channels of guild's live games.
func guildChannels(tx *bolt.Tx, guild string) []string {
	var out []string
	prefix := guildPrefix(guild)
	c := tx.Bucket(bucketIndexGuild).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, string(k[len(prefix):]))
	}
	return out
}

// Guilds lists the servers with live or archived games here, sorted, at
// the cost of one seek per server: a NUL ends each guild id in the keys
// of the guild index and of the archive, so the next server's keys start
// just after guild+"\x01".
func (s *Store) Guilds() ([]string, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketIndexGuild, bucketArchive} {
			c := tx.Bucket(b).Cursor()
			for k, _ := c.First(); k != nil; {
				g := keyOwner(k)
				seen[g] = true
				k, _ = c.Seek(append([]byte(g), 1))
			}
		}
		return nil
	})
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out, err
}

// GuildCounts counts a server's live and archived games.
func (s *Store) GuildCounts(guild string) (live, archived int, err error) {
	if err := s.ready(); err != nil {
		return 0, 0, err
	}
	prefix := guildPrefix(guild)
	err = s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketIndexGuild).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			live++
		}
		c = tx.Bucket(bucketArchive).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			archived++
		}
		return nil
	})
	return live, archived, err
}
