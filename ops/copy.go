package ops

import (
	"errors"
	"fmt"
	"time"

	"conductor/store"
)

// The database commands an operator runs by hand: conductor backup and
// conductor migrate.

// Backup copies the database at db to out, also while the bot runs: then
// the bot holds the file, and Backup asks it for a hot copy at addr
// (CONDUCTOR_HTTP), presenting token (CONDUCTOR_BACKUP_TOKEN). It says
// what it copied.
func Backup(db, out, addr, token string) (string, error) {
	if store.IsPostgres(db) {
		return "", fmt.Errorf("conductor backup copies a bbolt database file; %s is PostgreSQL: back it up with pg_dump, "+
			"e.g. pg_dump --format=custom --file=conductor.dump \"$CONDUCTOR_DB\" (docs/deploy.md, \"Backups\")", store.RedactDSN(db))
	}
	st, err := store.Open(db, &store.Options{Timeout: 500 * time.Millisecond})
	if errors.Is(err, store.ErrLocked) {
		if addr == "" {
			return "", fmt.Errorf("%s is in use by a running conductor; set CONDUCTOR_HTTP to its health address (e.g. :8080) "+
				"and CONDUCTOR_BACKUP_TOKEN to its backup secret so that backup can ask it for a hot copy", db)
		}
		if err := FetchBackup(addr, token, out); err != nil {
			return "", err
		}
		return fmt.Sprintf("backed up the running conductor's database to %s", out), nil
	}
	if err != nil {
		return "", err
	}
	defer st.Close()
	if err := st.BackupFile(out); err != nil {
		return "", err
	}
	return fmt.Sprintf("backed up %s to %s", db, out), nil
}

// Migrate upgrades the schema of the database at db after copying it to
// db.pre-migrate (a file; PostgreSQL upgrades in transactions, and its
// backups are pg_dump's), and says what it did.
func Migrate(db string) (string, error) {
	st, err := store.Open(db, &store.Options{ManualMigrate: true})
	if err != nil {
		return "", err
	}
	defer st.Close()
	v, err := st.SchemaVersion()
	if err != nil {
		return "", err
	}
	if v == st.LatestSchema() {
		return fmt.Sprintf("%s is at schema version %d: nothing to do", st.Path(), v), nil
	}
	if st.Backend() == "postgres" {
		from, to, err := st.Migrate()
		if err != nil {
			return "", fmt.Errorf("migrate (each step is a transaction: the database is at the last step completed): %w", err)
		}
		return fmt.Sprintf("migrated %s from schema %d to %d", st.Path(), from, to), nil
	}
	backup := db + ".pre-migrate"
	if err := st.BackupFile(backup); err != nil {
		return "", fmt.Errorf("backup before migrating: %w", err)
	}
	from, to, err := st.Migrate()
	if err != nil {
		return "", fmt.Errorf("migrate (a backup is in %s): %w", backup, err)
	}
	return fmt.Sprintf("migrated %s from schema %d to %d (backup: %s)", db, from, to, backup), nil
}
