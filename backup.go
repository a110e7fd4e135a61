package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"conductor/ops"
	"conductor/store"
)

// runBackup takes a hot copy of the database: safe while the bot runs.
func runBackup(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conductor backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("CONDUCTOR_DB", "conductor.db"), "the database `FILE` to copy")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: conductor backup [--db FILE] BACKUP_FILE

Copies the database, also while the bot keeps running: then the bot holds
the file, and backup asks it for a hot copy at CONDUCTOR_HTTP (this
machine), presenting CONDUCTOR_BACKUP_TOKEN, the bot's secret. The copy is
written readable by its owner only (0600): it holds every hand and ticket.`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() != 1 {
		return badInput("give the backup file: conductor backup FILE")
	}
	out := fs.Arg(0)
	st, err := store.Open(*db, &store.Options{Timeout: 500 * time.Millisecond})
	if errors.Is(err, store.ErrLocked) {
		// The bot is running and holds the file: ask it for the copy.
		addr := os.Getenv("CONDUCTOR_HTTP")
		if addr == "" {
			return fmt.Errorf("%s is in use by a running conductor; set CONDUCTOR_HTTP to its health address (e.g. :8080) "+
				"and CONDUCTOR_BACKUP_TOKEN to its backup secret so that backup can ask it for a hot copy", *db)
		}
		if err := ops.FetchBackup(addr, strings.TrimSpace(os.Getenv("CONDUCTOR_BACKUP_TOKEN")), out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backed up the running conductor's database to %s\n", out)
		return nil
	}
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.BackupFile(out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s\n", *db, out)
	return nil
}

// runMigrate upgrades the database schema after taking a backup.
func runMigrate(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conductor migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("CONDUCTOR_DB", "conductor.db"), "the database `FILE`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	st, err := store.Open(*db, &store.Options{ManualMigrate: true})
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := st.SchemaVersion()
	if err != nil {
		return err
	}
	if v == store.CurrentSchema {
		fmt.Fprintf(stdout, "%s is at schema version %d: nothing to do\n", *db, v)
		return nil
	}
	backup := *db + ".pre-migrate"
	if err := st.BackupFile(backup); err != nil {
		return fmt.Errorf("backup before migrating: %w", err)
	}
	from, to, err := st.Migrate()
	if err != nil {
		return fmt.Errorf("migrate (a backup is in %s): %w", backup, err)
	}
	fmt.Fprintf(stdout, "migrated %s from schema %d to %d (backup: %s)\n", *db, from, to, backup)
	return nil
}
