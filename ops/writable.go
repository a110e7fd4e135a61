package ops

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckDatabaseWritable makes sure this process can create and write the
// database at path before the bot starts, and says what to do when it
// cannot: the usual cause is a volume mounted for another user than the
// one the image runs as. An error means the bot cannot run; a warning
// (the file is writable but its directory is not) means backups and
// migrations next to the database will fail.
func CheckDatabaseWritable(path string) (warning string, err error) {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("the database directory %s does not exist: create it, or set CONDUCTOR_DB to a file in an existing directory "+
			"(on fly.io, CONDUCTOR_DB must be on the volume mounted in fly.toml)", dir)
	case err != nil:
		return "", fmt.Errorf("the database directory %s: %w", dir, err)
	case !fi.IsDir():
		return "", fmt.Errorf("the database directory %s is not a directory: set CONDUCTOR_DB to a file in a directory", dir)
	}
	dirErr := probeDir(dir)
	_, statErr := os.Stat(path)
	exists := statErr == nil
	if exists {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return "", fmt.Errorf("the database file %s is not writable by this process (uid %d, gid %d): %w. %s",
				path, os.Getuid(), os.Getgid(), err, ownershipHint(path))
		}
		f.Close()
	}
	switch {
	case dirErr == nil:
		return "", nil
	case exists:
		return fmt.Sprintf("the database directory %s is not writable by this process (uid %d, gid %d): the bot runs, "+
			"but backups and migrations that write next to %s will fail. %s", dir, os.Getuid(), os.Getgid(), path, ownershipHint(dir)), nil
	}
	return "", fmt.Errorf("the database directory %s is not writable by this process (uid %d, gid %d), so it cannot create %s: %w. %s",
		dir, os.Getuid(), os.Getgid(), path, dirErr, ownershipHint(dir))
}

// probeDir creates and removes a file in dir.
func probeDir(dir string) error {
	f, err := os.CreateTemp(dir, ".conductor-write-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

func ownershipHint(target string) string {
	return fmt.Sprintf("On fly.io the volume is mounted for the image's user: deploy this repository's Dockerfile, whose numeric "+
		"USER 65532:65532 needs no name lookup (see docs/deploy.md). Elsewhere, give uid %d write access (chown %d:%d %s), "+
		"or set CONDUCTOR_DB to a writable place", os.Getuid(), os.Getuid(), os.Getgid(), target)
}
