package ops

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"conductor/store"
)

// BackupPath is where a running bot serves hot copies of its database, on
// the health address (which should not be exposed publicly).
const BackupPath = "/backup"

// BackupTokenMin is the shortest CONDUCTOR_BACKUP_TOKEN accepted: a copy of
// the database holds every hand and ticket.
const BackupTokenMin = 16

// CheckBackupToken refuses a token too short to be a secret; "" (backups
// over HTTP off) is fine.
func CheckBackupToken(token string) error {
	if token != "" && len(token) < BackupTokenMin {
		return fmt.Errorf("CONDUCTOR_BACKUP_TOKEN has %d characters: use a random secret of at least %d, e.g. the output of `openssl rand -hex 32`",
			len(token), BackupTokenMin)
	}
	return nil
}

// backupHandler streams a consistent copy of the database to a caller on
// this machine that presents token as a bearer credential. Loopback alone
// is not enough: any local process, under any user, could ask. Without a
// token, backups over HTTP are off.
func backupHandler(st *store.Store, token string) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if token == "" {
			http.Error(w, "backups over HTTP are off: start the bot with CONDUCTOR_BACKUP_TOKEN set to a secret, "+
				"and give conductor backup the same one (docs/configuration.md)", http.StatusForbidden)
			return
		}
		if !isLoopback(r.RemoteAddr) {
			http.Error(w, "backups are served to this machine only", http.StatusForbidden)
			return
		}
		// Hashing first makes the comparison's time independent of the
		// presented token's length as well as of its bytes.
		got := sha256.Sum256([]byte(bearer(r.Header.Get("Authorization"))))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="conductor backup"`)
			http.Error(w, "a backup needs the bot's CONDUCTOR_BACKUP_TOKEN as a bearer token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		// The length tells the receiver a cut copy from a whole one.
		if _, err := st.BackupSized(w, func(n int64) {
			w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		}); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
}

// bearer returns the credential of an "Authorization: Bearer X" header.
func bearer(h string) string {
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(cred)
}

func isLoopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ErrNoBackupToken: conductor backup needs the running bot's token.
var ErrNoBackupToken = errors.New("CONDUCTOR_BACKUP_TOKEN is not set")

// FetchBackup downloads a hot copy from the running bot whose health
// address is addr (":8080" means this machine) into path, presenting token.
// The copy is readable by its owner only (0600): it holds every hand and
// ticket. A copy cut short is an error and leaves nothing at path.
func FetchBackup(addr, token, path string) error {
	if token == "" {
		return fmt.Errorf("%w: the running conductor serves backups only to a caller with its CONDUCTOR_BACKUP_TOKEN; "+
			"set it here to the bot's value (on fly.io it is a secret, already set in fly ssh console)", ErrNoBackupToken)
	}
	host := addr
	if strings.HasPrefix(host, ":") {
		host = "127.0.0.1" + host
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+host+BackupPath, nil)
	if err != nil {
		return fmt.Errorf("CONDUCTOR_HTTP %q: %w", addr, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("asking the running conductor for a backup: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		msg := fmt.Sprintf("the running conductor refused the backup: %s %s", resp.Status, strings.TrimSpace(string(b)))
		if resp.StatusCode == http.StatusUnauthorized {
			msg += " (is CONDUCTOR_BACKUP_TOKEN the bot's?)"
		}
		return errors.New(msg)
	}
	return writePrivate(path, resp.Body)
}

// writePrivate writes r to path through a 0600 temporary file in the same
// directory, synced and renamed, so path never holds a partial copy.
func writePrivate(path string, r io.Reader) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*") // mode 0600
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, r); err != nil {
		return fmt.Errorf("receiving the backup: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	return nil
}
