package store

import (
	"github.com/jackc/pgx/v5"
)

// The shared records (shared.go) on PostgreSQL: the table shared_records
// (pgschema.go, version 3).

const sharedColumns = "kind, key, owner, grp, value, expires_ns"

func scanShared(rows pgx.Rows) ([]sharedRow, error) {
	var out []sharedRow
	for rows.Next() {
		var r sharedRow
		if err := rows.Scan(&r.Kind, &r.Key, &r.Owner, &r.Group, &r.Value, &r.Expires); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (t *pgTx) sharedList(sql string, args ...any) ([]sharedRow, error) {
	var out []sharedRow
	err := t.query(func(rows pgx.Rows) error {
		var err error
		out, err = scanShared(rows)
		return err
	}, sql, args...)
	return out, err
}

func (t *pgTx) sharedGet(kind, key string) (*sharedRow, error) {
	q := "SELECT " + sharedColumns + " FROM shared_records WHERE kind = $1 AND key = $2"
	if t.write {
		q += " FOR UPDATE"
	}
	var r sharedRow
	found, err := t.queryRow([]any{&r.Kind, &r.Key, &r.Owner, &r.Group, &r.Value, &r.Expires}, q, kind, key)
	if err != nil || !found {
		return nil, err
	}
	return &r, nil
}

func (t *pgTx) sharedPut(r sharedRow) error {
	return t.exec(`INSERT INTO shared_records (`+sharedColumns+`) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (kind, key) DO UPDATE SET owner = EXCLUDED.owner, grp = EXCLUDED.grp, value = EXCLUDED.value, expires_ns = EXCLUDED.expires_ns`,
		r.Kind, r.Key, r.Owner, r.Group, r.Value, r.Expires)
}

func (t *pgTx) sharedDelete(kind, key string) error {
	return t.exec("DELETE FROM shared_records WHERE kind = $1 AND key = $2", kind, key)
}

func (t *pgTx) sharedByOwner(kind, owner string) ([]sharedRow, error) {
	return t.sharedList("SELECT "+sharedColumns+" FROM shared_records WHERE kind = $1 AND owner = $2 ORDER BY expires_ns, key", kind, owner)
}

func (t *pgTx) sharedByGroup(kind, group string) ([]sharedRow, error) {
	return t.sharedList("SELECT "+sharedColumns+" FROM shared_records WHERE kind = $1 AND grp = $2 ORDER BY expires_ns, key", kind, group)
}

func (t *pgTx) sharedAll(kind string) ([]sharedRow, error) {
	return t.sharedList("SELECT "+sharedColumns+" FROM shared_records WHERE kind = $1 ORDER BY expires_ns, key", kind)
}

func (t *pgTx) sharedCount(kind string) (int, error) {
	var n int64
	_, err := t.queryRow([]any{&n}, "SELECT count(*) FROM shared_records WHERE kind = $1", kind)
	return int(n), err
}

func (t *pgTx) sharedHeaviest(kind string) (string, error) {
	var owner string
	_, err := t.queryRow([]any{&owner}, "SELECT owner FROM shared_records WHERE kind = $1 GROUP BY owner ORDER BY count(*) DESC, owner LIMIT 1", kind)
	return owner, err
}

func (t *pgTx) sharedExpire(kind string, now int64, limit int) ([]string, error) {
	var keys []string
	err := t.query(func(rows pgx.Rows) error {
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return rows.Err()
	}, `DELETE FROM shared_records WHERE kind = $1 AND key IN
		(SELECT key FROM shared_records WHERE kind = $1 AND expires_ns <= $2 ORDER BY expires_ns LIMIT $3) RETURNING key`, kind, now, limit)
	return keys, err
}
