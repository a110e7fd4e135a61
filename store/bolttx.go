package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// boltTx is a transaction on a bbolt file, on the layout of doc.go. bbolt
// has one writer at a time: claiming a game or a queue is a no-op.
type boltTx struct {
	tx      *bolt.Tx
	leases  *memoryLeases
	changed []string // channels to tell the subscribers of, after the commit
}

var _ txn = (*boltTx)(nil)

func (t *boltTx) header(channel string) (*GameRecord, error) {
	raw := t.tx.Bucket(bucketGames).Get([]byte(channel))
	if raw == nil {
		return nil, notFound(channel)
	}
	return decodeHeader(raw)
}

func (t *boltTx) putHeader(old, h *GameRecord) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	if err := t.tx.Bucket(bucketGames).Put([]byte(h.Channel), data); err != nil {
		return err
	}
	if afterHeader != nil {
		afterHeader()
	}
	return reindex(t.tx, h.Channel, old, h)
}

// afterHeader, in tests, runs between a header and its index entries.
var afterHeader func()

func (t *boltTx) deleteGame(old *GameRecord) error {
	return deleteGame(t.tx, old)
}

// deleteGame removes everything of the live game old in its channel.
func deleteGame(tx *bolt.Tx, old *GameRecord) error {
	ch := []byte(old.Channel)
	if err := tx.Bucket(bucketGames).Delete(ch); err != nil {
		return err
	}
	prefix := channelPrefix(old.Channel)
	if err := deleteKeys(tx.Bucket(bucketLogs), prefix, prefix); err != nil {
		return err
	}
	for _, b := range [][]byte{bucketSnapshots, bucketParked} {
		if err := tx.Bucket(b).Delete(ch); err != nil {
			return err
		}
	}
	return reindex(tx, old.Channel, old, nil)
}

// deleteKeys deletes the keys of b from start on that have prefix.
func deleteKeys(b *bolt.Bucket, start, prefix []byte) error {
	// Collect first: deleting under a running cursor can skip keys.
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(start); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// chunkIndex reads the chunk number of a log key of prefix; -1 for a key
// of another shape (which readLog reports as a gap).
func chunkIndex(k, prefix []byte) int {
	if len(k) != len(prefix)+4 {
		return -1
	}
	return int(binary.BigEndian.Uint32(k[len(prefix):]))
}

func (t *boltTx) loadGame(channel string, log, extras bool) (*gameParts, error) {
	h, err := t.header(channel)
	if err != nil {
		return nil, err
	}
	p := &gameParts{header: h}
	if log {
		if p.chunks, err = t.chunks(channel); err != nil {
			return nil, err
		}
	}
	if extras {
		p.snapshot, _ = t.blob(blobSnapshot, channel)
		p.parked, _ = t.blob(blobParked, channel)
	}
	return p, nil
}

func (t *boltTx) chunks(channel string) ([]chunk, error) {
	prefix := channelPrefix(channel)
	c := t.tx.Bucket(bucketLogs).Cursor()
	var out []chunk
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		out = append(out, chunk{I: chunkIndex(k, prefix), Data: v})
	}
	return out, nil
}

func (t *boltTx) lastChunks(channel string) ([]chunk, error) {
	prefix := channelPrefix(channel)
	c := t.tx.Bucket(bucketLogs).Cursor()
	// Every key of the channel sorts below channel+"\x01".
	var k, v []byte
	if k, _ = c.Seek(append([]byte(channel), 1)); k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	var out []chunk
	for len(out) < 2 && k != nil && bytes.HasPrefix(k, prefix) {
		i := chunkIndex(k, prefix)
		if i < 0 {
			return nil, fmt.Errorf("%w: game %s log key %q", errCorrupt, channel, k)
		}
		out = append(out, chunk{I: i, Data: v})
		k, v = c.Prev()
	}
	return out, nil
}

func (t *boltTx) putChunk(channel string, i int, data []byte) error {
	return t.tx.Bucket(bucketLogs).Put(chunkKey(channel, i), data)
}

func (t *boltTx) deleteChunks(channel string, from int) error {
	return deleteKeys(t.tx.Bucket(bucketLogs), chunkKey(channel, from), channelPrefix(channel))
}

func blobBucket(kind blobKind) []byte {
	if kind == blobSnapshot {
		return bucketSnapshots
	}
	return bucketParked
}

func (t *boltTx) blob(kind blobKind, channel string) ([]byte, error) {
	return t.tx.Bucket(blobBucket(kind)).Get([]byte(channel)), nil
}

func (t *boltTx) putBlob(kind blobKind, channel string, data []byte) error {
	return t.tx.Bucket(blobBucket(kind)).Put([]byte(channel), data)
}

func (t *boltTx) deleteBlob(kind blobKind, channel string) error {
	return t.tx.Bucket(blobBucket(kind)).Delete([]byte(channel))
}

func (t *boltTx) eachHeader(fn func(*GameRecord) error) error {
	return t.tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		rec, err := decodeHeader(v)
		if err != nil {
			return fmt.Errorf("games/%s: %w", k, err)
		}
		return fn(rec)
	})
}

func (t *boltTx) guildGames(guild string) ([]guildGame, error) {
	var out []guildGame
	prefix := guildPrefix(guild)
	c := t.tx.Bucket(bucketIndexGuild).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		out = append(out, guildGame{Channel: string(k[len(prefix):]), Status: string(v)})
	}
	return out, nil
}

func (t *boltTx) threads(parent string) ([]Thread, error) {
	var out []Thread
	prefix := channelPrefix(parent)
	c := t.tx.Bucket(bucketIndexParent).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		th := Thread{Channel: string(k[len(prefix):])}
		if len(v) > 0 {
			th.Members = strings.Split(string(v), ",")
		}
		out = append(out, th)
	}
	return out, nil
}

func (t *boltTx) rematchOf(id string) (string, error) {
	v := t.tx.Bucket(bucketIndexRematch).Get([]byte(id))
	if v == nil {
		return "", fmt.Errorf("%w: no rematch of game %s", ErrNotFound, id)
	}
	return string(v), nil
}

func (t *boltTx) due(until time.Time, limit int) ([]DueGame, error) {
	return t.dueOf(nil, until, limit)
}

// dueOf reads each due game's header for its server when o is set: a file
// has one process, which serves every shard, so o is rarely set.
func (t *boltTx) dueOf(o *Owned, until time.Time, limit int) ([]DueGame, error) {
	var out []DueGame
	c := t.tx.Bucket(bucketDeadlines).Cursor()
	for k, v := c.First(); k != nil && len(out) < limit; k, v = c.Next() {
		if len(k) < 8 {
			continue
		}
		at := dueTime(k)
		if at.After(until) {
			break
		}
		if o != nil {
			h, err := t.header(string(k[8:]))
			if err != nil && !errors.Is(err, ErrNotFound) {
				return nil, err
			}
			if h != nil && !o.Has(h.Guild) {
				continue
			}
		}
		out = append(out, DueGame{Channel: string(k[8:]), At: at, Kind: string(v)})
	}
	return out, nil
}

// guilds costs one seek per server: a NUL ends each guild id in the keys
// of the guild index and of the archive, so the next server's keys start
// just after guild+"\x01".
func (t *boltTx) guilds() ([]string, error) {
	seen := map[string]bool{}
	for _, b := range [][]byte{bucketIndexGuild, bucketArchive} {
		c := t.tx.Bucket(b).Cursor()
		for k, _ := c.First(); k != nil; {
			g := keyOwner(k)
			seen[g] = true
			k, _ = c.Seek(append([]byte(g), 1))
		}
	}
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out, nil
}

func (t *boltTx) guildCounts(guild string) (live, archived int, err error) {
	prefix := guildPrefix(guild)
	c := t.tx.Bucket(bucketIndexGuild).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		live++
	}
	c = t.tx.Bucket(bucketArchive).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		archived++
	}
	return live, archived, nil
}

// The outbox: outbox/<queue>/<8-byte sequence> → OutboxEntry (JSON), the
// sequence the outbox bucket's own.
var bucketOutbox = []byte("outbox")

func (t *boltTx) lockQueues([]string) error { return nil }

func (t *boltTx) nextSeqs(n int) ([]uint64, error) {
	root, err := t.tx.CreateBucketIfNotExists(bucketOutbox)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, n)
	for i := range out {
		if out[i], err = root.NextSequence(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (t *boltTx) putPosts(ps []queuedPost) error {
	root, err := t.tx.CreateBucketIfNotExists(bucketOutbox)
	if err != nil {
		return err
	}
	for _, p := range ps {
		qb, err := root.CreateBucketIfNotExists([]byte(p.Queue))
		if err != nil {
			return err
		}
		if err := qb.Put(binary.BigEndian.AppendUint64(nil, p.Seq), p.Data); err != nil {
			return err
		}
	}
	return nil
}

func (t *boltTx) queue(name string) *bolt.Bucket {
	root := t.tx.Bucket(bucketOutbox)
	if root == nil {
		return nil
	}
	return root.Bucket([]byte(name))
}

func (t *boltTx) posts(queue string) ([]post, error) {
	qb := t.queue(queue)
	if qb == nil {
		return nil, nil
	}
	var out []post
	err := qb.ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("%w: outbox entry %x of channel %s", errCorrupt, k, queue)
		}
		out = append(out, post{Seq: binary.BigEndian.Uint64(k), Data: v})
		return nil
	})
	return out, err
}

// deletePosts drops the queue's bucket once it is empty.
func (t *boltTx) deletePosts(queue string, seqs []uint64) error {
	qb := t.queue(queue)
	if qb == nil {
		return nil
	}
	for _, seq := range seqs {
		if err := qb.Delete(binary.BigEndian.AppendUint64(nil, seq)); err != nil {
			return err
		}
	}
	if k, _ := qb.Cursor().First(); k == nil {
		return t.tx.Bucket(bucketOutbox).DeleteBucket([]byte(queue))
	}
	return nil
}

func (t *boltTx) queues() ([]string, error) {
	root := t.tx.Bucket(bucketOutbox)
	if root == nil {
		return nil, nil
	}
	var out []string
	err := root.ForEachBucket(func(k []byte) error {
		out = append(out, string(k))
		return nil
	})
	return out, err
}

func (t *boltTx) queueHeads() ([]queuedPost, error) {
	root := t.tx.Bucket(bucketOutbox)
	if root == nil {
		return nil, nil
	}
	var out []queuedPost
	err := root.ForEachBucket(func(q []byte) error {
		if k, v := root.Bucket(q).Cursor().First(); len(k) == 8 {
			out = append(out, queuedPost{Queue: string(q), post: post{Seq: binary.BigEndian.Uint64(k), Data: v}})
		}
		return nil
	})
	return out, err
}

func (t *boltTx) eachPost(skip func(string) bool, fn func([]byte)) error {
	root := t.tx.Bucket(bucketOutbox)
	if root == nil {
		return nil
	}
	return root.ForEachBucket(func(q []byte) error {
		if skip != nil && skip(string(q)) {
			return nil
		}
		return root.Bucket(q).ForEach(func(_, v []byte) error {
			fn(v)
			return nil
		})
	})
}

// The archive: archive/<guild> NUL <time> NUL <id> → ArchiveEntry (JSON),
// archived_games/<same key> → GameRecord (JSON).

func (t *boltTx) archived(guild string, fn func(archiveKey, []byte) error) error {
	prefix := guildPrefix(guild)
	c := t.tx.Bucket(bucketArchive).Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		key, ok := parseArchiveKey(string(k))
		if !ok {
			return fmt.Errorf("%w: archive key %q", errCorrupt, k)
		}
		if err := fn(key, v); err != nil {
			return err
		}
	}
	return nil
}

func (t *boltTx) archivedByID(guild, id string) (*archiveKey, []byte, error) {
	prefix := guildPrefix(guild)
	suffix := append([]byte{0}, id...)
	c := t.tx.Bucket(bucketArchive).Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		if !bytes.HasSuffix(k, suffix) {
			continue
		}
		key, ok := parseArchiveKey(string(k))
		if !ok || key.ID != id {
			continue
		}
		return &key, v, nil
	}
	return nil, nil, nil
}

func (t *boltTx) archivedGame(key archiveKey) ([]byte, error) {
	return t.tx.Bucket(bucketArchivedGames).Get([]byte(key.String())), nil
}

func (t *boltTx) putArchived(key archiveKey, summary, full []byte) error {
	k := []byte(key.String())
	archive := t.tx.Bucket(bucketArchive)
	if archive.Get(k) != nil {
		return errArchived
	}
	if err := archive.Put(k, summary); err != nil {
		return err
	}
	return t.tx.Bucket(bucketArchivedGames).Put(k, full)
}

func (t *boltTx) putArchivedSummary(key archiveKey, summary []byte) error {
	return t.tx.Bucket(bucketArchive).Put([]byte(key.String()), summary)
}

func (t *boltTx) putArchivedGame(key archiveKey, full []byte) error {
	return t.tx.Bucket(bucketArchivedGames).Put([]byte(key.String()), full)
}

func (t *boltTx) forgetArchived(guild string) (int, error) {
	prefix := guildPrefix(guild)
	archive, archivedGames := t.tx.Bucket(bucketArchive), t.tx.Bucket(bucketArchivedGames)
	var keys [][]byte
	c := archive.Cursor()
	for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	// archived_games holds the same keys, but sweep its prefix too so a
	// record without a summary cannot survive.
	c = archivedGames.Cursor()
	for k, _ := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Next() {
		if archive.Get(k) == nil {
			keys = append(keys, bytes.Clone(k))
		}
	}
	for _, k := range keys {
		if err := archive.Delete(k); err != nil {
			return 0, err
		}
		if err := archivedGames.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

func (t *boltTx) meta(key string) ([]byte, error) {
	meta := t.tx.Bucket(bucketMeta)
	if meta == nil {
		return nil, nil
	}
	return meta.Get([]byte(key)), nil
}

func (t *boltTx) putMeta(key string, value []byte) error {
	meta := t.tx.Bucket(bucketMeta)
	if meta == nil {
		return errors.New("store: no meta bucket")
	}
	return meta.Put([]byte(key), value)
}

func (t *boltTx) notify(channel string) error {
	for _, c := range t.changed {
		if c == channel {
			return nil
		}
	}
	t.changed = append(t.changed, channel)
	return nil
}

func (t *boltTx) checkFence(f *Fence) error {
	return t.leases.fenced(f)
}
