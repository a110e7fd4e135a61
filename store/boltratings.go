package store

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// The ratings' index in a bbolt file (schema version 3):
//
//	ratings/<guild> NUL <kind> NUL <key>               the row: a byte 0, then its value;
//	                                                   or a byte 1, its 8-byte rank, then its value
//	rating_ranks/<guild> NUL <kind> NUL <rank> <key>   empty: the ranked rows in order
//	guild_settings/<guild>                             GuildSettings as JSON
//
// A rank is stored big-endian with its sign bit flipped and every bit
// inverted, so that keys sort by rank from the highest, then by key.
var (
	bucketRatings       = []byte("ratings")
	bucketRatingRanks   = []byte("rating_ranks")
	bucketGuildSettings = []byte("guild_settings")
)

func ratingPrefix(guild, kind string) []byte {
	b := make([]byte, 0, len(guild)+len(kind)+2)
	b = append(append(b, guild...), 0)
	return append(append(b, kind...), 0)
}

func rankBytes(rank int64) []byte {
	return binary.BigEndian.AppendUint64(nil, ^(uint64(rank) ^ (1 << 63)))
}

func rankOf(b []byte) int64 {
	return int64(^binary.BigEndian.Uint64(b) ^ (1 << 63))
}

// ratingValue splits a stored row into its rank (nil: none) and value.
func ratingValue(raw []byte) (rank []byte, value []byte) {
	if len(raw) > 0 && raw[0] == 1 && len(raw) >= 9 {
		return raw[1:9], raw[9:]
	}
	if len(raw) > 0 {
		return nil, raw[1:]
	}
	return nil, raw
}

func (t *boltTx) ratingRow(guild, kind, key string) ([]byte, error) {
	raw := t.tx.Bucket(bucketRatings).Get(append(ratingPrefix(guild, kind), key...))
	if raw == nil {
		return nil, nil
	}
	_, v := ratingValue(raw)
	return bytes.Clone(v), nil
}

func (t *boltTx) putRatingRow(guild, kind, key string, rank *int64, value []byte) error {
	if err := t.deleteRatingRow(guild, kind, key); err != nil {
		return err
	}
	prefix := ratingPrefix(guild, kind)
	raw := []byte{0}
	if rank != nil {
		r := rankBytes(*rank)
		raw = append([]byte{1}, r...)
		if err := t.tx.Bucket(bucketRatingRanks).Put(append(append(bytes.Clone(prefix), r...), key...), []byte{}); err != nil {
			return err
		}
	}
	return t.tx.Bucket(bucketRatings).Put(append(prefix, key...), append(raw, value...))
}

func (t *boltTx) deleteRatingRow(guild, kind, key string) error {
	prefix := ratingPrefix(guild, kind)
	k := append(bytes.Clone(prefix), key...)
	rows := t.tx.Bucket(bucketRatings)
	raw := rows.Get(k)
	if raw == nil {
		return nil
	}
	if r, _ := ratingValue(raw); r != nil {
		if err := t.tx.Bucket(bucketRatingRanks).Delete(append(append(prefix, r...), key...)); err != nil {
			return err
		}
	}
	return rows.Delete(k)
}

func (t *boltTx) ratingRows(guild, kind string, limit int, fn func(key string, value []byte) error) error {
	prefix := ratingPrefix(guild, kind)
	c := t.tx.Bucket(bucketRatings).Cursor()
	n := 0
	for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
		_, v := ratingValue(raw)
		if err := fn(string(k[len(prefix):]), v); err != nil {
			return err
		}
		if n++; n == limit {
			break
		}
	}
	return nil
}

func (t *boltTx) ratingTop(guild, kind string, limit int, fn func(key string, value []byte) error) error {
	prefix := ratingPrefix(guild, kind)
	rows := t.tx.Bucket(bucketRatings)
	c := t.tx.Bucket(bucketRatingRanks).Cursor()
	n := 0
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) >= len(prefix)+8; k, _ = c.Next() {
		key := k[len(prefix)+8:]
		raw := rows.Get(append(bytes.Clone(prefix), key...))
		if raw == nil {
			return errCorrupt
		}
		_, v := ratingValue(raw)
		if err := fn(string(key), v); err != nil {
			return err
		}
		if n++; n == limit {
			break
		}
	}
	return nil
}

func (t *boltTx) ratingAbove(guild, kind string, rank int64) (int, error) {
	prefix := ratingPrefix(guild, kind)
	c := t.tx.Bucket(bucketRatingRanks).Cursor()
	n := 0
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) >= len(prefix)+8; k, _ = c.Next() {
		if rankOf(k[len(prefix):len(prefix)+8]) <= rank {
			break
		}
		n++
	}
	return n, nil
}

func (t *boltTx) ratingBoard(guild, kind string, limit int, asker string) (*boardRead, error) {
	r := &boardRead{}
	var err error
	if r.state, err = t.ratingRow(guild, ratingKindState, ""); err != nil {
		return nil, err
	}
	if r.settings, err = t.guildSettings(guild); err != nil {
		return nil, err
	}
	prefix := ratingPrefix(guild, ratingKindPending)
	k, _ := t.tx.Bucket(bucketRatings).Cursor().Seek(prefix)
	r.pending = k != nil && bytes.HasPrefix(k, prefix)
	if err := t.ratingTop(guild, kind, limit, func(key string, v []byte) error {
		r.top = append(r.top, ratingKV{key: key, value: bytes.Clone(v)})
		return nil
	}); err != nil {
		return nil, err
	}
	if asker == "" {
		return r, nil
	}
	raw := t.tx.Bucket(bucketRatings).Get(append(ratingPrefix(guild, kind), asker...))
	if raw == nil {
		return r, nil
	}
	rank, v := ratingValue(raw)
	r.asker = bytes.Clone(v)
	if rank != nil {
		r.askerRanked = true
		if r.above, err = t.ratingAbove(guild, kind, rankOf(rank)); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (t *boltTx) deleteRatings(guild string) error {
	prefix := guildPrefix(guild)
	for _, b := range [][]byte{bucketRatings, bucketRatingRanks} {
		if err := deleteKeys(t.tx.Bucket(b), prefix, prefix); err != nil {
			return err
		}
	}
	return nil
}

// lockRatings: bbolt has one writer at a time.
func (t *boltTx) lockRatings(string) error { return nil }

func (t *boltTx) guildSettings(guild string) ([]byte, error) {
	return bytes.Clone(t.tx.Bucket(bucketGuildSettings).Get([]byte(guild))), nil
}

func (t *boltTx) putGuildSettings(guild string, value []byte) error {
	return t.tx.Bucket(bucketGuildSettings).Put([]byte(guild), value)
}

func (t *boltTx) deleteGuildSettings(guild string) error {
	return t.tx.Bucket(bucketGuildSettings).Delete([]byte(guild))
}

func (t *boltTx) eachGuildSettings(fn func(guild string, value []byte) error) error {
	return t.tx.Bucket(bucketGuildSettings).ForEach(func(k, v []byte) error {
		return fn(string(k), v)
	})
}

func (t *boltTx) archivedNaming(guild string, needle []byte) ([]archiveKey, error) {
	prefix := guildPrefix(guild)
	games := t.tx.Bucket(bucketArchivedGames)
	var out []archiveKey
	c := t.tx.Bucket(bucketArchive).Cursor()
	for k, v := c.Seek(prefix); k != nil && hasPrefix(k, prefix); k, v = c.Next() {
		if !bytes.Contains(v, needle) && !bytes.Contains(games.Get(k), needle) {
			continue
		}
		key, ok := parseArchiveKey(string(k))
		if !ok {
			return nil, errCorrupt
		}
		out = append(out, key)
	}
	return out, nil
}

func (t *boltTx) archivedSummary(key archiveKey) ([]byte, error) {
	return bytes.Clone(t.tx.Bucket(bucketArchive).Get([]byte(key.String()))), nil
}

// ratingBuckets are the buckets the ratings keep.
var ratingBuckets = [][]byte{bucketRatings, bucketRatingRanks, bucketGuildSettings}

// migrate2to3 makes the ratings' buckets. The index fills itself: a
// server's ratings are computed from its archive when first asked for.
func migrate2to3(tx *bolt.Tx) error {
	for _, name := range ratingBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}
