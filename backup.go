package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"conductor/ops"
)

const backupUsage = `usage: conductor backup [--db FILE] BACKUP_FILE

Copies the database, also while the bot keeps running: then the bot holds
the file, and backup asks it for a hot copy at CONDUCTOR_HTTP (this
machine), presenting CONDUCTOR_BACKUP_TOKEN, the bot's secret. The copy is
written readable by its owner only (0600): it holds every hand and ticket.`

// backupCommand takes a hot copy of the database: safe while the bot runs.
func backupCommand(fs *flag.FlagSet) runFunc {
	db := fs.String("db", cmp.Or(os.Getenv("CONDUCTOR_DB"), "conductor.db"), "the database `FILE` to copy")
	return func(_ context.Context, in *invocation) error {
		if fs.NArg() != 1 {
			return badInput("give the backup file: conductor backup FILE")
		}
		done, err := ops.Backup(*db, fs.Arg(0), os.Getenv("CONDUCTOR_HTTP"), strings.TrimSpace(os.Getenv("CONDUCTOR_BACKUP_TOKEN")))
		if err != nil {
			return err
		}
		fmt.Fprintln(in.stdout, done)
		return nil
	}
}

// migrateCommand upgrades the database schema after taking a backup.
func migrateCommand(fs *flag.FlagSet) runFunc {
	db := fs.String("db", cmp.Or(os.Getenv("CONDUCTOR_DB"), "conductor.db"), "the database `FILE`")
	return func(_ context.Context, in *invocation) error {
		done, err := ops.Migrate(*db)
		if err != nil {
			return err
		}
		fmt.Fprintln(in.stdout, done)
		return nil
	}
}
