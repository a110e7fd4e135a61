package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgBackend is a PostgreSQL database, shared by any number of processes.
// Writers are kept apart by the database, never by this process: a
// read-write transaction runs at READ COMMITTED and claims what it changes
// with row locks (a game's row, SELECT … FOR UPDATE) or transaction-scoped
// advisory locks (an outbox queue, a meta key, the leases), so that two
// writers of one game, in one process or two, run one after the other and
// the second reads what the first committed. A transaction that still
// loses a race (a deadlock the database broke, two processes creating a
// game in one channel at once) is run again from the start. Read-only
// transactions run at REPEATABLE READ: one snapshot for every statement.
type pgBackend struct {
	pool     *pgxpool.Pool
	connCfg  *pgx.ConnConfig // for the listening connection (pgnotify.go)
	redacted string
	timeout  time.Duration // of each transaction
	notifyTo string        // the notification channel (pgnotify.go)

	listenMu sync.Mutex
	listener *pgListener

	exclusive *pgx.Conn // holds the exclusive lock (Options.Exclusive)
}

// pgTimeout bounds a transaction, from its start to its commit: a
// database that stopped answering fails the request instead of holding it
// (and the game's lock in the service) for ever.
const pgTimeout = 30 * time.Second

// pgConnectTimeout bounds connecting, unless the address says otherwise
// (connect_timeout): a database on another machine, over TLS, may take a
// while to answer a new connection.
const pgConnectTimeout = 10 * time.Second

// defaultPoolSize is the connections a Store opens at most, unless the
// address says otherwise (pool_max_conns).
const defaultPoolSize = 10

// pgRetries is how many times a transaction that lost a race runs again.
const pgRetries = 8

// Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)):
// Conductor's own, in the database it is given.
const (
	lockClassQueue  int32 = 0x43440001 // an outbox queue, by hashtext(queue)
	lockClassMeta   int32 = 0x43440002 // a meta key, by hashtext(key)
	lockClassGlobal int32 = 0x43440003 // one of the locks below
	lockClassRating int32 = 0x43440004 // a guild's ratings, by hashtext(guild)
	lockSchema      int32 = 1          // schema migrations
	lockLeases      int32 = 2          // shard lease acquisitions
	lockExclusive   int32 = 3          // a process's hold (Options.Exclusive), for its session
)

func openPostgres(dsn string, opts *Options) (*pgBackend, int, error) {
	redacted := redactDSN(dsn)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, 0, fmt.Errorf("store: CONDUCTOR_DB is not a PostgreSQL address pgx can read (%s): %v; "+
			"write it as postgres://USER:PASSWORD@HOST:5432/DATABASE?sslmode=require", redacted, errors.Unwrap(err))
	}
	params := cfg.ConnConfig.RuntimeParams
	if params["application_name"] == "" {
		params["application_name"] = "conductor"
	}
	if opts.NoSync {
		params["synchronous_commit"] = "off"
	}
	if opts.ReadOnly {
		params["default_transaction_read_only"] = "on"
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = pgConnectTimeout
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		// pgx's default (four on two cores) makes the tables' moves, the
		// senders and the loads queue for a connection.
		cfg.MaxConns = defaultPoolSize
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ConnConfig.ConnectTimeout+time.Second)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err == nil {
		err = pool.Ping(ctx)
	}
	if err != nil {
		if pool != nil {
			pool.Close()
		}
		return nil, 0, fmt.Errorf("store: cannot reach PostgreSQL at %s within %v: %w; "+
			"check CONDUCTOR_DB (user, password, host, database) and that the server is up and reachable from here",
			redacted, cfg.ConnConfig.ConnectTimeout, err)
	}
	b := &pgBackend{pool: pool, connCfg: cfg.ConnConfig, redacted: redacted, timeout: pgTimeout}
	var schema *string
	err = pool.QueryRow(ctx, "SELECT current_schema()").Scan(&schema)
	if err == nil && schema == nil {
		err = fmt.Errorf("store: PostgreSQL (%s) has no schema to create Conductor's tables in: "+
			"the search_path names none that exists; create one (CREATE SCHEMA conductor) or fix search_path", redacted)
	}
	if err != nil {
		pool.Close()
		return nil, 0, b.wrap(err)
	}
	b.notifyTo = notifyChannelOf(*schema)
	if opts.Exclusive || opts.Shared {
		if err := b.holdExclusive(opts.Timeout, opts.Shared); err != nil {
			pool.Close()
			return nil, 0, err
		}
	}
	version, err := b.schemaVersion()
	if err == nil && version == 0 && !opts.ReadOnly {
		// A database without Conductor's tables: nothing to back up first.
		_, version, err = b.migrate()
	}
	if err != nil {
		b.close()
		return nil, 0, err
	}
	return b, version, nil
}

// holdExclusive takes the exclusive lock on a connection of its own, kept
// until close, waiting up to timeout for a process that is stopping.
func (b *pgBackend) holdExclusive(timeout time.Duration, shared bool) error {
	try := "SELECT pg_try_advisory_lock($1, $2)"
	if shared {
		try = "SELECT pg_try_advisory_lock_shared($1, $2)"
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.connCfg.ConnectTimeout+timeout+time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, b.connCfg)
	if err != nil {
		return b.wrap(err)
	}
	deadline := time.Now().Add(timeout)
	for {
		var ok bool
		if err := conn.QueryRow(ctx, try, lockClassGlobal, lockExclusive).Scan(&ok); err != nil {
			conn.Close(context.Background())
			return b.wrap(err)
		}
		if ok {
			b.exclusive = conn
			return nil
		}
		if time.Now().After(deadline) {
			conn.Close(context.Background())
			return fmt.Errorf("%w: another conductor is serving the PostgreSQL database %s (waited %v): stop it, "+
				"or give this one a database of its own; several processes share one database only under shard leases (docs/scale.md)",
				ErrLocked, b.redacted, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// redactDSN is the address without its password, fit for messages.
func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(an address that does not parse)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

func (b *pgBackend) kind() string { return "postgres" }
func (b *pgBackend) name() string { return b.redacted }

func (b *pgBackend) close() error {
	if b.exclusive != nil {
		b.exclusive.Close(context.Background())
		b.exclusive = nil
	}
	b.listenMu.Lock()
	if b.listener != nil {
		b.listener.stop()
		b.listener = nil
	}
	b.listenMu.Unlock()
	b.pool.Close()
	return nil
}

// Transactions are begun, written and committed in as few round trips as
// pgx's batches allow (pgtx.go): BEGIN goes with the first statement,
// writes wait for the next read, COMMIT goes with the last writes.
const (
	beginRead  = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
	beginWrite = "BEGIN ISOLATION LEVEL READ COMMITTED"
)

func (b *pgBackend) view(fn func(txn) error) error {
	return b.run(beginRead, false, fn)
}

// viewOne runs fn, which reads with one statement, without a transaction:
// a statement sees one state of the database by itself.
func (b *pgBackend) viewOne(fn func(txn) error) error {
	return b.run("", false, fn)
}

func (b *pgBackend) update(fn func(txn) error) error {
	var err error
	for attempt := 0; ; attempt++ {
		err = b.run(beginWrite, true, fn)
		if err == nil || !retryable(err) || attempt == pgRetries {
			return err
		}
		// Let the winner finish; spread the losers.
		time.Sleep(time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 6))))
	}
}

// run runs fn in a transaction begun by begin ("": none, one statement) on
// a connection of the pool.
func (b *pgBackend) run(begin string, write bool, fn func(txn) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return b.wrap(err)
	}
	defer conn.Release()
	t := &pgTx{ctx: ctx, conn: conn.Conn(), write: write, begin: begin, notifyTo: b.notifyTo}
	err = fn(t)
	if err == nil {
		err = t.commit()
	}
	if err != nil {
		t.rollback()
	}
	return b.wrap(err)
}

// wrap says which database an error of PostgreSQL's came from.
func (b *pgBackend) wrap(err error) error {
	var pe *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe):
		return fmt.Errorf("store: PostgreSQL (%s): %w", b.redacted, err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("store: PostgreSQL (%s) did not answer within %v: %w", b.redacted, b.timeout, err)
	}
	return err
}

// retryable: the transaction lost a race and may succeed if run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// serialization_failure, deadlock_detected, and a game made in
		// its channel by another transaction since this one looked
		return pe.Code == "40001" || pe.Code == "40P01" || (pe.Code == "23505" && pe.ConstraintName == "games_pkey")
	}
	return false
}
