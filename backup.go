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

const migrateUsage = `usage: conductor migrate [--db FILE]
       conductor migrate [--db FILE] --to postgres://USER:PASSWORD@HOST:5432/DATABASE

Upgrades the database's schema, after a backup (FILE.pre-migrate).

With --to, copies the bbolt file into a PostgreSQL database (empty, or
holding an unfinished copy of the same file), then checks the copy: as
many records of each kind, every game read back equal and replayed
through the rules. Stop the bot first. Interrupted, run it again: it goes
on where it stopped. Then start the bot with CONDUCTOR_DB set to the
PostgreSQL address; the file stays as it was. See docs/deploy.md.

flags:`

// migrateCommand upgrades the database schema after taking a backup, or
// (--to) copies a bbolt file into PostgreSQL and checks the copy.
func migrateCommand(fs *flag.FlagSet) runFunc {
	db := fs.String("db", cmp.Or(os.Getenv("CONDUCTOR_DB"), "conductor.db"), "the database `FILE` (or PostgreSQL address, without --to)")
	to := fs.String("to", "", "copy the bbolt file into the PostgreSQL database at this `ADDRESS` (postgres://…) and check the copy")
	return func(_ context.Context, in *invocation) error {
		if fs.NArg() > 0 {
			return badInput("conductor migrate takes no arguments; did you mean --to %s?", fs.Arg(0))
		}
		if *to != "" {
			cat, err := ops.Catalog(in.decks)
			if err != nil {
				return err
			}
			done, err := ops.MigrateToPostgres(*db, *to, cat, in.stdout)
			if err != nil {
				return err
			}
			fmt.Fprintln(in.stdout, done)
			return nil
		}
		done, err := ops.Migrate(*db)
		if err != nil {
			return err
		}
		fmt.Fprintln(in.stdout, done)
		return nil
	}
}
