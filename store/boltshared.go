package store

import (
	"bytes"
	"encoding/json"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// The shared records (shared.go) in a bbolt file: one bucket, made on the
// first write, keyed kind NUL key. A file has one process, whose live page
// keeps its records in memory: the bucket stays small, and listing scans it.
var bucketShared = []byte("shared")

type boltShared struct {
	O string `json:"o"`
	G string `json:"g"`
	E int64  `json:"e"`
	V []byte `json:"v"`
}

func sharedKey(kind, key string) []byte { return []byte(kind + "\x00" + key) }

func (t *boltTx) sharedBucket(create bool) (*bolt.Bucket, error) {
	if b := t.tx.Bucket(bucketShared); b != nil || !create {
		return b, nil
	}
	return t.tx.CreateBucket(bucketShared)
}

func decodeShared(kind string, k, v []byte) (sharedRow, error) {
	var s boltShared
	if err := json.Unmarshal(v, &s); err != nil {
		return sharedRow{}, err
	}
	return sharedRow{Kind: kind, Key: string(k[len(kind)+1:]), Owner: s.O, Group: s.G, Value: s.V, Expires: s.E}, nil
}

func (t *boltTx) sharedGet(kind, key string) (*sharedRow, error) {
	b, _ := t.sharedBucket(false)
	if b == nil {
		return nil, nil
	}
	k := sharedKey(kind, key)
	v := b.Get(k)
	if v == nil {
		return nil, nil
	}
	r, err := decodeShared(kind, k, v)
	return &r, err
}

func (t *boltTx) sharedPut(r sharedRow) error {
	b, err := t.sharedBucket(true)
	if err != nil {
		return err
	}
	v, err := json.Marshal(boltShared{O: r.Owner, G: r.Group, E: r.Expires, V: r.Value})
	if err != nil {
		return err
	}
	return b.Put(sharedKey(r.Kind, r.Key), v)
}

func (t *boltTx) sharedDelete(kind, key string) error {
	b, _ := t.sharedBucket(false)
	if b == nil {
		return nil
	}
	return b.Delete(sharedKey(kind, key))
}

// sharedScan lists a kind's records that keep says to, by expiry then key.
func (t *boltTx) sharedScan(kind string, keep func(*sharedRow) bool) ([]sharedRow, error) {
	b, _ := t.sharedBucket(false)
	if b == nil {
		return nil, nil
	}
	prefix := sharedKey(kind, "")
	var out []sharedRow
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		r, err := decodeShared(kind, k, v)
		if err != nil {
			return nil, err
		}
		if keep(&r) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Expires < out[j].Expires })
	return out, nil
}

func (t *boltTx) sharedByOwner(kind, owner string) ([]sharedRow, error) {
	return t.sharedScan(kind, func(r *sharedRow) bool { return r.Owner == owner })
}

func (t *boltTx) sharedByGroup(kind, group string) ([]sharedRow, error) {
	return t.sharedScan(kind, func(r *sharedRow) bool { return r.Group == group })
}

func (t *boltTx) sharedAll(kind string) ([]sharedRow, error) {
	return t.sharedScan(kind, func(*sharedRow) bool { return true })
}

func (t *boltTx) sharedCount(kind string) (int, error) {
	rows, err := t.sharedAll(kind)
	return len(rows), err
}

func (t *boltTx) sharedHeaviest(kind string) (string, error) {
	rows, err := t.sharedAll(kind)
	if err != nil {
		return "", err
	}
	n := map[string]int{}
	best := ""
	for _, r := range rows {
		n[r.Owner]++
		if n[r.Owner] > n[best] || (n[r.Owner] == n[best] && r.Owner < best) {
			best = r.Owner
		}
	}
	return best, nil
}

func (t *boltTx) sharedExpire(kind string, now int64, limit int) ([]string, error) {
	rows, err := t.sharedScan(kind, func(r *sharedRow) bool { return r.Expires <= now })
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, r := range rows {
		if len(keys) >= limit {
			break
		}
		if err := t.sharedDelete(kind, r.Key); err != nil {
			return nil, err
		}
		keys = append(keys, r.Key)
	}
	return keys, nil
}
