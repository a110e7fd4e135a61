package store

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultTimeout is how long Open waits for the file lock (bbolt), or for
// another process's hold on a PostgreSQL database, before giving up.
const DefaultTimeout = 2 * time.Second

var (
	// ErrNotFound: no live game in that channel (or no archived game with that key).
	ErrNotFound = errors.New("store: no such game")
	// ErrDuplicate: the action's interaction id was already applied to this game.
	ErrDuplicate = errors.New("store: interaction already applied")
	// ErrLocked: another process holds the database file (or the
	// PostgreSQL database, opened Exclusive).
	ErrLocked = errors.New("store: database file is locked")
	// ErrSchemaTooNew: the database was written by a newer Conductor.
	ErrSchemaTooNew = errors.New("store: database schema is newer than this build supports")
	// ErrOutdatedSchema: the database needs Migrate before it can be used.
	ErrOutdatedSchema = errors.New("store: database schema is outdated")
	// ErrFileOnly: the operation works on a bbolt file only (a hot copy
	// of the file, moving games between shards' files, the shard mark);
	// the error says what to do on PostgreSQL instead.
	ErrFileOnly = errors.New("store: only for a bbolt database file")
)

// Options tune Open. The zero value (or nil) is the durable default.
type Options struct {
	// Timeout bounds the wait for the file lock (bbolt), or for another
	// process's hold on the database (PostgreSQL with Exclusive); 0 means
	// DefaultTimeout. Connecting to PostgreSQL waits 10 s, or the
	// address's connect_timeout.
	Timeout time.Duration
	// ManualMigrate leaves an older schema as it is: SchemaVersion reports it,
	// Migrate upgrades it, and every other method returns ErrOutdatedSchema
	// until then. Used by `conductor migrate` to back up before upgrading.
	ManualMigrate bool
	// ReadOnly opens an existing database for reading only: nothing is
	// written, not even a schema upgrade (as with ManualMigrate). On a
	// file, other readers may share it and a writer (a running bot) still
	// excludes it. Used by conductor reshard --dry-run.
	ReadOnly bool
	// Exclusive (PostgreSQL) holds the database for this process alone, as
	// bbolt holds its file: another Exclusive or Shared opener waits
	// Timeout, then gets ErrLocked. A lone bot (no shard count set) opens
	// its database so.
	Exclusive bool
	// Shared, on PostgreSQL, holds the database beside the other
	// processes of a fleet (each under its shards' leases, lease.go), and
	// keeps out a process opening it Exclusive (conductor migrate, a lone
	// bot), as those keep the fleet out.
	Shared bool
	// NoSync skips fsync on commit (bbolt), or waiting for the commit to
	// reach the disk (PostgreSQL's synchronous_commit off): a crash may
	// lose recent commits. Only for tests and benchmarks.
	NoSync bool
}

// Store is an open database: a bbolt file, or a PostgreSQL database.
type Store struct {
	// pace keeps a file's paces (pacing.go).
	pace memoryPace
	be   backend
	// file is be on a bbolt file, nil on PostgreSQL: for what only a
	// file has (backups of the file, bundles, the shard mark).
	file     *boltBackend
	outdated atomic.Bool
	now      func() time.Time // replaced in tests
	// noncePrefix starts the nonces of this opening (outbox.go).
	noncePrefix string
	hub         *hub // notify.go
}

// IsPostgres reports whether a database setting (CONDUCTOR_DB) names a
// PostgreSQL database (postgres://… or postgresql://…) rather than a file.
func IsPostgres(db string) bool {
	l := strings.ToLower(db)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// RedactDSN is a database setting as a message may show it: a
// PostgreSQL address without its password; a file's path as it is.
func RedactDSN(db string) string {
	if IsPostgres(db) {
		return redactDSN(db)
	}
	return db
}

// Open opens the database db: a PostgreSQL database when db is a
// postgres:// or postgresql:// address, else the bbolt file at that path
// (created when missing). A new database gets the current schema; an
// older one is upgraded unless opts.ManualMigrate is set; a newer one is
// refused with ErrSchemaTooNew.
func Open(db string, opts *Options) (*Store, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Timeout <= 0 {
		o := *opts
		o.Timeout = DefaultTimeout
		opts = &o
	}
	s := &Store{now: time.Now, noncePrefix: newNoncePrefix()}
	s.hub = newHub()
	var version int
	var err error
	if IsPostgres(db) {
		var pb *pgBackend
		pb, version, err = openPostgres(db, opts)
		if err != nil {
			return nil, err
		}
		s.be = pb
	} else {
		var fb *boltBackend
		fb, version, err = openBolt(db, opts)
		if err != nil {
			return nil, err
		}
		s.be, s.file = fb, fb
	}
	if latest := s.be.latestSchema(); version > latest {
		err = fmt.Errorf("%w: %s has schema version %d but this build of conductor knows "+
			"versions up to %d; run a newer conductor, or restore a backup made by this version",
			ErrSchemaTooNew, s.be.name(), version, latest)
	} else if version < latest {
		if opts.ManualMigrate || opts.ReadOnly {
			s.outdated.Store(true)
		} else {
			_, _, err = s.Migrate()
		}
	}
	if err != nil {
		s.be.close()
		return nil, err
	}
	return s, nil
}

// Close releases the database (the file and its lock, or the connections),
// and ends the subscriptions.
func (s *Store) Close() error {
	s.hub.close()
	return s.be.close()
}

// Path is the database the store was opened from: the file's path, or the
// PostgreSQL address without its password (fit for a message or a log).
func (s *Store) Path() string {
	return s.be.name()
}

// Backend is "bbolt" or "postgres".
func (s *Store) Backend() string {
	return s.be.kind()
}

// SchemaVersion reports the version of the database's layout.
func (s *Store) SchemaVersion() (int, error) {
	return s.be.schemaVersion()
}

// LatestSchema is the layout version this build reads and writes for the
// store's backend (CurrentSchema for a bbolt file).
func (s *Store) LatestSchema() int {
	return s.be.latestSchema()
}

// Migrate upgrades the database to the latest schema, one transaction per
// step so a failure leaves it at the last completed version. It returns
// the versions before and after; from == to when nothing was needed.
func (s *Store) Migrate() (from, to int, err error) {
	from, to, err = s.be.migrate()
	if err == nil && to == s.be.latestSchema() {
		s.outdated.Store(false)
	}
	return from, to, err
}

// ready refuses work on a database whose layout this code does not read.
func (s *Store) ready() error {
	if s.outdated.Load() {
		return fmt.Errorf("%w: %s needs `conductor migrate`", ErrOutdatedSchema, s.be.name())
	}
	return nil
}

// stamp returns the current time in UTC without a monotonic reading, as it
// will read back from JSON.
func (s *Store) stamp() time.Time {
	return s.now().UTC()
}

// view and update run fn in a transaction of the backend, once the schema
// is one this code reads.
func (s *Store) view(fn func(txn) error) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.be.view(fn)
}

// viewOne is view for an fn that reads with one statement.
func (s *Store) viewOne(fn func(txn) error) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.be.viewOne(fn)
}

func (s *Store) update(fn func(txn) error) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.be.update(fn)
}

// fileOnly returns the bbolt file, or ErrFileOnly saying what to do on
// PostgreSQL instead of what (a phrase: "a hot copy of the file").
func (s *Store) fileOnly(what, instead string) (*boltBackend, error) {
	if s.file == nil {
		return nil, fmt.Errorf("%w: %s is for a bbolt database file, and this one is PostgreSQL (%s): %s",
			ErrFileOnly, what, s.be.name(), instead)
	}
	return s.file, nil
}
