package store

import (
	"cmp"
	"slices"

	"github.com/jackc/pgx/v5"
)

// The ratings' index and the servers' settings on PostgreSQL: the tables
// ratings and guild_settings (pgschema.go, version 2).

func (t *pgTx) ratingRow(guild, kind, key string) ([]byte, error) {
	var v []byte
	_, err := t.queryRow([]any{&v}, "SELECT value FROM ratings WHERE guild = $1 AND kind = $2 AND key = $3", guild, kind, key)
	return v, err
}

func (t *pgTx) putRatingRow(guild, kind, key string, rank *int64, value []byte) error {
	return t.exec(`INSERT INTO ratings (guild, kind, key, rank, value) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (guild, kind, key) DO UPDATE SET rank = EXCLUDED.rank, value = EXCLUDED.value`, guild, kind, key, rank, value)
}

func (t *pgTx) deleteRatingRow(guild, kind, key string) error {
	return t.exec("DELETE FROM ratings WHERE guild = $1 AND kind = $2 AND key = $3", guild, kind, key)
}

func (t *pgTx) scanRatingRows(fn func(key string, value []byte) error, sql string, args ...any) error {
	return t.query(func(rows pgx.Rows) error {
		var k string
		var v []byte
		_, err := pgx.ForEachRow(rows, []any{&k, &v}, func() error { return fn(k, v) })
		return err
	}, sql, args...)
}

func (t *pgTx) ratingRows(guild, kind string, limit int, fn func(key string, value []byte) error) error {
	if limit > 0 {
		return t.scanRatingRows(fn, "SELECT key, value FROM ratings WHERE guild = $1 AND kind = $2 ORDER BY key LIMIT $3", guild, kind, limit)
	}
	return t.scanRatingRows(fn, "SELECT key, value FROM ratings WHERE guild = $1 AND kind = $2 ORDER BY key", guild, kind)
}

func (t *pgTx) ratingTop(guild, kind string, limit int, fn func(key string, value []byte) error) error {
	return t.scanRatingRows(fn, `SELECT key, value FROM ratings WHERE guild = $1 AND kind = $2 AND rank IS NOT NULL
		ORDER BY rank DESC, key LIMIT $3`, guild, kind, limit)
}

func (t *pgTx) ratingAbove(guild, kind string, rank int64) (int, error) {
	var n int
	_, err := t.queryRow([]any{&n}, "SELECT count(*) FROM ratings WHERE guild = $1 AND kind = $2 AND rank > $3", guild, kind, rank)
	return n, err
}

// ratingBoard is one statement: its rows are tagged with what they are.
func (t *pgTx) ratingBoard(guild, kind string, limit int, asker string) (*boardRead, error) {
	r := &boardRead{}
	err := t.query(func(rows pgx.Rows) error {
		var tag, key string
		var v []byte
		var n int64
		_, err := pgx.ForEachRow(rows, []any{&tag, &key, &v, &n}, func() error {
			switch tag {
			case "a":
				r.state = v
			case "b":
				r.settings = v
			case "c":
				r.pending = true
			case "d":
				r.top = append(r.top, ratingKV{key, v, n})
			case "e":
				r.asker, r.askerRanked, r.above = v, n >= 0, int(max(n, 0))
			}
			return nil
		})
		return err
	}, `WITH me AS (SELECT value, rank FROM ratings WHERE guild = $1 AND kind = $2 AND key = $4)
		SELECT 'a', '', value, 0::bigint FROM ratings WHERE guild = $1 AND kind = 'state' AND key = ''
		UNION ALL SELECT 'b', '', value, 0 FROM guild_settings WHERE guild = $1
		UNION ALL (SELECT 'c', '', NULL::bytea, 0 FROM ratings WHERE guild = $1 AND kind = 'pending' LIMIT 1)
		UNION ALL (SELECT 'd', key, value, rank FROM ratings WHERE guild = $1 AND kind = $2 AND rank IS NOT NULL ORDER BY rank DESC, key LIMIT $3)
		UNION ALL SELECT 'e', '', me.value, CASE WHEN me.rank IS NULL THEN -1 ELSE
			(SELECT count(*) FROM ratings r WHERE r.guild = $1 AND r.kind = $2 AND r.rank > me.rank) END FROM me`,
		guild, kind, limit, asker)
	if err != nil {
		return nil, err
	}
	// A union keeps no order: the table's is the ranks'.
	slices.SortFunc(r.top, func(a, b ratingKV) int {
		return cmp.Or(cmp.Compare(b.rank, a.rank), cmp.Compare(a.key, b.key))
	})
	return r, nil
}

func (t *pgTx) deleteRatings(guild string) error {
	return t.exec("DELETE FROM ratings WHERE guild = $1", guild)
}

func (t *pgTx) lockRatings(guild string) error {
	return t.exec("SELECT pg_advisory_xact_lock($1, hashtext($2))", lockClassRating, guild)
}

func (t *pgTx) guildSettings(guild string) ([]byte, error) {
	var v []byte
	_, err := t.queryRow([]any{&v}, "SELECT value FROM guild_settings WHERE guild = $1", guild)
	return v, err
}

func (t *pgTx) putGuildSettings(guild string, value []byte) error {
	return t.exec(`INSERT INTO guild_settings (guild, value) VALUES ($1, $2)
		ON CONFLICT (guild) DO UPDATE SET value = EXCLUDED.value`, guild, value)
}

func (t *pgTx) deleteGuildSettings(guild string) error {
	return t.exec("DELETE FROM guild_settings WHERE guild = $1", guild)
}

func (t *pgTx) eachGuildSettings(fn func(guild string, value []byte) error) error {
	return t.scanRatingRows(fn, "SELECT guild, value FROM guild_settings ORDER BY guild")
}

func (t *pgTx) archivedNaming(guild string, needle []byte) ([]archiveKey, error) {
	var out []archiveKey
	err := t.query(func(rows pgx.Rows) error {
		k := archiveKey{Guild: guild}
		_, err := pgx.ForEachRow(rows, []any{&k.Finished, &k.ID}, func() error {
			out = append(out, k)
			return nil
		})
		return err
	}, `SELECT finished, game_id FROM archive WHERE guild = $1 AND (position($2::bytea in summary) > 0 OR position($2::bytea in game) > 0)
		ORDER BY finished, game_id`, guild, needle)
	return out, err
}

func (t *pgTx) archivedSummary(key archiveKey) ([]byte, error) {
	var v []byte
	_, err := t.queryRow([]any{&v}, "SELECT summary FROM archive WHERE guild = $1 AND finished = $2 AND game_id = $3",
		key.Guild, key.Finished, key.ID)
	return v, err
}
