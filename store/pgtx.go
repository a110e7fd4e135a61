package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgTx is a transaction on PostgreSQL, on the schema of pgschema.go, in as
// few round trips as it can: the BEGIN is sent with the first statement;
// a write that returns nothing the store needs is queued and sent with the
// next read, or with the COMMIT. A write the store must check (an archive
// key already held) is sent at once. Nothing queued relies on the client
// to judge it: a write that must fail, fails on the server (a game
// inserted where another process just made one meets the primary key), so
// that the COMMIT sent behind it ends in a rollback.
type pgTx struct {
	ctx      context.Context
	conn     *pgx.Conn
	write    bool
	begin    string // the BEGIN statement; "": one statement, no transaction
	begun    bool
	sent     int        // statements sent, to hold a transaction-less one to one
	batch    *pgx.Batch // what waits to be sent
	notifyTo string
	notified []string
	// tails holds the last chunks header read with a game, until the
	// game's log is written.
	tails map[string][]chunk
}

var _ txn = (*pgTx)(nil)

// errOneStatement: a transaction-less read issued a second statement.
var errOneStatement = errors.New("store: a one-statement read issued a second statement")

func (t *pgTx) queue(sql string, args ...any) (*pgx.QueuedQuery, error) {
	if t.batch == nil {
		t.batch = &pgx.Batch{}
	}
	if t.begin == "" {
		if t.sent++; t.sent > 1 {
			return nil, errOneStatement
		}
	} else if !t.begun {
		t.batch.Queue(t.begin)
		t.begun = true
	}
	return t.batch.Queue(sql, args...), nil
}

// exec queues a write.
func (t *pgTx) exec(sql string, args ...any) error {
	_, err := t.queue(sql, args...)
	return err
}

// pgRoundTrips counts the batches sent: what a test of the round trips
// an operation costs reads.
var pgRoundTrips atomic.Int64

// send sends what waits.
func (t *pgTx) send() error {
	if t.batch == nil {
		return nil
	}
	b := t.batch
	t.batch = nil
	pgRoundTrips.Add(1)
	return t.conn.SendBatch(t.ctx, b).Close()
}

// query sends what waits with a read, and scans its rows.
func (t *pgTx) query(scan func(pgx.Rows) error, sql string, args ...any) error {
	q, err := t.queue(sql, args...)
	if err != nil {
		return err
	}
	q.Query(scan)
	return t.send()
}

// queryRow sends what waits with a read of one row, and scans it; found
// is false when the read found no row.
func (t *pgTx) queryRow(dest []any, sql string, args ...any) (found bool, err error) {
	q, err := t.queue(sql, args...)
	if err != nil {
		return false, err
	}
	q.QueryRow(func(row pgx.Row) error {
		err := row.Scan(dest...)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	return found, t.send()
}

// commit sends what waits with the COMMIT.
func (t *pgTx) commit() error {
	if t.begun {
		if t.batch == nil {
			t.batch = &pgx.Batch{}
		}
		t.batch.Queue("COMMIT")
		t.begun = false
	}
	return t.send()
}

// rollback ends a transaction that failed; a connection left unusable is
// closed, and the pool drops it.
func (t *pgTx) rollback() {
	t.batch = nil
	if t.begun && !t.conn.IsClosed() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := t.conn.Exec(ctx, "ROLLBACK"); err != nil {
			t.conn.Close(ctx)
		}
	}
	t.begun = false
}

func (t *pgTx) header(channel string) (*GameRecord, error) {
	q := "SELECT header FROM games WHERE channel = $1"
	if t.write {
		q += " FOR UPDATE" // claims the game: see txn
	}
	var raw []byte
	hq, err := t.queue(q, channel)
	if err != nil {
		return nil, err
	}
	found := false
	hq.QueryRow(func(row pgx.Row) error {
		err := row.Scan(&raw)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	if t.write {
		// A writer of a game reads its log's end next (a move): read it
		// with the row lock, after it (READ COMMITTED: the latest commit).
		var tail []chunk
		cq, _ := t.queue("SELECT chunk, data FROM game_logs WHERE channel = $1 ORDER BY chunk DESC LIMIT 2", channel)
		cq.Query(func(rows pgx.Rows) error {
			var err error
			tail, err = pgx.CollectRows(rows, scanChunk)
			return err
		})
		if err := t.send(); err != nil {
			return nil, err
		}
		if t.tails == nil {
			t.tails = map[string][]chunk{}
		}
		t.tails[channel] = tail
	} else if err := t.send(); err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound(channel)
	}
	return decodeHeader(raw)
}

// nullable is s, or NULL when empty.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// putHeader inserts a new game's row (a game made meanwhile by another
// transaction meets the primary key: the transaction runs again), or
// updates the row header claimed.
func (t *pgTx) putHeader(old, h *GameRecord) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	args := gameRow(h, data)
	if old == nil {
		return t.exec(insertGame, args...)
	}
	return t.exec(`UPDATE games SET guild = $2, status = $3, parent = $4, members = $5, rematch_of = $6,
		due_ns = $7, due_kind = $8, header = $9 WHERE channel = $1`, args...)
}

const insertGame = `INSERT INTO games (channel, guild, status, parent, members, rematch_of, due_ns, due_kind, header)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`

// gameRow is the games row of header h, stored as data: the header and
// the columns its indexes read.
func gameRow(h *GameRecord, data []byte) []any {
	var seated, dueKind *string
	var dueNs *int64
	parent := h.Options[optionParent]
	if parent != "" {
		m := strings.Join(members(h), ",")
		seated = &m
	}
	if d := h.Due; d != nil && !d.At.IsZero() {
		n := dueNanos(d.At)
		dueNs, dueKind = &n, &d.Kind
	}
	return []any{h.Channel, h.Guild, h.Status, nullable(parent), seated, nullable(h.Options[optionRematchOf]), dueNs, dueKind, data}
}

func (t *pgTx) deleteGame(old *GameRecord) error {
	delete(t.tails, old.Channel)
	// The log, snapshot and parked state go with the row (ON DELETE CASCADE).
	return t.exec("DELETE FROM games WHERE channel = $1", old.Channel)
}

func scanChunk(r pgx.CollectableRow) (chunk, error) {
	var c chunk
	var i int32
	err := r.Scan(&i, &c.Data)
	c.I = int(i)
	return c, err
}

func (t *pgTx) queryChunks(sql string, channel string) ([]chunk, error) {
	var out []chunk
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, scanChunk)
		return err
	}, sql, channel)
	return out, err
}

func (t *pgTx) chunks(channel string) ([]chunk, error) {
	return t.queryChunks("SELECT chunk, data FROM game_logs WHERE channel = $1 ORDER BY chunk", channel)
}

func (t *pgTx) lastChunks(channel string) ([]chunk, error) {
	if tail, ok := t.tails[channel]; ok {
		return tail, nil
	}
	return t.queryChunks("SELECT chunk, data FROM game_logs WHERE channel = $1 ORDER BY chunk DESC LIMIT 2", channel)
}

func (t *pgTx) putChunk(channel string, i int, data []byte) error {
	delete(t.tails, channel)
	return t.exec(`INSERT INTO game_logs (channel, chunk, data) VALUES ($1, $2, $3)
		ON CONFLICT (channel, chunk) DO UPDATE SET data = EXCLUDED.data`, channel, int32(i), data)
}

func (t *pgTx) deleteChunks(channel string, from int) error {
	delete(t.tails, channel)
	return t.exec("DELETE FROM game_logs WHERE channel = $1 AND chunk >= $2", channel, int32(from))
}

func blobTable(kind blobKind) string {
	if kind == blobSnapshot {
		return "game_snapshots"
	}
	return "game_parked"
}

func (t *pgTx) blob(kind blobKind, channel string) ([]byte, error) {
	var data []byte
	_, err := t.queryRow([]any{&data}, "SELECT data FROM "+blobTable(kind)+" WHERE channel = $1", channel)
	return data, err
}

func (t *pgTx) putBlob(kind blobKind, channel string, data []byte) error {
	return t.exec("INSERT INTO "+blobTable(kind)+` (channel, data) VALUES ($1, $2)
		ON CONFLICT (channel) DO UPDATE SET data = EXCLUDED.data`, channel, data)
}

func (t *pgTx) deleteBlob(kind blobKind, channel string) error {
	return t.exec("DELETE FROM "+blobTable(kind)+" WHERE channel = $1", channel)
}

// loadGame reads a game's header, and when asked its log and what it
// keeps beside it, in one statement.
func (t *pgTx) loadGame(channel string, log, extras bool) (*gameParts, error) {
	var raw []byte
	var nums []int32
	var data [][]byte
	var snapshot, parked []byte
	found, err := t.queryRow([]any{&raw, &nums, &data, &snapshot, &parked}, `SELECT g.header,
		CASE WHEN $2 THEN (SELECT array_agg(chunk ORDER BY chunk) FROM game_logs WHERE channel = $1) END,
		CASE WHEN $2 THEN (SELECT array_agg(data ORDER BY chunk) FROM game_logs WHERE channel = $1) END,
		CASE WHEN $3 THEN (SELECT data FROM game_snapshots WHERE channel = $1) END,
		CASE WHEN $3 THEN (SELECT data FROM game_parked WHERE channel = $1) END
		FROM games g WHERE g.channel = $1`, channel, log, extras)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound(channel)
	}
	rec, err := decodeHeader(raw)
	if err != nil {
		return nil, err
	}
	p := &gameParts{header: rec, snapshot: snapshot, parked: parked}
	if len(nums) != len(data) {
		return nil, fmt.Errorf("%w: game %s's log chunks", errCorrupt, channel)
	}
	for i := range nums {
		p.chunks = append(p.chunks, chunk{I: int(nums[i]), Data: data[i]})
	}
	return p, nil
}

func (t *pgTx) eachHeader(fn func(*GameRecord) error) error {
	type row struct {
		channel string
		raw     []byte
	}
	var all []row
	err := t.query(func(rows pgx.Rows) error {
		var err error
		all, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
			var x row
			err := r.Scan(&x.channel, &x.raw)
			return x, err
		})
		return err
	}, "SELECT channel, header FROM games ORDER BY channel")
	if err != nil {
		return err
	}
	for _, x := range all {
		rec, err := decodeHeader(x.raw)
		if err != nil {
			return fmt.Errorf("games/%s: %w", x.channel, err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

func (t *pgTx) guildGames(guild string) ([]guildGame, error) {
	var out []guildGame
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (guildGame, error) {
			var g guildGame
			err := r.Scan(&g.Channel, &g.Status)
			return g, err
		})
		return err
	}, "SELECT channel, status FROM games WHERE guild = $1 ORDER BY channel", guild)
	return out, err
}

func (t *pgTx) threads(parent string) ([]Thread, error) {
	var out []Thread
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Thread, error) {
			var th Thread
			var m *string
			err := r.Scan(&th.Channel, &m)
			if m != nil && *m != "" {
				th.Members = strings.Split(*m, ",")
			}
			return th, err
		})
		return err
	}, "SELECT channel, members FROM games WHERE parent = $1 ORDER BY channel", parent)
	return out, err
}

func (t *pgTx) rematchOf(id string) (string, error) {
	var ch string
	found, err := t.queryRow([]any{&ch}, "SELECT channel FROM games WHERE rematch_of = $1 ORDER BY channel LIMIT 1", id)
	if err == nil && !found {
		err = fmt.Errorf("%w: no rematch of game %s", ErrNotFound, id)
	}
	return ch, err
}

// dueGames reads the rows of a query of games' deadlines (channel, due_ns,
// due_kind).
func (t *pgTx) dueGames(sql string, args ...any) ([]DueGame, error) {
	var out []DueGame
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (DueGame, error) {
			var d DueGame
			var ns int64
			err := r.Scan(&d.Channel, &ns, &d.Kind)
			d.At = time.Unix(0, ns).UTC()
			return d, err
		})
		return err
	}, sql, args...)
	return out, err
}

func (t *pgTx) due(until time.Time, limit int) ([]DueGame, error) {
	return t.dueGames(`SELECT channel, due_ns, due_kind FROM games WHERE due_ns <= $1 ORDER BY due_ns, channel LIMIT $2`, dueNanos(until), limit)
}

// dueOf filters in the database: a guild id's shard is computed as a
// numeric (ids reach 2^64), and anything else is shard 0's.
func (t *pgTx) dueOf(o *Owned, until time.Time, limit int) ([]DueGame, error) {
	if o == nil {
		return t.due(until, limit)
	}
	shards := make([]int32, len(o.Shards))
	for i, sh := range o.Shards {
		shards[i] = int32(sh)
	}
	return t.dueGames(`SELECT channel, due_ns, due_kind FROM games WHERE due_ns <= $1
		AND (CASE WHEN guild ~ '^[0-9]{1,20}$' AND $3 > 1 THEN mod(div(guild::numeric, 4194304), $3)::integer ELSE 0 END) = ANY($4::integer[])
		ORDER BY due_ns, channel LIMIT $2`, dueNanos(until), limit, int32(max(o.Count, 1)), shards)
}

func (t *pgTx) queueHeads() ([]queuedPost, error) {
	var out []queuedPost
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (queuedPost, error) {
			var p queuedPost
			var seq int64
			err := r.Scan(&p.Queue, &seq, &p.Data)
			p.Seq = uint64(seq)
			return p, err
		})
		return err
	}, "SELECT DISTINCT ON (queue) queue, seq, entry FROM outbox ORDER BY queue, seq")
	return out, err
}

func (t *pgTx) strings(sql string, args ...any) ([]string, error) {
	var out []string
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	}, sql, args...)
	return out, err
}

func (t *pgTx) guilds() ([]string, error) {
	return t.strings("SELECT guild FROM games UNION SELECT guild FROM archive ORDER BY 1")
}

func (t *pgTx) guildCounts(guild string) (live, archived int, err error) {
	_, err = t.queryRow([]any{&live, &archived}, `SELECT (SELECT count(*) FROM games WHERE guild = $1),
		(SELECT count(*) FROM archive WHERE guild = $1)`, guild)
	return live, archived, err
}

// lockQueues takes the queues' advisory locks in the order given (sorted
// by the caller), in one statement.
func (t *pgTx) lockQueues(queues []string) error {
	return t.exec("SELECT pg_advisory_xact_lock($1, hashtext(q)) FROM unnest($2::text[]) AS q", lockClassQueue, queues)
}

func (t *pgTx) nextSeqs(n int) ([]uint64, error) {
	var seqs []int64
	err := t.query(func(rows pgx.Rows) error {
		var err error
		seqs, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	}, "SELECT nextval('outbox_seq') FROM generate_series(1, $1)", n)
	out := make([]uint64, len(seqs))
	for i, s := range seqs {
		out[i] = uint64(s)
	}
	// nextval runs row by row: the sequences are increasing; sort anyway,
	// the order is the contract.
	slices.Sort(out)
	return out, err
}

func (t *pgTx) putPosts(ps []queuedPost) error {
	seqs := make([]int64, len(ps))
	queues := make([]string, len(ps))
	data := make([][]byte, len(ps))
	for i, p := range ps {
		seqs[i], queues[i], data[i] = int64(p.Seq), p.Queue, p.Data
	}
	return t.exec(`INSERT INTO outbox (seq, queue, entry)
		SELECT * FROM unnest($1::bigint[], $2::text[], $3::bytea[])`, seqs, queues, data)
}

func (t *pgTx) posts(queue string) ([]post, error) {
	var out []post
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (post, error) {
			var p post
			var seq int64
			err := r.Scan(&seq, &p.Data)
			p.Seq = uint64(seq)
			return p, err
		})
		return err
	}, "SELECT seq, entry FROM outbox WHERE queue = $1 ORDER BY seq", queue)
	return out, err
}

func (t *pgTx) deletePosts(queue string, seqs []uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	s := make([]int64, len(seqs))
	for i, q := range seqs {
		s[i] = int64(q)
	}
	return t.exec("DELETE FROM outbox WHERE queue = $1 AND seq = ANY($2)", queue, s)
}

func (t *pgTx) queues() ([]string, error) {
	return t.strings("SELECT DISTINCT queue FROM outbox ORDER BY queue")
}

func (t *pgTx) eachPost(skip func(string) bool, fn func([]byte)) error {
	return t.query(func(rows pgx.Rows) error {
		var q string
		var v []byte
		_, err := pgx.ForEachRow(rows, []any{&q, &v}, func() error {
			if skip == nil || !skip(q) {
				fn(v)
			}
			return nil
		})
		return err
	}, "SELECT queue, entry FROM outbox")
}

func (t *pgTx) archived(guild string, fn func(archiveKey, []byte) error) error {
	return t.query(func(rows pgx.Rows) error {
		k := archiveKey{Guild: guild}
		var v []byte
		_, err := pgx.ForEachRow(rows, []any{&k.Finished, &k.ID, &v}, func() error {
			return fn(k, v)
		})
		return err
	}, "SELECT finished, game_id, summary FROM archive WHERE guild = $1 ORDER BY finished, game_id", guild)
}

func (t *pgTx) archivedByID(guild, id string) (*archiveKey, []byte, error) {
	k := archiveKey{Guild: guild, ID: id}
	var v []byte
	found, err := t.queryRow([]any{&k.Finished, &v},
		"SELECT finished, summary FROM archive WHERE guild = $1 AND game_id = $2 ORDER BY finished LIMIT 1", guild, id)
	if err != nil || !found {
		return nil, nil, err
	}
	return &k, v, nil
}

func (t *pgTx) archivedGame(key archiveKey) ([]byte, error) {
	q := "SELECT game FROM archive WHERE guild = $1 AND finished = $2 AND game_id = $3"
	if t.write {
		q += " FOR UPDATE"
	}
	var v []byte
	_, err := t.queryRow([]any{&v}, q, key.Guild, key.Finished, key.ID)
	return v, err
}

// putArchived is sent at once: whether the key was held decides the
// error.
func (t *pgTx) putArchived(key archiveKey, summary, full []byte) error {
	var inserted bool
	_, err := t.queryRow([]any{&inserted}, `WITH i AS (INSERT INTO archive (guild, finished, game_id, summary, game)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*) > 0 FROM i`,
		key.Guild, key.Finished, key.ID, summary, full)
	if err == nil && !inserted {
		return errArchived
	}
	return err
}

func (t *pgTx) putArchivedSummary(key archiveKey, summary []byte) error {
	return t.exec("UPDATE archive SET summary = $4 WHERE guild = $1 AND finished = $2 AND game_id = $3",
		key.Guild, key.Finished, key.ID, summary)
}

func (t *pgTx) putArchivedGame(key archiveKey, full []byte) error {
	return t.exec("UPDATE archive SET game = $4 WHERE guild = $1 AND finished = $2 AND game_id = $3",
		key.Guild, key.Finished, key.ID, full)
}

func (t *pgTx) forgetArchived(guild string) (int, error) {
	var n int
	_, err := t.queryRow([]any{&n}, "WITH d AS (DELETE FROM archive WHERE guild = $1 RETURNING 1) SELECT count(*) FROM d", guild)
	return n, err
}

func (t *pgTx) meta(key string) ([]byte, error) {
	if t.write {
		// Claims the key, present or not: see ReplayKey.
		if err := t.exec("SELECT pg_advisory_xact_lock($1, hashtext($2))", lockClassMeta, key); err != nil {
			return nil, err
		}
	}
	var v []byte
	_, err := t.queryRow([]any{&v}, "SELECT value FROM meta WHERE key = $1", key)
	return v, err
}

func (t *pgTx) putMeta(key string, value []byte) error {
	return t.exec("INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", key, value)
}

// notify queues a notification, sent by PostgreSQL when the transaction
// commits (and dropped when it rolls back).
func (t *pgTx) notify(channel string) error {
	if slices.Contains(t.notified, channel) {
		return nil
	}
	t.notified = append(t.notified, channel)
	return t.exec("SELECT pg_notify($1, $2)", t.notifyTo, channel)
}

// checkFence holds the fence's lease row until the transaction ends (FOR
// SHARE): a takeover, which updates the row, waits for the move to commit,
// and a move after the takeover finds the row changed.
func (t *pgTx) checkFence(f *Fence) error {
	var one int
	found, err := t.queryRow([]any{&one}, `SELECT 1 FROM shard_leases WHERE shard = $1 AND holder = $2 AND token = $3
		AND expires > clock_timestamp() FOR SHARE`, int32(f.Shard), f.Holder, f.Token)
	if err == nil && !found {
		return fmt.Errorf("%w: shard %d is no longer %s's (token %d)", ErrLeaseLost, f.Shard, f.Holder, f.Token)
	}
	return err
}
