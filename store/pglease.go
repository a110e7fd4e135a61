package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Shard leases on PostgreSQL: a row per shard in shard_leases, expiry by
// the database's clock (clock_timestamp()), tokens from the lease_token
// sequence. Acquisitions take the leases' advisory lock, so they run one
// at a time across every process; renewals and releases touch only the
// holder's own rows, matched by holder and token.

// leaseCtx bounds a lease call by the caller's context and the backend's
// timeout.
func (b *pgBackend) leaseTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	return b.wrap(pgx.BeginTxFunc(ctx, b.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, fn))
}

func micros(d time.Duration) int64 { return d.Microseconds() }

func (b *pgBackend) acquireShards(ctx context.Context, holder string, r ShardRange, ttl time.Duration) (token int64, expires time.Time, err error) {
	err = b.leaseTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, $2)", lockClassGlobal, lockLeases); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT shard, shard_count, holder, token, expires FROM shard_leases
			WHERE holder <> '' AND expires > clock_timestamp()
			AND (shard_count <> $1 OR (shard BETWEEN $2 AND $3 AND holder <> $4)) ORDER BY shard`,
			int32(r.Count), int32(r.First), int32(r.Last), holder)
		if err != nil {
			return err
		}
		in, err := pgx.CollectRows(rows, scanLeaseRow)
		if err != nil {
			return err
		}
		if len(in) > 0 {
			return heldError(r, in)
		}
		if err := tx.QueryRow(ctx, "SELECT nextval('lease_token'), clock_timestamp() + $1 * interval '1 microsecond'",
			micros(ttl)).Scan(&token, &expires); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO shard_leases (shard, shard_count, holder, token, expires, renewed)
			SELECT g, $1, $4, $5, $6, clock_timestamp() FROM generate_series($2::integer, $3::integer) AS g
			ON CONFLICT (shard) DO UPDATE SET shard_count = EXCLUDED.shard_count, holder = EXCLUDED.holder,
				token = EXCLUDED.token, expires = EXCLUDED.expires, renewed = EXCLUDED.renewed`,
			int32(r.Count), int32(r.First), int32(r.Last), holder, token, expires)
		return err
	})
	return token, expires.UTC(), err
}

func scanLeaseRow(row pgx.CollectableRow) (LeaseRow, error) {
	var l LeaseRow
	var shard, count int32
	err := row.Scan(&shard, &count, &l.Holder, &l.Token, &l.Expires)
	l.Shard, l.Count, l.Expires = int(shard), int(count), l.Expires.UTC()
	l.Live = true
	return l, err
}

func (b *pgBackend) renewShards(ctx context.Context, l *ShardLease, ttl time.Duration) (expires time.Time, err error) {
	err = b.leaseTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE shard_leases SET expires = clock_timestamp() + $1 * interval '1 microsecond', renewed = clock_timestamp()
			WHERE shard BETWEEN $2 AND $3 AND shard_count = $4 AND holder = $5 AND token = $6 AND expires > clock_timestamp()`,
			micros(ttl), int32(l.Range.First), int32(l.Range.Last), int32(l.Range.Count), l.Holder, l.Token)
		if err != nil {
			return err
		}
		if int(tag.RowsAffected()) != l.Range.Last-l.Range.First+1 {
			// Rolled back: the shards still held keep their expiry.
			return fmt.Errorf("%w: %s of %s (token %d)", ErrLeaseLost, l.Range, l.Holder, l.Token)
		}
		return tx.QueryRow(ctx, "SELECT max(expires) FROM shard_leases WHERE shard BETWEEN $1 AND $2",
			int32(l.Range.First), int32(l.Range.Last)).Scan(&expires)
	})
	return expires.UTC(), err
}

func (b *pgBackend) releaseShards(ctx context.Context, l *ShardLease) error {
	return b.leaseTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE shard_leases SET holder = '', expires = to_timestamp(0)
			WHERE shard BETWEEN $1 AND $2 AND holder = $3 AND token = $4`,
			int32(l.Range.First), int32(l.Range.Last), l.Holder, l.Token)
		return err
	})
}

func (b *pgBackend) shardLeases(ctx context.Context) ([]LeaseRow, error) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	rows, err := b.pool.Query(ctx, `SELECT shard, shard_count, holder, token, expires,
		holder <> '' AND expires > clock_timestamp(), coalesce(renewed, to_timestamp(0)), clock_timestamp() FROM shard_leases ORDER BY shard`)
	if err != nil {
		return nil, b.wrap(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (LeaseRow, error) {
		var l LeaseRow
		var shard, count int32
		var renewed, now time.Time
		err := row.Scan(&shard, &count, &l.Holder, &l.Token, &l.Expires, &l.Live, &renewed, &now)
		l.Shard, l.Count, l.Expires = int(shard), int(count), l.Expires.UTC()
		l.Heartbeat = now.Sub(renewed)
		return l, err
	})
	return out, b.wrap(err)
}
