package store

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultTimeout is how long Open waits for the file lock before giving up.
const DefaultTimeout = 2 * time.Second

var (
	// ErrNotFound: no live game in that channel (or no archived game with that key).
	ErrNotFound = errors.New("store: no such game")
	// ErrDuplicate: the action's interaction id was already applied to this game.
	ErrDuplicate = errors.New("store: interaction already applied")
	// ErrLocked: another process holds the database file.
	ErrLocked = errors.New("store: database file is locked")
	// ErrSchemaTooNew: the file was written by a newer Conductor.
	ErrSchemaTooNew = errors.New("store: database schema is newer than this build supports")
	// ErrOutdatedSchema: the file needs Migrate before it can be used.
	ErrOutdatedSchema = errors.New("store: database schema is outdated")
)

// Options tune Open. The zero value (or nil) is the durable default.
type Options struct {
	// Timeout bounds the wait for the file lock; 0 means DefaultTimeout.
	Timeout time.Duration
	// ManualMigrate leaves an older schema as it is: SchemaVersion reports it,
	// Migrate upgrades it, and every other method returns ErrOutdatedSchema
	// until then. Used by `conductor migrate` to back up before upgrading.
	ManualMigrate bool
	// ReadOnly opens an existing file for reading only: nothing is
	// written, not even a schema upgrade (as with ManualMigrate). Other
	// readers may share the file; a writer (a running bot) still excludes
	// it. Used by conductor reshard --dry-run.
	ReadOnly bool
	// NoSync skips fsync on commit: a crash may lose or corrupt recent
	// commits. Only for tests and benchmarks.
	NoSync bool
}

// Store is an open database file.
type Store struct {
	db       *bolt.DB
	path     string
	outdated atomic.Bool
	now      func() time.Time // replaced in tests
	// noncePrefix starts the nonces of this opening (outbox.go).
	noncePrefix string
}

// Open opens (creating if needed) the database at path. A fresh file gets the
// current schema; an older one is upgraded unless opts.ManualMigrate is set; a
// newer one is refused with ErrSchemaTooNew.
func Open(path string, opts *Options) (*Store, error) {
	if opts == nil {
		opts = &Options{}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, NoSync: opts.NoSync, ReadOnly: opts.ReadOnly})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("%w: could not lock %s within %v; another conductor is probably "+
			"running with the same database file: stop it, or give this one its own file with "+
			"CONDUCTOR_DB=/path/to/other.db (%w)", ErrLocked, path, timeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path, now: time.Now, noncePrefix: newNoncePrefix()}
	var version int
	if opts.ReadOnly {
		err = db.View(func(tx *bolt.Tx) (err error) {
			version, err = readVersion(tx)
			return err
		})
	} else {
		version, err = prepareSchema(db)
	}
	if err == nil && version > CurrentSchema {
		err = fmt.Errorf("%w: %s has schema version %d but this build of conductor knows "+
			"versions up to %d; run a newer conductor, or restore a backup made by this version",
			ErrSchemaTooNew, path, version, CurrentSchema)
	}
	if err == nil && version < CurrentSchema {
		if opts.ManualMigrate || opts.ReadOnly {
			s.outdated.Store(true)
		} else {
			_, _, err = s.Migrate()
		}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the file and its lock.
func (s *Store) Close() error {
	return s.db.Close()
}

// Path is the file the store was opened from.
func (s *Store) Path() string {
	return s.path
}

// ready refuses work on a file whose layout this code does not read.
func (s *Store) ready() error {
	if s.outdated.Load() {
		return fmt.Errorf("%w: %s needs `conductor migrate`", ErrOutdatedSchema, s.path)
	}
	return nil
}

// stamp returns the current time in UTC without a monotonic reading, as it
// will read back from JSON.
func (s *Store) stamp() time.Time {
	return s.now().UTC()
}

// fillPercent is how full bbolt leaves a page it splits in the buckets
// keyed by channel or time: their keys mostly grow (a new thread's id is a
// later snowflake, a deadline a later time), and bbolt's default (half)
// would leave most of their pages half empty.
const fillPercent = 0.9

// update runs fn in a write transaction with the buckets tuned for how
// their keys grow.
func (s *Store) update(fn func(tx *bolt.Tx) error) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		tune(tx)
		return fn(tx)
	})
}

func tune(tx *bolt.Tx) {
	for _, name := range append(append([][]byte{bucketGames}, gameBuckets...), indexBuckets...) {
		if b := tx.Bucket(name); b != nil {
			b.FillPercent = fillPercent
		}
	}
}
