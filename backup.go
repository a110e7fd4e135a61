package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"conductor/store"
)

// runBackup takes a hot copy of the database: safe while the bot runs.
func runBackup(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conductor backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("CONDUCTOR_DB", "conductor.db"), "the database `FILE` to copy")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conductor backup [--db FILE] BACKUP_FILE\n\nCopies the database while the bot keeps running.")
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
			return fmt.Errorf("%s is in use by a running conductor; set CONDUCTOR_HTTP to its health address (e.g. :8080) so that backup can ask it for a hot copy", *db)
		}
		if err := fetchBackup(addr, out); err != nil {
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

// backupPath is where a running bot serves hot copies of its database, on
// the health address (which should not be exposed publicly).
const backupPath = "/backup"

// backupHandler streams a consistent copy of the database.
func backupHandler(st *store.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isLoopback(r.RemoteAddr) {
			http.Error(w, "backups are served to this machine only", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		if _, err := st.Backup(w); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
}

func isLoopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// fetchBackup downloads a hot copy from a running bot into path.
func fetchBackup(addr, path string) error {
	host := addr
	if strings.HasPrefix(host, ":") {
		host = "127.0.0.1" + host
	}
	resp, err := http.Get("http://" + host + backupPath)
	if err != nil {
		return fmt.Errorf("asking the running conductor for a backup: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("the running conductor refused the backup: %s %s", resp.Status, strings.TrimSpace(string(b)))
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
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
