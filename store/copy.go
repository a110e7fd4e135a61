package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"
)

// Copying a bbolt file into PostgreSQL (conductor migrate --to): every
// record is copied as it is stored (a game's header and log chunks byte
// for byte, its snapshot and parked state, the archive, the outbox with
// each entry's nonce, the replay key), in transactions of a few hundred
// games. The target is marked while the copy is unfinished, and the bot
// refuses to serve a marked database. Running the copy again finishes it:
// what the target already holds as the file does is left alone, what
// differs is written again and what the file no longer holds is removed,
// so an interrupted copy, or one whose file changed meanwhile, ends equal
// to the file. The caller checks the copy (counts, every game) and then
// marks it finished (FinishCopy).

// copyMeta is the meta key of the copy's mark in the target.
const copyMeta = "copy"

// copyBatch is how many games or archived games a transaction copies.
const copyBatch = 200

// ErrCopyPending: the database is the target of a copy that has not
// finished.
var ErrCopyPending = errors.New("store: an unfinished conductor migrate --to")

// CopyState is the mark a copy leaves in its target.
type CopyState struct {
	Source   string    `json:"source"` // the file's absolute path
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"` // zero while unfinished
}

// CopyState returns the mark of a copy into this database, or nil when no
// copy ever targeted it.
func (s *Store) CopyState() (*CopyState, error) {
	var st *CopyState
	err := s.viewOne(func(t txn) error {
		v, err := t.meta(copyMeta)
		if err != nil || v == nil {
			return err
		}
		st = &CopyState{}
		return json.Unmarshal(v, st)
	})
	return st, err
}

// Counts is what a database holds, kind by kind.
type Counts struct {
	Games     int // live games
	Moves     int // entries of their logs
	Snapshots int
	Parked    int
	Archived  int
	Posts     int // outbox entries
	Queues    int // outbox queues with entries
	Settings  int // servers with settings of their own
	ReplayKey bool
}

// Counts counts the database's records.
func (s *Store) Counts() (*Counts, error) {
	var c *Counts
	err := s.view(func(t txn) (err error) {
		c, err = t.counts()
		return err
	})
	return c, err
}

// movesIn is the length of a log whose last chunk is number i.
func movesIn(i int, last []byte) (int, error) {
	es, err := decodeChunk(nil, last)
	return i*chunkLen + len(es), err
}

// ChannelList lists the channels of every live game, in order: for tools
// that go through every game without holding them all in memory.
func (s *Store) ChannelList() ([]string, error) {
	var out []string
	err := s.view(func(t txn) error {
		out = nil
		return t.eachHeader(func(rec *GameRecord) error {
			out = append(out, rec.Channel)
			return nil
		})
	})
	return out, err
}

// CopyTo copies every record of this store, a bbolt file, into dst, a
// PostgreSQL database that is empty or holds an unfinished copy of this
// file. progress, when not nil, is told how far each stage is.
func (s *Store) CopyTo(dst *Store, progress func(stage string, done, total int)) error {
	if s.file == nil {
		return fmt.Errorf("store: %s is not a bbolt file: conductor migrate --to copies a file into PostgreSQL", s.Path())
	}
	pb, ok := dst.be.(*pgBackend)
	if !ok {
		return fmt.Errorf("store: %s is not a PostgreSQL database: conductor migrate --to copies a file into PostgreSQL", dst.Path())
	}
	if err := s.ready(); err != nil {
		return err
	}
	if err := dst.ready(); err != nil {
		return err
	}
	if progress == nil {
		progress = func(string, int, int) {}
	}
	source, err := filepath.Abs(s.file.path)
	if err != nil {
		return err
	}
	if err := dst.markCopy(source, dst.stamp()); err != nil {
		return err
	}
	c := &copier{src: s.file, dst: pb, progress: progress}
	for _, step := range []func() error{c.games, c.archive, c.outbox, c.settings} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// markCopy marks the database as the target of a copy of source, unless
// it is one already; it refuses a database holding anything else.
func (s *Store) markCopy(source string, now time.Time) error {
	return s.update(func(t txn) error {
		v, err := t.meta(copyMeta) // claims the mark
		if err != nil {
			return err
		}
		if v != nil {
			var st CopyState
			if err := json.Unmarshal(v, &st); err != nil {
				return fmt.Errorf("%w: meta/%s: %v", errCorrupt, copyMeta, err)
			}
			switch {
			case !st.Finished.IsZero():
				return fmt.Errorf("store: %s already holds a complete copy of %s (made %s), which the bot may have changed since: "+
					"to copy a file again, empty the database first (drop and create it)", s.Path(), st.Source, st.Finished.Format(time.DateTime))
			case st.Source != source:
				return fmt.Errorf("store: %s holds an unfinished copy of another file, %s: run conductor migrate --to with that file "+
					"to finish it, or empty the database (drop and create it)", s.Path(), st.Source)
			}
			return nil // resuming
		}
		c, err := t.counts()
		if err != nil {
			return err
		}
		if c.Games+c.Archived+c.Posts > 0 {
			return fmt.Errorf("store: %s already holds %d live games, %d archived and %d posts that no conductor migrate put there: "+
				"copy into an empty database", s.Path(), c.Games, c.Archived, c.Posts)
		}
		data, err := json.Marshal(&CopyState{Source: source, Started: now})
		if err != nil {
			return err
		}
		return t.putMeta(copyMeta, data)
	})
}

// FinishCopy marks the copy into this database as finished and checked:
// the bot serves it from then on.
func (s *Store) FinishCopy() error {
	now := s.stamp()
	return s.update(func(t txn) error {
		v, err := t.meta(copyMeta)
		if err != nil {
			return err
		}
		if v == nil {
			return fmt.Errorf("store: %s holds no copy to finish", s.Path())
		}
		var st CopyState
		if err := json.Unmarshal(v, &st); err != nil {
			return err
		}
		st.Finished = now
		data, err := json.Marshal(&st)
		if err != nil {
			return err
		}
		return t.putMeta(copyMeta, data)
	})
}

// copyInterrupt, in tests, runs after each batch of games: an error stops
// the copy there, as a crash would.
var copyInterrupt func() error

// copier copies a file's buckets into PostgreSQL's tables.
type copier struct {
	src      *boltBackend
	dst      *pgBackend
	progress func(stage string, done, total int)
}

// sourceGame is a live game as the file stores it.
type sourceGame struct {
	channel  string
	header   []byte
	chunks   []chunk
	snapshot []byte
	parked   []byte
}

// games copies the live games, a batch per transaction, and removes from
// the target the games the file does not hold.
func (c *copier) games() error {
	have := map[string]bool{}
	err := c.src.db.View(func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		total := games.Stats().KeyN
		bt := &boltTx{tx: tx}
		var batch []sourceGame
		done := 0
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			if err := c.gameBatch(batch); err != nil {
				return err
			}
			if copyInterrupt != nil {
				if err := copyInterrupt(); err != nil {
					return err
				}
			}
			done += len(batch)
			c.progress("live games", done, total)
			batch = batch[:0]
			return nil
		}
		err := games.ForEach(func(k, v []byte) error {
			g := sourceGame{channel: string(k), header: bytes.Clone(v)}
			have[g.channel] = true
			cs, err := bt.chunks(g.channel)
			if err != nil {
				return err
			}
			for _, ch := range cs {
				if ch.I < 0 {
					return fmt.Errorf("%w: game %s has a log key of another shape", errCorrupt, g.channel)
				}
				g.chunks = append(g.chunks, chunk{I: ch.I, Data: bytes.Clone(ch.Data)})
			}
			g.snapshot = bytes.Clone(tx.Bucket(bucketSnapshots).Get(k))
			g.parked = bytes.Clone(tx.Bucket(bucketParked).Get(k))
			batch = append(batch, g)
			if len(batch) == copyBatch {
				return flush()
			}
			return nil
		})
		if err != nil {
			return err
		}
		return flush()
	})
	if err != nil {
		return err
	}
	return c.removeExtra("SELECT channel FROM games", "DELETE FROM games WHERE channel = ANY($1)", have)
}

// gameBatch writes the games of batch that the target does not hold as
// the file does, in one transaction.
func (c *copier) gameBatch(batch []sourceGame) error {
	channels := make([]string, len(batch))
	for i, g := range batch {
		channels[i] = g.channel
	}
	return c.dst.tx(func(ctx context.Context, tx pgx.Tx) error {
		here, err := targetGames(ctx, tx, channels)
		if err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, g := range batch {
			if here[g.channel].same(&g) {
				continue
			}
			h, err := decodeHeader(g.header)
			if err != nil {
				return fmt.Errorf("games/%s: %w", g.channel, err)
			}
			if h.Channel != g.channel {
				// The key says which channel a game is in (as the file's
				// upgrades read it).
				return fmt.Errorf("%w: games/%s holds the record of channel %q", errCorrupt, g.channel, h.Channel)
			}
			b.Queue("DELETE FROM games WHERE channel = $1", g.channel)
			b.Queue(insertGame, gameRow(h, g.header)...)
			if len(g.chunks) > 0 {
				nums := make([]int32, len(g.chunks))
				data := make([][]byte, len(g.chunks))
				for i, ch := range g.chunks {
					nums[i], data[i] = int32(ch.I), ch.Data
				}
				b.Queue(`INSERT INTO game_logs (channel, chunk, data) SELECT $1, * FROM unnest($2::integer[], $3::bytea[])`,
					g.channel, nums, data)
			}
			if g.snapshot != nil {
				b.Queue("INSERT INTO game_snapshots (channel, data) VALUES ($1, $2)", g.channel, g.snapshot)
			}
			if g.parked != nil {
				b.Queue("INSERT INTO game_parked (channel, data) VALUES ($1, $2)", g.channel, g.parked)
			}
		}
		if b.Len() == 0 {
			return nil
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// targetGame is what the target holds of a game.
type targetGame struct {
	header, snapshot, parked []byte
	chunks                   []chunk
}

func (h *targetGame) same(g *sourceGame) bool {
	if h == nil || !bytes.Equal(h.header, g.header) || !bytes.Equal(h.snapshot, g.snapshot) ||
		!bytes.Equal(h.parked, g.parked) || len(h.chunks) != len(g.chunks) {
		return false
	}
	for i := range h.chunks {
		if h.chunks[i].I != g.chunks[i].I || !bytes.Equal(h.chunks[i].Data, g.chunks[i].Data) {
			return false
		}
	}
	return true
}

// targetGames reads what the target holds of channels, in one round trip.
func targetGames(ctx context.Context, tx pgx.Tx, channels []string) (map[string]*targetGame, error) {
	out := map[string]*targetGame{}
	b := &pgx.Batch{}
	b.Queue("SELECT channel, header FROM games WHERE channel = ANY($1)", channels).Query(func(rows pgx.Rows) error {
		var ch string
		var v []byte
		_, err := pgx.ForEachRow(rows, []any{&ch, &v}, func() error {
			out[ch] = &targetGame{header: v}
			return nil
		})
		return err
	})
	b.Queue("SELECT channel, chunk, data FROM game_logs WHERE channel = ANY($1) ORDER BY channel, chunk", channels).Query(func(rows pgx.Rows) error {
		var ch string
		var i int32
		var v []byte
		_, err := pgx.ForEachRow(rows, []any{&ch, &i, &v}, func() error {
			if g := out[ch]; g != nil {
				g.chunks = append(g.chunks, chunk{I: int(i), Data: v})
			}
			return nil
		})
		return err
	})
	for _, table := range []string{"game_snapshots", "game_parked"} {
		b.Queue("SELECT channel, data FROM "+table+" WHERE channel = ANY($1)", channels).Query(func(rows pgx.Rows) error {
			var ch string
			var v []byte
			_, err := pgx.ForEachRow(rows, []any{&ch, &v}, func() error {
				if g := out[ch]; g != nil {
					if table == "game_snapshots" {
						g.snapshot = v
					} else {
						g.parked = v
					}
				}
				return nil
			})
			return err
		})
	}
	return out, tx.SendBatch(ctx, b).Close()
}

// archive copies the archived games, a batch per transaction, and removes
// from the target those the file does not hold.
func (c *copier) archive() error {
	have := map[string]bool{}
	err := c.src.db.View(func(tx *bolt.Tx) error {
		archive, games := tx.Bucket(bucketArchive), tx.Bucket(bucketArchivedGames)
		total := archive.Stats().KeyN
		type entry struct {
			key           archiveKey
			summary, game []byte
		}
		var batch []entry
		done := 0
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			err := c.dst.tx(func(ctx context.Context, tx pgx.Tx) error {
				guilds, finished, ids := make([]string, len(batch)), make([]string, len(batch)), make([]string, len(batch))
				for i, e := range batch {
					guilds[i], finished[i], ids[i] = e.key.Guild, e.key.Finished, e.key.ID
				}
				rows, err := tx.Query(ctx, `SELECT a.guild, a.finished, a.game_id, a.summary, a.game FROM archive a
					JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(guild, finished, game_id)
					ON a.guild = k.guild AND a.finished = k.finished AND a.game_id = k.game_id`, guilds, finished, ids)
				if err != nil {
					return err
				}
				here := map[string][2][]byte{}
				var k archiveKey
				var sum, game []byte
				if _, err := pgx.ForEachRow(rows, []any{&k.Guild, &k.Finished, &k.ID, &sum, &game}, func() error {
					here[k.String()] = [2][]byte{sum, game}
					return nil
				}); err != nil {
					return err
				}
				b := &pgx.Batch{}
				for _, e := range batch {
					if h, ok := here[e.key.String()]; ok && bytes.Equal(h[0], e.summary) && bytes.Equal(h[1], e.game) {
						continue
					}
					b.Queue(`INSERT INTO archive (guild, finished, game_id, summary, game) VALUES ($1, $2, $3, $4, $5)
						ON CONFLICT (guild, finished, game_id) DO UPDATE SET summary = EXCLUDED.summary, game = EXCLUDED.game`,
						e.key.Guild, e.key.Finished, e.key.ID, e.summary, e.game)
				}
				if b.Len() == 0 {
					return nil
				}
				return tx.SendBatch(ctx, b).Close()
			})
			if err != nil {
				return err
			}
			done += len(batch)
			c.progress("archived games", done, total)
			batch = batch[:0]
			return nil
		}
		err := archive.ForEach(func(k, v []byte) error {
			key, ok := parseArchiveKey(string(k))
			if !ok {
				return fmt.Errorf("%w: archive key %q", errCorrupt, k)
			}
			game := games.Get(k)
			if game == nil {
				return fmt.Errorf("%w: archived game %q has a summary and no record", errCorrupt, printable(k))
			}
			have[key.String()] = true
			batch = append(batch, entry{key, bytes.Clone(v), bytes.Clone(game)})
			if len(batch) == copyBatch {
				return flush()
			}
			return nil
		})
		if err != nil {
			return err
		}
		return flush()
	})
	if err != nil {
		return err
	}
	return c.dst.tx(func(ctx context.Context, tx pgx.Tx) error {
		rows, err := tx.Query(ctx, "SELECT guild, finished, game_id FROM archive")
		if err != nil {
			return err
		}
		var k archiveKey
		var guilds, finished, ids []string
		if _, err := pgx.ForEachRow(rows, []any{&k.Guild, &k.Finished, &k.ID}, func() error {
			if !have[k.String()] {
				guilds, finished, ids = append(guilds, k.Guild), append(finished, k.Finished), append(ids, k.ID)
			}
			return nil
		}); err != nil || len(ids) == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM archive a USING unnest($1::text[], $2::text[], $3::text[]) AS k(guild, finished, game_id)
			WHERE a.guild = k.guild AND a.finished = k.finished AND a.game_id = k.game_id`, guilds, finished, ids)
		return err
	})
}

// outbox replaces the target's outbox with the file's, and copies the
// replay key, in one transaction. Entries keep their nonces (a post sent
// before the copy and retried after it still matches its first try) and
// their order: they take the target's sequences in the file's order.
func (c *copier) outbox() error {
	var posts []queuedPost
	var replayKey []byte
	err := c.src.db.View(func(tx *bolt.Tx) error {
		bt := &boltTx{tx: tx}
		queues, err := bt.queues()
		if err != nil {
			return err
		}
		for _, q := range queues {
			ps, err := bt.posts(q)
			if err != nil {
				return err
			}
			for _, p := range ps {
				posts = append(posts, queuedPost{Queue: q, post: post{Seq: p.Seq, Data: bytes.Clone(p.Data)}})
			}
		}
		if v, _ := bt.meta(keyReplay); len(v) == replayKeySize {
			replayKey = bytes.Clone(v)
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(posts, func(a, b queuedPost) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	err = c.dst.update(func(t txn) error {
		if err := t.(*pgTx).exec("DELETE FROM outbox"); err != nil {
			return err
		}
		if len(posts) > 0 {
			seqs, err := t.nextSeqs(len(posts))
			if err != nil {
				return err
			}
			for i := range posts {
				posts[i].Seq = seqs[i]
			}
			if err := t.putPosts(posts); err != nil {
				return err
			}
		}
		if replayKey != nil {
			return t.putMeta(keyReplay, replayKey)
		}
		return nil
	})
	if err == nil {
		c.progress("outbox posts", len(posts), len(posts))
	}
	return err
}

// settings replaces the target's servers' settings with the file's, in one
// transaction. The ratings are not copied: they are derived from the
// archive, and the target computes them again when first asked.
func (c *copier) settings() error {
	type row struct {
		guild string
		value []byte
	}
	var rows []row
	err := c.src.db.View(func(tx *bolt.Tx) error {
		return (&boltTx{tx: tx}).eachGuildSettings(func(guild string, v []byte) error {
			rows = append(rows, row{guild, bytes.Clone(v)})
			return nil
		})
	})
	if err != nil {
		return err
	}
	err = c.dst.update(func(t txn) error {
		if err := t.(*pgTx).exec("DELETE FROM guild_settings"); err != nil {
			return err
		}
		for _, r := range rows {
			if err := t.putGuildSettings(r.guild, r.value); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		c.progress("servers' settings", len(rows), len(rows))
	}
	return err
}

// removeExtra deletes the target's rows whose key (as list selects it)
// the file does not hold.
func (c *copier) removeExtra(list, remove string, have map[string]bool) error {
	return c.dst.tx(func(ctx context.Context, tx pgx.Tx) error {
		rows, err := tx.Query(ctx, list)
		if err != nil {
			return err
		}
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		var extra []string
		for _, k := range keys {
			if !have[k] {
				extra = append(extra, k)
			}
		}
		if len(extra) == 0 {
			return nil
		}
		_, err = tx.Exec(ctx, remove, extra)
		return err
	})
}

// tx runs fn in a read-write transaction of its own (no retries: the copy
// is the database's only writer while it runs).
func (b *pgBackend) tx(fn func(ctx context.Context, tx pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
	defer cancel()
	return b.wrap(pgx.BeginTxFunc(ctx, b.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		return fn(ctx, tx)
	}))
}

// counts on a file: one pass over its buckets.
func (t *boltTx) counts() (*Counts, error) {
	c := &Counts{}
	keys := func(name []byte) int {
		n := 0
		if b := t.tx.Bucket(name); b != nil {
			b.ForEach(func(_, _ []byte) error { n++; return nil })
		}
		return n
	}
	c.Games, c.Snapshots, c.Parked, c.Archived = keys(bucketGames), keys(bucketSnapshots), keys(bucketParked), keys(bucketArchive)
	c.Settings = keys(bucketGuildSettings)
	// The moves: each channel's last chunk says how many.
	cur := t.tx.Bucket(bucketLogs).Cursor()
	var last []byte
	lastI := -1
	var owner string
	add := func() error {
		if lastI < 0 {
			return nil
		}
		n, err := movesIn(lastI, last)
		c.Moves += n
		return err
	}
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		o := keyOwner(k)
		if o != owner && lastI >= 0 {
			if err := add(); err != nil {
				return nil, fmt.Errorf("%w: game %s's last log chunk: %v", errCorrupt, owner, err)
			}
		}
		owner, last, lastI = o, v, -1
		if len(k) == len(o)+5 {
			lastI = int(binary.BigEndian.Uint32(k[len(o)+1:]))
		}
	}
	if err := add(); err != nil {
		return nil, fmt.Errorf("%w: game %s's last log chunk: %v", errCorrupt, owner, err)
	}
	queues, err := t.queues()
	if err != nil {
		return nil, err
	}
	c.Queues = len(queues)
	for _, q := range queues {
		ps, err := t.posts(q)
		if err != nil {
			return nil, err
		}
		c.Posts += len(ps)
	}
	v, _ := t.meta(keyReplay)
	c.ReplayKey = len(v) == replayKeySize
	return c, nil
}

// counts on PostgreSQL.
func (t *pgTx) counts() (*Counts, error) {
	c := &Counts{}
	_, err := t.queryRow([]any{&c.Games, &c.Snapshots, &c.Parked, &c.Archived, &c.Posts, &c.Queues, &c.Settings, &c.ReplayKey},
		`SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM game_snapshots),
		(SELECT count(*) FROM game_parked), (SELECT count(*) FROM archive), (SELECT count(*) FROM outbox),
		(SELECT count(DISTINCT queue) FROM outbox), (SELECT count(*) FROM guild_settings), EXISTS (SELECT 1 FROM meta WHERE key = $1 AND length(value) = $2)`,
		keyReplay, replayKeySize)
	if err != nil {
		return nil, err
	}
	err = t.query(func(rows pgx.Rows) error {
		var ch string
		var i int32
		var v []byte
		_, err := pgx.ForEachRow(rows, []any{&ch, &i, &v}, func() error {
			n, err := movesIn(int(i), v)
			if err != nil {
				return fmt.Errorf("%w: game %s's last log chunk: %v", errCorrupt, ch, err)
			}
			c.Moves += n
			return nil
		})
		return err
	}, "SELECT DISTINCT ON (channel) channel, chunk, data FROM game_logs ORDER BY channel, chunk DESC")
	return c, err
}
