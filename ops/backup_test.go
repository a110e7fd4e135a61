package ops

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"conductor/store"
)

const testToken = "s3cret-s3cret-s3cret-s3cret"

func backupStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "c.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Put(&store.GameRecord{Channel: "c9", Guild: "g", Map: "europe", Status: store.StatusLobby}); err != nil {
		t.Fatal(err)
	}
	return st
}

// A running bot serves hot copies to a caller on this machine with its
// token, and FetchBackup writes one, private to its owner, that opens as a
// database with the games in it.
func TestBackupWithTheTokenIsPrivate(t *testing.T) {
	st := backupStore(t)
	srv := httptest.NewServer(backupHandler(st, testToken))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "hot.db")
	// An older copy readable by everyone is replaced by a private one.
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := FetchBackup(strings.TrimPrefix(srv.URL, "http://"), testToken, out); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup file mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	hot, err := store.Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hot.Close()
	if rec, err := hot.Get("c9"); err != nil || rec.Map != "europe" {
		t.Fatalf("the hot copy lacks the game: %v %v", rec, err)
	}
}

func TestBackupRefusals(t *testing.T) {
	st := backupStore(t)
	ask := func(h http.Handler, remote, auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", BackupPath, nil)
		req.RemoteAddr = remote
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	local := "127.0.0.1:40000"
	for _, c := range []struct {
		name, token, remote, auth string
		code                      int
		says                      string
	}{
		{"no token configured: off", "", local, "Bearer " + testToken, 403, "CONDUCTOR_BACKUP_TOKEN"},
		{"no credential", testToken, local, "", 401, "bearer"},
		{"wrong token", testToken, local, "Bearer " + testToken + "x", 401, "bearer"},
		{"a prefix of the token", testToken, local, "Bearer " + testToken[:8], 401, "bearer"},
		{"another scheme", testToken, local, "Basic " + testToken, 401, "bearer"},
		{"another machine, right token", testToken, "203.0.113.7:40000", "Bearer " + testToken, 403, "this machine only"},
	} {
		rec := ask(backupHandler(st, c.token), c.remote, c.auth)
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s: %d %q, want %d saying %q", c.name, rec.Code, rec.Body.String(), c.code, c.says)
		}
		if rec.Body.Len() > 512 || strings.Contains(rec.Body.String(), "europe") {
			t.Errorf("%s: the refusal carries data: %q", c.name, rec.Body.String())
		}
	}
	if rec := ask(backupHandler(st, testToken), local, "bearer "+testToken); rec.Code != 200 || rec.Header().Get("Content-Length") == "" {
		t.Errorf("the right token (scheme in lower case): %d, length %q", rec.Code, rec.Header().Get("Content-Length"))
	}
}

func TestFetchBackupRefusals(t *testing.T) {
	st := backupStore(t)
	srv := httptest.NewServer(backupHandler(st, testToken))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	out := filepath.Join(dir, "x.db")
	if err := FetchBackup(addr, "", out); !errors.Is(err, ErrNoBackupToken) {
		t.Fatalf("no token: %v", err)
	}
	if err := FetchBackup(addr, "wrong-wrong-wrong-wrong", out); err == nil || !strings.Contains(err.Error(), "401") ||
		!strings.Contains(err.Error(), "CONDUCTOR_BACKUP_TOKEN") {
		t.Fatalf("wrong token: %v", err)
	}
	if err := FetchBackup("127.0.0.1:1", testToken, out); err == nil || !strings.Contains(err.Error(), "asking the running conductor") {
		t.Fatalf("no bot listening: %v", err)
	}
	// A copy cut short (the length announced is not the length sent) is
	// an error and leaves nothing behind.
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "4096")
		w.Write([]byte("only the start"))
	}))
	defer cut.Close()
	if err := FetchBackup(strings.TrimPrefix(cut.URL, "http://"), testToken, out); err == nil {
		t.Fatal("a cut copy was accepted")
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("files left behind: %v", left)
	}
}

func TestBackupTokenStrength(t *testing.T) {
	if err := CheckBackupToken(""); err != nil {
		t.Errorf("off: %v", err)
	}
	if err := CheckBackupToken("short"); err == nil || !strings.Contains(err.Error(), "openssl rand") {
		t.Errorf("short token: %v", err)
	}
	if err := CheckBackupToken(testToken); err != nil {
		t.Errorf("good token: %v", err)
	}
}
