package ops

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"conductor/store"
)

// A running bot serves hot copies to this machine, and FetchBackup writes
// one that opens as a database with the games in it.
func TestBackupIsServedToThisMachineOnly(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "c.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Put(&store.GameRecord{Channel: "c9", Guild: "g", Map: "europe", Status: store.StatusLobby}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(backupHandler(st))
	defer srv.Close()
	out := filepath.Join(dir, "hot.db")
	if err := FetchBackup(strings.TrimPrefix(srv.URL, "http://"), out); err != nil {
		t.Fatal(err)
	}
	hot, err := store.Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hot.Close()
	if rec, err := hot.Get("c9"); err != nil || rec.Map != "europe" {
		t.Fatalf("the hot copy lacks the game: %v %v", rec, err)
	}

	req := httptest.NewRequest("GET", BackupPath, nil)
	req.RemoteAddr = "203.0.113.7:40000"
	rec := httptest.NewRecorder()
	backupHandler(st).ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("a backup asked from another machine: %d, want 403", rec.Code)
	}
	if err := FetchBackup("127.0.0.1:1", filepath.Join(dir, "none.db")); err == nil || !strings.Contains(err.Error(), "asking the running conductor") {
		t.Fatalf("no bot listening: %v", err)
	}
}
