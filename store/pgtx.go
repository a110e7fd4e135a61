package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

var _ txn = (*pgTx)(nil)

func (t *pgTx) header(channel string) (*GameRecord, error) {
	q := "SELECT header FROM games WHERE channel = $1"
	if t.write {
		q += " FOR UPDATE" // claims the game: see txn
	}
	var raw []byte
	err := t.tx.QueryRow(t.ctx, q, channel).Scan(&raw)
	if isNoRows(err) {
		return nil, notFound(channel)
	}
	if err != nil {
		return nil, err
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

func (t *pgTx) putHeader(old, h *GameRecord) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	args := gameRow(h, data)
	if old == nil {
		tag, err := t.tx.Exec(t.ctx, insertGame+" ON CONFLICT (channel) DO NOTHING", args...)
		if err == nil && tag.RowsAffected() == 0 {
			return errRace // made by another transaction since header looked
		}
		return err
	}
	tag, err := t.tx.Exec(t.ctx, `UPDATE games SET guild = $2, status = $3, parent = $4, members = $5, rematch_of = $6,
		due_ns = $7, due_kind = $8, header = $9 WHERE channel = $1`, args...)
	if err == nil && tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: the game in %s was not claimed before it was written", errCorrupt, h.Channel)
	}
	return err
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
	// The log, snapshot and parked state go with the row (ON DELETE CASCADE).
	_, err := t.tx.Exec(t.ctx, "DELETE FROM games WHERE channel = $1", old.Channel)
	return err
}

func (t *pgTx) queryChunks(q string, channel string) ([]chunk, error) {
	rows, err := t.tx.Query(t.ctx, q, channel)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (chunk, error) {
		var c chunk
		var i int32
		err := r.Scan(&i, &c.Data)
		c.I = int(i)
		return c, err
	})
}

func (t *pgTx) chunks(channel string) ([]chunk, error) {
	return t.queryChunks("SELECT chunk, data FROM game_logs WHERE channel = $1 ORDER BY chunk", channel)
}

func (t *pgTx) lastChunks(channel string) ([]chunk, error) {
	return t.queryChunks("SELECT chunk, data FROM game_logs WHERE channel = $1 ORDER BY chunk DESC LIMIT 2", channel)
}

func (t *pgTx) putChunk(channel string, i int, data []byte) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO game_logs (channel, chunk, data) VALUES ($1, $2, $3)
		ON CONFLICT (channel, chunk) DO UPDATE SET data = EXCLUDED.data`, channel, int32(i), data)
	return err
}

func (t *pgTx) deleteChunks(channel string, from int) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM game_logs WHERE channel = $1 AND chunk >= $2", channel, int32(from))
	return err
}

func blobTable(kind blobKind) string {
	if kind == blobSnapshot {
		return "game_snapshots"
	}
	return "game_parked"
}

func (t *pgTx) blob(kind blobKind, channel string) ([]byte, error) {
	var data []byte
	err := t.tx.QueryRow(t.ctx, "SELECT data FROM "+blobTable(kind)+" WHERE channel = $1", channel).Scan(&data)
	if isNoRows(err) {
		return nil, nil
	}
	return data, err
}

func (t *pgTx) putBlob(kind blobKind, channel string, data []byte) error {
	_, err := t.tx.Exec(t.ctx, "INSERT INTO "+blobTable(kind)+` (channel, data) VALUES ($1, $2)
		ON CONFLICT (channel) DO UPDATE SET data = EXCLUDED.data`, channel, data)
	return err
}

func (t *pgTx) deleteBlob(kind blobKind, channel string) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM "+blobTable(kind)+" WHERE channel = $1", channel)
	return err
}

func (t *pgTx) eachHeader(fn func(*GameRecord) error) error {
	rows, err := t.tx.Query(t.ctx, "SELECT channel, header FROM games ORDER BY channel")
	if err != nil {
		return err
	}
	type row struct {
		channel string
		raw     []byte
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.channel, &x.raw)
		return x, err
	})
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
	rows, err := t.tx.Query(t.ctx, "SELECT channel, status FROM games WHERE guild = $1 ORDER BY channel", guild)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (guildGame, error) {
		var g guildGame
		err := r.Scan(&g.Channel, &g.Status)
		return g, err
	})
}

func (t *pgTx) threads(parent string) ([]Thread, error) {
	rows, err := t.tx.Query(t.ctx, "SELECT channel, members FROM games WHERE parent = $1 ORDER BY channel", parent)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Thread, error) {
		var th Thread
		var m *string
		err := r.Scan(&th.Channel, &m)
		if m != nil && *m != "" {
			th.Members = strings.Split(*m, ",")
		}
		return th, err
	})
}

func (t *pgTx) rematchOf(id string) (string, error) {
	var ch string
	err := t.tx.QueryRow(t.ctx, "SELECT channel FROM games WHERE rematch_of = $1 ORDER BY channel LIMIT 1", id).Scan(&ch)
	if isNoRows(err) {
		return "", fmt.Errorf("%w: no rematch of game %s", ErrNotFound, id)
	}
	return ch, err
}

func (t *pgTx) due(until time.Time, limit int) ([]DueGame, error) {
	rows, err := t.tx.Query(t.ctx, `SELECT channel, due_ns, due_kind FROM games
		WHERE due_ns <= $1 ORDER BY due_ns, channel LIMIT $2`, dueNanos(until), limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (DueGame, error) {
		var d DueGame
		var ns int64
		err := r.Scan(&d.Channel, &ns, &d.Kind)
		d.At = time.Unix(0, ns).UTC()
		return d, err
	})
}

func (t *pgTx) guilds() ([]string, error) {
	rows, err := t.tx.Query(t.ctx, "SELECT guild FROM games UNION SELECT guild FROM archive ORDER BY 1")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func (t *pgTx) guildCounts(guild string) (live, archived int, err error) {
	err = t.tx.QueryRow(t.ctx, `SELECT (SELECT count(*) FROM games WHERE guild = $1),
		(SELECT count(*) FROM archive WHERE guild = $1)`, guild).Scan(&live, &archived)
	return live, archived, err
}

// lockQueues takes the queues' advisory locks in the order given (sorted
// by the caller), in one statement.
func (t *pgTx) lockQueues(queues []string) error {
	_, err := t.tx.Exec(t.ctx, "SELECT pg_advisory_xact_lock($1, hashtext(q)) FROM unnest($2::text[]) AS q", lockClassQueue, queues)
	return err
}

func (t *pgTx) nextSeqs(n int) ([]uint64, error) {
	rows, err := t.tx.Query(t.ctx, "SELECT nextval('outbox_seq') FROM generate_series(1, $1)", n)
	if err != nil {
		return nil, err
	}
	seqs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
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
	_, err := t.tx.Exec(t.ctx, `INSERT INTO outbox (seq, queue, entry)
		SELECT * FROM unnest($1::bigint[], $2::text[], $3::bytea[])`, seqs, queues, data)
	return err
}

func (t *pgTx) posts(queue string) ([]post, error) {
	rows, err := t.tx.Query(t.ctx, "SELECT seq, entry FROM outbox WHERE queue = $1 ORDER BY seq", queue)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (post, error) {
		var p post
		var seq int64
		err := r.Scan(&seq, &p.Data)
		p.Seq = uint64(seq)
		return p, err
	})
}

func (t *pgTx) deletePosts(queue string, seqs []uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	s := make([]int64, len(seqs))
	for i, q := range seqs {
		s[i] = int64(q)
	}
	_, err := t.tx.Exec(t.ctx, "DELETE FROM outbox WHERE queue = $1 AND seq = ANY($2)", queue, s)
	return err
}

func (t *pgTx) queues() ([]string, error) {
	rows, err := t.tx.Query(t.ctx, "SELECT DISTINCT queue FROM outbox ORDER BY queue")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func (t *pgTx) eachPost(skip func(string) bool, fn func([]byte)) error {
	rows, err := t.tx.Query(t.ctx, "SELECT queue, entry FROM outbox")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var q string
		var v []byte
		if err := rows.Scan(&q, &v); err != nil {
			return err
		}
		if skip == nil || !skip(q) {
			fn(v)
		}
	}
	return rows.Err()
}

func (t *pgTx) archived(guild string, fn func(archiveKey, []byte) error) error {
	rows, err := t.tx.Query(t.ctx, "SELECT finished, game_id, summary FROM archive WHERE guild = $1 ORDER BY finished, game_id", guild)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		k := archiveKey{Guild: guild}
		var v []byte
		if err := rows.Scan(&k.Finished, &k.ID, &v); err != nil {
			return err
		}
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *pgTx) archivedByID(guild, id string) (*archiveKey, []byte, error) {
	k := archiveKey{Guild: guild, ID: id}
	var v []byte
	err := t.tx.QueryRow(t.ctx, "SELECT finished, summary FROM archive WHERE guild = $1 AND game_id = $2 ORDER BY finished LIMIT 1",
		guild, id).Scan(&k.Finished, &v)
	if isNoRows(err) {
		return nil, nil, nil
	}
	if err != nil {
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
	err := t.tx.QueryRow(t.ctx, q, key.Guild, key.Finished, key.ID).Scan(&v)
	if isNoRows(err) {
		return nil, nil
	}
	return v, err
}

func (t *pgTx) putArchived(key archiveKey, summary, full []byte) error {
	tag, err := t.tx.Exec(t.ctx, `INSERT INTO archive (guild, finished, game_id, summary, game) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT DO NOTHING`, key.Guild, key.Finished, key.ID, summary, full)
	if err == nil && tag.RowsAffected() == 0 {
		return errArchived
	}
	return err
}

func (t *pgTx) putArchivedGame(key archiveKey, full []byte) error {
	_, err := t.tx.Exec(t.ctx, "UPDATE archive SET game = $4 WHERE guild = $1 AND finished = $2 AND game_id = $3",
		key.Guild, key.Finished, key.ID, full)
	return err
}

func (t *pgTx) forgetArchived(guild string) (int, error) {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM archive WHERE guild = $1", guild)
	return int(tag.RowsAffected()), err
}

func (t *pgTx) meta(key string) ([]byte, error) {
	if t.write {
		// Claims the key, present or not: see ReplayKey.
		if err := t.lock(lockClassMeta, key); err != nil {
			return nil, err
		}
	}
	var v []byte
	err := t.tx.QueryRow(t.ctx, "SELECT value FROM meta WHERE key = $1", key).Scan(&v)
	if isNoRows(err) {
		return nil, nil
	}
	return v, err
}

func (t *pgTx) putMeta(key string, value []byte) error {
	_, err := t.tx.Exec(t.ctx, "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", key, value)
	return err
}

// notify queues a notification, sent by PostgreSQL when the transaction
// commits (and dropped when it rolls back).
func (t *pgTx) notify(channel string) error {
	if slices.Contains(t.notified, channel) {
		return nil
	}
	t.notified = append(t.notified, channel)
	_, err := t.tx.Exec(t.ctx, "SELECT pg_notify($1, $2)", t.notifyTo, channel)
	return err
}

// checkFence holds the fence's lease row until the transaction ends (FOR
// SHARE): a takeover, which updates the row, waits for the move to commit,
// and a move after the takeover finds the row changed.
func (t *pgTx) checkFence(f *Fence) error {
	var one int
	err := t.tx.QueryRow(t.ctx, `SELECT 1 FROM shard_leases WHERE shard = $1 AND holder = $2 AND token = $3
		AND expires > clock_timestamp() FOR SHARE`, int32(f.Shard), f.Holder, f.Token).Scan(&one)
	if isNoRows(err) {
		return fmt.Errorf("%w: shard %d is no longer %s's (token %d)", ErrLeaseLost, f.Shard, f.Holder, f.Token)
	}
	return err
}
