package store

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// ErrConflict: a record to import differs from one the database already
// holds under the same key (see Conflict).
var ErrConflict = errors.New("store: conflicting records")

// reshardInstead says why PostgreSQL needs no reshard.
const reshardInstead = "conductor reshard moves games between the bbolt files of shards; on PostgreSQL every shard shares one database, so changing the shard count is a restart and no game moves"

// Selection names the records of one server: the per-guild records of
// Guild and the per-channel records of Channels (the server's channels, as
// Inventory tells them).
type Selection struct {
	Guild    string
	Channels []string
}

// Bundle is a copy of the records of a Selection, taken from one database
// in one read transaction, to be written to another with Import and then
// deleted from the first with Remove.
type Bundle struct {
	Selection
	buckets []node // top-level buckets with their selected keys, in key order
}

// node is a key with its value, or with a nested bucket (deep).
type node struct {
	key    []byte
	value  []byte
	bucket []node
	nested bool
}

// Counts returns the number of top-level keys per bucket, e.g. "games": 2,
// leaving out the records a game owns besides its header (its log).
func (b *Bundle) Counts() map[string]int {
	c := map[string]int{}
	for _, top := range b.buckets {
		if !gameOwned(top.key) { // a game's log and snapshot go with it
			c[string(top.key)] = len(top.bucket)
		}
	}
	return c
}

// Empty reports whether the bundle holds no record.
func (b *Bundle) Empty() bool {
	for _, top := range b.buckets {
		if len(top.bucket) > 0 {
			return false
		}
	}
	return true
}

// Conflict is one key held by both databases with different contents.
type Conflict struct {
	Bucket, Key string
	// Detail says what differs, e.g. the two game ids of a channel.
	Detail string
}

func (c Conflict) String() string {
	return fmt.Sprintf("%s/%s: %s", c.Bucket, c.Key, c.Detail)
}

// ConflictError lists every conflict found; nothing was written.
type ConflictError struct {
	Path      string
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	parts := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		parts[i] = c.String()
	}
	return fmt.Sprintf("%s already holds different records under the same keys: %s", e.Path, strings.Join(parts, "; "))
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

// Export copies the records of sel, in one read transaction. Every
// top-level bucket must be declared in bucketKeying.
func (s *Store) Export(sel Selection) (*Bundle, error) {
	f, err := s.fileOnly("moving a server's games", reshardInstead)
	if err != nil {
		return nil, err
	}
	if err := s.ready(); err != nil {
		return nil, err
	}
	channels := map[string]bool{}
	for _, c := range sel.Channels {
		channels[c] = true
	}
	b := &Bundle{Selection: sel}
	err = f.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, bk *bolt.Bucket) error {
			kind, err := bucketKind(name)
			if err != nil {
				return err
			}
			if kind == perDatabase || kind == derived {
				return nil
			}
			top := node{key: clone(name), nested: true}
			err = bk.ForEach(func(k, v []byte) error {
				owner := keyOwner(k)
				if kind == perGuild && owner != sel.Guild {
					return nil
				}
				if kind == perChannel && !channels[owner] {
					return nil
				}
				top.bucket = append(top.bucket, copyNode(bk, k, v))
				return nil
			})
			if err != nil {
				return err
			}
			if len(top.bucket) > 0 {
				b.buckets = append(b.buckets, top)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// copyNode copies key k of bucket parent (value v, nil for a nested bucket).
func copyNode(parent *bolt.Bucket, k, v []byte) node {
	n := node{key: clone(k)}
	if v != nil {
		n.value = clone(v)
		return n
	}
	n.nested = true
	sub := parent.Bucket(k)
	sub.ForEach(func(k2, v2 []byte) error {
		n.bucket = append(n.bucket, copyNode(sub, k2, v2))
		return nil
	})
	return n
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// Comparison is what a database already holds of a bundle.
type Comparison struct {
	// Conflicts are the keys held with different contents: Import would
	// refuse the bundle.
	Conflicts []Conflict
	// Held counts, per bucket, the keys held already (the same contents, or
	// a copy of the same game): importing leaves one copy of each.
	Held map[string]int
}

// Compare says what importing b would meet here, without writing anything.
// See Import for what is not a conflict.
func (s *Store) Compare(b *Bundle) (*Comparison, error) {
	f, err := s.fileOnly("moving a server's games", reshardInstead)
	if err != nil {
		return nil, err
	}
	if err := s.ready(); err != nil {
		return nil, err
	}
	var c *Comparison
	err = f.db.View(func(tx *bolt.Tx) (err error) {
		c, _, err = plan(tx, b)
		return err
	})
	return c, err
}

// Keys returns the bundle's top-level keys as "bucket/key" (NUL shown as
// '/'), to tell whether two bundles overlap.
func (b *Bundle) Keys() []string {
	var keys []string
	for _, top := range b.buckets {
		if gameOwned(top.key) { // they go with the game's key
			continue
		}
		for _, n := range top.bucket {
			keys = append(keys, string(top.key)+"/"+printable(n.key))
		}
	}
	return keys
}

// Import writes the records of b in one transaction. A key this database
// already holds with the same contents is left as it is, so importing twice
// changes nothing. A live game already here with the same game id (an
// earlier copy of the same game) is replaced only when b's copy was updated
// later. Any other difference is a conflict: Import then writes nothing and
// returns a *ConflictError.
func (s *Store) Import(b *Bundle) error {
	f, err := s.fileOnly("moving a server's games", reshardInstead)
	if err != nil {
		return err
	}
	if err := s.ready(); err != nil {
		return err
	}
	return f.db.Update(func(tx *bolt.Tx) error {
		tune(tx)
		cmp, writes, err := plan(tx, b)
		if err != nil {
			return err
		}
		if len(cmp.Conflicts) > 0 {
			return &ConflictError{Path: f.path, Conflicts: cmp.Conflicts}
		}
		for _, w := range writes {
			parent, err := tx.CreateBucketIfNotExists(w.bucket)
			if err != nil {
				return err
			}
			if w.clear != "" {
				// A game replaced by a newer copy: its records here go.
				prefix := channelPrefix(w.clear)
				if err := deleteKeys(parent, prefix, prefix); err != nil {
					return err
				}
				if err := parent.Delete([]byte(w.clear)); err != nil {
					return err
				}
				continue
			}
			var old *GameRecord
			if bytes.Equal(w.bucket, bucketGames) {
				if raw := parent.Get(w.n.key); raw != nil {
					if old, err = decodeHeader(raw); err != nil {
						return err
					}
				}
			}
			if parent.Bucket(w.n.key) != nil {
				if err := parent.DeleteBucket(w.n.key); err != nil {
					return err
				}
			}
			if err := writeNode(parent, w.n); err != nil {
				return err
			}
			if bytes.Equal(w.bucket, bucketGames) {
				rec, err := decodeHeader(w.n.value)
				if err != nil {
					return err
				}
				if err := reindex(tx, string(w.n.key), old, rec); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// write is one top-level key Import stores, or (clear) the channel whose
// records in bucket it first removes.
type write struct {
	bucket []byte
	n      node
	clear  string
}

// gameOwned says whether a bucket holds a live game's records besides its
// header: they follow the decision taken for the game.
func gameOwned(bucket []byte) bool {
	for _, b := range gameBuckets {
		if bytes.Equal(b, bucket) {
			return true
		}
	}
	return false
}

// Decisions about a live game held by both sides.
const (
	gameNew = iota + 1
	gameReplace
	gameHeld
	gameConflict
)

// plan compares b with what tx holds: what it finds, and the keys to write.
// Live games are decided first; the records a game owns in other buckets
// (its log, snapshot, parked state) follow its decision.
func plan(tx *bolt.Tx, b *Bundle) (*Comparison, []write, error) {
	cmp := &Comparison{Held: map[string]int{}}
	var writes []write
	decided := map[string]int{}
	for _, top := range b.buckets {
		if _, err := bucketKind(top.key); err != nil {
			return nil, nil, err
		}
		if !bytes.Equal(top.key, bucketGames) {
			continue
		}
		have := tx.Bucket(top.key)
		for _, n := range top.bucket {
			ch := string(n.key)
			if have == nil || have.Get(n.key) == nil {
				decided[ch] = gameNew
				writes = append(writes, write{bucket: top.key, n: n})
				continue
			}
			replace, c, err := compareGames(have, n)
			switch {
			case err != nil:
				return nil, nil, err
			case c != nil:
				decided[ch] = gameConflict
				cmp.Conflicts = append(cmp.Conflicts, *c)
			case replace:
				decided[ch] = gameReplace
				cmp.Held[string(top.key)]++
				writes = append(writes, write{bucket: top.key, n: n})
			default:
				decided[ch] = gameHeld
				cmp.Held[string(top.key)]++
			}
		}
	}
	for _, top := range b.buckets {
		if bytes.Equal(top.key, bucketGames) {
			continue
		}
		bucket := string(top.key)
		have := tx.Bucket(top.key)
		cleared := map[string]bool{}
		for _, n := range top.bucket {
			if gameOwned(top.key) {
				ch := keyOwner(n.key)
				switch decided[ch] {
				case gameNew, gameReplace:
					if decided[ch] == gameReplace && !cleared[ch] {
						cleared[ch] = true
						writes = append(writes, write{bucket: top.key, clear: ch})
					}
					writes = append(writes, write{bucket: top.key, n: n})
					continue
				case gameHeld, gameConflict:
					continue // counted with the game
				}
			}
			if have == nil || (have.Get(n.key) == nil && have.Bucket(n.key) == nil) {
				writes = append(writes, write{bucket: top.key, n: n})
				continue
			}
			if sameNode(have, n) {
				cmp.Held[bucket]++
			} else {
				cmp.Conflicts = append(cmp.Conflicts, Conflict{Bucket: bucket, Key: printable(n.key), Detail: "different contents"})
			}
		}
	}
	// A replaced game's records that the incoming copy lacks go too.
	for ch, d := range decided {
		if d != gameReplace {
			continue
		}
		for _, gb := range gameBuckets {
			if !b.has(gb, ch) {
				writes = append(writes, write{bucket: gb, clear: ch})
			}
		}
	}
	sort.SliceStable(cmp.Conflicts, func(i, j int) bool { return cmp.Conflicts[i].String() < cmp.Conflicts[j].String() })
	return cmp, writes, nil
}

// has says whether the bundle holds records of channel in bucket.
func (b *Bundle) has(bucket []byte, channel string) bool {
	for _, top := range b.buckets {
		if !bytes.Equal(top.key, bucket) {
			continue
		}
		for _, n := range top.bucket {
			if keyOwner(n.key) == channel {
				return true
			}
		}
	}
	return false
}

// compareGames decides about a live game held by both sides: the same game
// (same id) is replaced when the incoming copy is newer; two different
// games in one channel are a conflict.
func compareGames(games *bolt.Bucket, in node) (replace bool, c *Conflict, err error) {
	here, err := decodeHeader(games.Get(in.key))
	if err != nil {
		return false, nil, err
	}
	incoming, err := decodeHeader(in.value)
	if err != nil {
		return false, nil, err
	}
	if here.ID != incoming.ID {
		return false, &Conflict{Bucket: string(bucketGames), Key: string(in.key), Detail: fmt.Sprintf(
			"two different games in this channel: %s (updated %s) here, %s (updated %s) incoming",
			here.ID, here.Updated.Format("2006-01-02 15:04"), incoming.ID, incoming.Updated.Format("2006-01-02 15:04"))}, nil
	}
	return incoming.Updated.After(here.Updated), nil, nil
}

// sameNode reports whether parent holds n exactly (value, or nested bucket
// with the same keys and values, deep).
func sameNode(parent *bolt.Bucket, n node) bool {
	if !n.nested {
		v := parent.Get(n.key)
		return v != nil && parent.Bucket(n.key) == nil && bytes.Equal(v, n.value)
	}
	sub := parent.Bucket(n.key)
	if sub == nil {
		return false
	}
	count := 0
	sub.ForEach(func([]byte, []byte) error { count++; return nil })
	if count != len(n.bucket) {
		return false
	}
	for _, c := range n.bucket {
		if !sameNode(sub, c) {
			return false
		}
	}
	return true
}

func writeNode(parent *bolt.Bucket, n node) error {
	if !n.nested {
		return parent.Put(n.key, n.value)
	}
	sub, err := parent.CreateBucket(n.key)
	if err != nil {
		return err
	}
	for _, c := range n.bucket {
		if err := writeNode(sub, c); err != nil {
			return err
		}
	}
	return nil
}

// Remove deletes the records of b from this database in one transaction:
// the last step of moving them, once Import into the other database has
// committed. Keys already gone are skipped, so removing twice is harmless.
func (s *Store) Remove(b *Bundle) error {
	f, err := s.fileOnly("moving a server's games", reshardInstead)
	if err != nil {
		return err
	}
	if err := s.ready(); err != nil {
		return err
	}
	return f.db.Update(func(tx *bolt.Tx) error {
		tune(tx)
		for _, top := range b.buckets {
			have := tx.Bucket(top.key)
			if have == nil {
				continue
			}
			for _, n := range top.bucket {
				if bytes.Equal(top.key, bucketGames) {
					if raw := have.Get(n.key); raw != nil {
						old, err := decodeHeader(raw)
						if err != nil {
							return err
						}
						if err := reindex(tx, string(n.key), old, nil); err != nil {
							return err
						}
					}
				}
				var err error
				switch {
				case have.Bucket(n.key) != nil:
					err = have.DeleteBucket(n.key)
				case have.Get(n.key) != nil:
					err = have.Delete(n.key)
				}
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// printable shows a key with its NUL separators as '/'.
func printable(k []byte) string {
	return strings.ReplaceAll(string(k), "\x00", "/")
}
