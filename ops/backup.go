package ops

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"

	"conductor/store"
)

// BackupPath is where a running bot serves hot copies of its database, on
// the health address (which should not be exposed publicly).
const BackupPath = "/backup"

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

// FetchBackup downloads a hot copy from the running bot whose health
// address is addr (":8080" means this machine) into path.
func FetchBackup(addr, path string) error {
	host := addr
	if strings.HasPrefix(host, ":") {
		host = "127.0.0.1" + host
	}
	resp, err := http.Get("http://" + host + BackupPath)
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
