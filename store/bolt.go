package store

import (
	"errors"
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// boltBackend is a bbolt file: one process holds it (bbolt locks the
// file), and bbolt runs one writer at a time, so a transaction never
// loses a race and is never retried.
type boltBackend struct {
	db   *bolt.DB
	path string
	memoryLeases
	mu  sync.Mutex
	hub *hub // fed with the changes committed here, once subscribed
}

func openBolt(path string, opts *Options) (*boltBackend, int, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.Timeout, NoSync: opts.NoSync, ReadOnly: opts.ReadOnly})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, 0, fmt.Errorf("%w: could not lock %s within %v; another conductor is probably "+
			"running with the same database file: stop it, or give this one its own file with "+
			"CONDUCTOR_DB=/path/to/other.db (%w)", ErrLocked, path, opts.Timeout, err)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("store: open %s: %w", path, err)
	}
	b := &boltBackend{db: db, path: path}
	var version int
	if opts.ReadOnly {
		err = db.View(func(tx *bolt.Tx) (err error) {
			version, err = readVersion(tx)
			return err
		})
	} else {
		version, err = prepareSchema(db)
	}
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return b, version, nil
}

func (b *boltBackend) kind() string      { return "bbolt" }
func (b *boltBackend) name() string      { return b.path }
func (b *boltBackend) close() error      { return b.db.Close() }
func (b *boltBackend) latestSchema() int { return CurrentSchema }

func (b *boltBackend) schemaVersion() (int, error) {
	var v int
	err := b.db.View(func(tx *bolt.Tx) (err error) {
		v, err = readVersion(tx)
		return err
	})
	return v, err
}

func (b *boltBackend) migrate() (from, to int, err error) {
	return runMigrations(b.db, migrations)
}

func (b *boltBackend) view(fn func(txn) error) error {
	return b.db.View(func(tx *bolt.Tx) error { return fn(&boltTx{tx: tx, leases: &b.memoryLeases}) })
}

func (b *boltBackend) viewOne(fn func(txn) error) error { return b.view(fn) }

func (b *boltBackend) update(fn func(txn) error) error {
	var changed []string
	err := b.db.Update(func(tx *bolt.Tx) error {
		tune(tx)
		t := &boltTx{tx: tx, leases: &b.memoryLeases}
		if err := fn(t); err != nil {
			return err
		}
		changed = t.changed
		return nil
	})
	if err == nil && len(changed) > 0 {
		b.mu.Lock()
		h := b.hub
		b.mu.Unlock()
		if h != nil {
			for _, ch := range changed {
				h.publish(ch)
			}
		}
	}
	return err
}

// subscribe: a file has one process, so its own commits are every change.
func (b *boltBackend) subscribe(h *hub) error {
	b.mu.Lock()
	b.hub = h
	b.mu.Unlock()
	return nil
}

// fillPercent is how full bbolt leaves a page it splits in the buckets
// keyed by channel or time: their keys mostly grow (a new thread's id is a
// later snowflake, a deadline a later time), and bbolt's default (half)
// would leave most of their pages half empty.
const fillPercent = 0.9

func tune(tx *bolt.Tx) {
	for _, name := range append(append([][]byte{bucketGames}, gameBuckets...), indexBuckets...) {
		if b := tx.Bucket(name); b != nil {
			b.FillPercent = fillPercent
		}
	}
}
