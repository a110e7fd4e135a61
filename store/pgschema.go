package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The PostgreSQL schema, versioned in the database: conductor_schema holds
// a row per migration applied. Opening a database without it creates the
// whole schema; an older one is upgraded step by step, each step in a
// transaction of its own that first takes the schema lock, so that two
// processes starting together upgrade once. Text keys are COLLATE "C":
// ordered by their bytes, as the bbolt file orders them.
//
// Version 1:
//
//	meta            key → value: the replay key
//	games           a live game per channel: its header (GameRecord as JSON,
//	                without the log) and the columns its indexes read:
//	                guild and status (games_guild), parent and members
//	                (games_parent), rematch_of (games_rematch), the
//	                deadline's time in Unix nanoseconds and kind (games_due)
//	game_logs       a game's log in chunks of 32 moves (logcodec.go)
//	game_snapshots  a game's latest snapshot
//	game_parked     what the service parked of a table
//	outbox          the posts waiting, by queue and sequence (outbox_seq)
//	archive         finished games: summary and full record, by guild,
//	                finishing time and id
//	shard_leases    which process serves which shard, until when (lease.go)
//
// Version 2:
//
//	ratings         the ratings' index, derived from the archive
//	                (ratings.go): rows by guild, kind and key, the ranked
//	                ones also by rank (ratings_rank)
//	guild_settings  a server's own settings (seasons.go)
//
// A game's log, snapshot and parked state reference its row and go with
// it (ON DELETE CASCADE).
//
// Version 3:
//
//	shared_records  what the live page keeps for every process (shared.go):
//	                activity launches, sessions by a hash of their token,
//	                moves forwarded to a table's owner, with their answers
//
// Version 4:
//
//	pacing          key → the next free slot (pacing.go), and the time each
//	                shard's lease was last renewed (shard_leases.renewed, the
//	                fleet's heartbeats)

var pgMigrations = []struct {
	name string
	sql  string
}{
	{"games, logs, snapshots, parked tables, outbox, archive, meta and shard leases", `
CREATE TABLE meta (
	key   text COLLATE "C" PRIMARY KEY,
	value bytea NOT NULL
);
CREATE TABLE games (
	channel    text COLLATE "C" PRIMARY KEY,
	guild      text COLLATE "C" NOT NULL,
	status     text NOT NULL,
	parent     text COLLATE "C",
	members    text,
	rematch_of text COLLATE "C",
	due_ns     bigint,
	due_kind   text,
	header     bytea NOT NULL
);
CREATE INDEX games_guild ON games (guild, channel);
CREATE INDEX games_parent ON games (parent, channel) WHERE parent IS NOT NULL;
CREATE INDEX games_rematch ON games (rematch_of, channel) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_due ON games (due_ns, channel) WHERE due_ns IS NOT NULL;
CREATE TABLE game_logs (
	channel text COLLATE "C" NOT NULL REFERENCES games ON DELETE CASCADE,
	chunk   integer NOT NULL,
	data    bytea NOT NULL,
	PRIMARY KEY (channel, chunk)
);
CREATE TABLE game_snapshots (
	channel text COLLATE "C" PRIMARY KEY REFERENCES games ON DELETE CASCADE,
	data    bytea NOT NULL
);
CREATE TABLE game_parked (
	channel text COLLATE "C" PRIMARY KEY REFERENCES games ON DELETE CASCADE,
	data    bytea NOT NULL
);
CREATE SEQUENCE outbox_seq;
CREATE TABLE outbox (
	seq   bigint PRIMARY KEY,
	queue text COLLATE "C" NOT NULL,
	entry bytea NOT NULL
);
CREATE INDEX outbox_queue ON outbox (queue, seq);
CREATE TABLE archive (
	guild    text COLLATE "C" NOT NULL,
	finished text COLLATE "C" NOT NULL,
	game_id  text COLLATE "C" NOT NULL,
	summary  bytea NOT NULL,
	game     bytea NOT NULL,
	PRIMARY KEY (guild, finished, game_id)
);
CREATE INDEX archive_game ON archive (guild, game_id);
CREATE SEQUENCE lease_token;
CREATE TABLE shard_leases (
	shard       integer PRIMARY KEY,
	shard_count integer NOT NULL,
	holder      text NOT NULL,
	token       bigint NOT NULL,
	expires     timestamptz NOT NULL
);
`},
	{"the ratings' index and the servers' settings", `
CREATE TABLE ratings (
	guild text COLLATE "C" NOT NULL,
	kind  text COLLATE "C" NOT NULL,
	key   text COLLATE "C" NOT NULL,
	rank  bigint,
	value bytea NOT NULL,
	PRIMARY KEY (guild, kind, key)
);
CREATE INDEX ratings_rank ON ratings (guild, kind, rank DESC, key) WHERE rank IS NOT NULL;
CREATE TABLE guild_settings (
	guild text COLLATE "C" PRIMARY KEY,
	value bytea NOT NULL
);
`},
	{"shared records of the live page: launches, sessions, forwarded moves", `
CREATE TABLE shared_records (
	kind       text COLLATE "C" NOT NULL,
	key        text COLLATE "C" NOT NULL,
	owner      text COLLATE "C" NOT NULL,
	grp        text COLLATE "C" NOT NULL,
	value      bytea NOT NULL,
	expires_ns bigint NOT NULL,
	PRIMARY KEY (kind, key)
);
CREATE INDEX shared_owner ON shared_records (kind, owner, expires_ns);
CREATE INDEX shared_grp ON shared_records (kind, grp);
CREATE INDEX shared_expires ON shared_records (kind, expires_ns);
`},
	{"pacing: the fleet's shared request and login slots; when each lease was last renewed", `
CREATE TABLE pacing (
	key  text COLLATE "C" PRIMARY KEY,
	next timestamptz NOT NULL
);
ALTER TABLE shard_leases ADD COLUMN renewed timestamptz;
`},
}

const pgSchemaTable = `CREATE TABLE IF NOT EXISTS conductor_schema (
	version integer PRIMARY KEY,
	name    text NOT NULL,
	applied timestamptz NOT NULL DEFAULT now()
)`

func (b *pgBackend) latestSchema() int { return len(pgMigrations) }

// schemaVersion is the latest migration applied; 0 for a database without
// Conductor's schema.
func (b *pgBackend) schemaVersion() (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	var exists bool
	if err := b.pool.QueryRow(ctx, "SELECT to_regclass('conductor_schema') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return 0, b.wrap(err)
	}
	var v int
	err := b.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM conductor_schema").Scan(&v)
	return v, b.wrap(err)
}

func (b *pgBackend) migrate() (from, to int, err error) {
	if from, err = b.schemaVersion(); err != nil {
		return 0, 0, err
	}
	if from > len(pgMigrations) {
		return from, from, fmt.Errorf("%w: version %d, this build knows up to %d", ErrSchemaTooNew, from, len(pgMigrations))
	}
	to = from
	for v := from; v < len(pgMigrations); v++ {
		step := pgMigrations[v]
		err := b.tx(func(ctx context.Context, tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, $2)", lockClassGlobal, lockSchema); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, pgSchemaTable); err != nil {
				return err
			}
			var cur int
			if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM conductor_schema").Scan(&cur); err != nil {
				return err
			}
			if cur > v { // another process did it meanwhile
				return nil
			}
			if _, err := tx.Exec(ctx, step.sql); err != nil {
				return fmt.Errorf("%w (give Conductor a database of its own: its tables must not clash with another application's)", err)
			}
			_, err := tx.Exec(ctx, "INSERT INTO conductor_schema (version, name) VALUES ($1, $2)", v+1, step.name)
			return err
		})
		if err != nil {
			return from, to, fmt.Errorf("store: migration %d->%d (%s): %w", v, v+1, step.name, err)
		}
		to = v + 1
	}
	return from, to, nil
}
