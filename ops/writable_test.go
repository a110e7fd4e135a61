package ops

import (
	"conductor/internal/pgtest"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// probeEnv makes the test binary run one CheckDatabaseWritable and exit:
// as root, the probe runs in a child process as an unprivileged user,
// since permission bits do not stop root.
const probeEnv = "CONDUCTOR_TEST_WRITABLE_PROBE"

// unprivileged is the uid and gid of distroless's nonroot user.
const unprivileged = 65532

func TestMain(m *testing.M) {
	if path := os.Getenv(probeEnv); path != "" {
		warning, err := CheckDatabaseWritable(path)
		fmt.Printf("warning: %s\nerror: %v\n", warning, err)
		os.Exit(0)
	}
	pgtest.Main(m) // stops the PostgreSQL cluster the fleet's tests started
}

// openDir makes a directory every user can enter.
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "conductor-writable-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// probeAsUser runs CheckDatabaseWritable(path) as a user the permission
// bits apply to, and returns its warning and error texts and that uid.
func probeAsUser(t *testing.T, path string) (warning, errText string, uid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		w, err := CheckDatabaseWritable(path)
		if err != nil {
			errText = err.Error()
		}
		return w, errText, os.Getuid()
	}
	bin := unprivilegedBinary(t)
	cmd := exec.Command(bin)
	// GORACE: a -race binary otherwise sleeps a second on exit.
	cmd.Env = append(os.Environ(), probeEnv+"="+path, "GORACE=atexit_sleep_ms=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivileged, Gid: unprivileged}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probing as uid %d: %v\n%s", unprivileged, err, out)
	}
	w, e, _ := strings.Cut(strings.TrimPrefix(string(out), "warning: "), "\nerror: ")
	e = strings.TrimSpace(e)
	if e == "<nil>" {
		e = ""
	}
	return w, e, unprivileged
}

// unprivilegedBinary copies the test binary, which sits in a directory
// only root may enter, to one everyone may (once per test).
func unprivilegedBinary(t *testing.T) string {
	t.Helper()
	if bin, ok := binCopies[t.Name()]; ok {
		return bin
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(openDir(t), "ops.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	binCopies[t.Name()] = bin
	return bin
}

// binCopies are the copies made, by test (tests here run one at a time).
var binCopies = map[string]string{}

func TestUnwritableDatabaseDirectoryIsExplained(t *testing.T) {
	root := openDir(t)
	locked := filepath.Join(root, "data")
	if err := os.Mkdir(locked, 0o555); err != nil {
		t.Fatal(err)
	}
	os.Chmod(locked, 0o555)
	db := filepath.Join(locked, "conductor.db")
	w, e, uid := probeAsUser(t, db)
	for _, want := range []string{locked + " is not writable", fmt.Sprintf("uid %d", uid), "USER 65532:65532", "CONDUCTOR_DB"} {
		if !strings.Contains(e, want) {
			t.Errorf("error %q lacks %q", e, want)
		}
	}
	if w != "" {
		t.Errorf("warning %q beside the error", w)
	}

	// The file exists and is writable, the directory is not: it runs,
	// with a warning.
	os.Chmod(locked, 0o755)
	if err := os.WriteFile(db, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(db, 0o666)
	os.Chmod(locked, 0o555)
	w, e, _ = probeAsUser(t, db)
	if e != "" || !strings.Contains(w, "backups and migrations") || !strings.Contains(w, locked) {
		t.Errorf("writable file in a locked directory: warning %q, error %q", w, e)
	}

	// The directory is writable, the file is not (made by another user).
	os.Chmod(locked, 0o777)
	os.Chmod(db, 0o444)
	w, e, uid = probeAsUser(t, db)
	if !strings.Contains(e, "database file "+db+" is not writable") || !strings.Contains(e, fmt.Sprintf("uid %d", uid)) {
		t.Errorf("read-only file: warning %q, error %q", w, e)
	}

	// Both writable: nothing to say.
	os.Chmod(db, 0o666)
	if w, e, _ := probeAsUser(t, db); w != "" || e != "" {
		t.Errorf("writable: warning %q, error %q", w, e)
	}
}

func TestMissingDatabaseDirectoryIsExplained(t *testing.T) {
	root := t.TempDir()
	if _, err := CheckDatabaseWritable(filepath.Join(root, "nope", "c.db")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing directory: %v", err)
	}
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := CheckDatabaseWritable(filepath.Join(file, "c.db")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as the directory: %v", err)
	}
	if w, err := CheckDatabaseWritable(filepath.Join(root, "c.db")); w != "" || err != nil {
		t.Errorf("a writable directory: %q %v", w, err)
	}
	if left, _ := os.ReadDir(root); len(left) != 1 {
		t.Errorf("the probe left files: %v", left)
	}
}
