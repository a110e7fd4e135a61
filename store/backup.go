package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// backupInstead says how to back up PostgreSQL.
const backupInstead = "back PostgreSQL up with pg_dump, e.g. pg_dump --format=custom --file=conductor.dump \"$CONDUCTOR_DB\" " +
	"(docs/deploy.md, \"Backups\"), or with your provider's snapshots"

// Backup writes a consistent copy of the whole database to w while other
// goroutines keep reading and writing (it holds a read transaction).
func (s *Store) Backup(w io.Writer) (int64, error) {
	return s.BackupSized(w, nil)
}

// BackupSized is Backup that first tells size (when not nil) how many bytes
// the copy will have, e.g. for a Content-Length that lets the receiver tell
// a complete copy from one cut short.
func (s *Store) BackupSized(w io.Writer, size func(int64)) (int64, error) {
	f, err := s.fileOnly("a hot copy of the file", backupInstead)
	if err != nil {
		return 0, err
	}
	var n int64
	err = f.db.View(func(tx *bolt.Tx) (err error) {
		if size != nil {
			size(tx.Size())
		}
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a copy to path through a temporary file in the same
// directory, synced and then renamed, so path never holds a partial copy.
// The copy is readable by its owner only (0600, as os.CreateTemp makes it):
// it holds every hand and ticket.
func (s *Store) BackupFile(path string) error {
	f, err := s.fileOnly("a copy of the file", backupInstead)
	if err != nil {
		return err
	}
	if same, err := sameFile(path, f.path); err != nil {
		return err
	} else if same {
		return fmt.Errorf("store: refusing to back up %s onto itself", path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	done := false
	defer func() {
		if !done { // a failed backup leaves no temporary file behind
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := s.Backup(tmp); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	done = true
	// Make the rename itself durable.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) (bool, error) {
	ia, err := os.Stat(a)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ib, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ia, ib), nil
}
