// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb in a
// temporary directory, a server listening on a Unix socket there only, a
// database per test, everything removed at the end. It imports nothing of
// Conductor's, so that any package's tests can run on PostgreSQL.
//
// A test package shares one cluster, started on first use:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		dsn := pgtest.Database(t) // skips when PostgreSQL is not installed
//		...
//	}
//
// Database gives each test a schema of its own in one shared database (the
// address sets search_path to it): as good as a database for code whose
// tables are unqualified, and made in milliseconds where CREATE DATABASE
// takes a fifth of a second. FreshDatabase gives a whole new database.
//
// PostgreSQL refuses to run as root: as root, the cluster runs as an
// unprivileged user (CONDUCTOR_PGTEST_USER, else postgres, else nobody),
// its directory given to that user. Without initdb the tests skip and say
// how to install it; with CONDUCTOR_REQUIRE_POSTGRES=1 (CI) they fail
// instead.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequireEnv, set to 1, turns a skip for want of PostgreSQL into a failure.
const RequireEnv = "CONDUCTOR_REQUIRE_POSTGRES"

// UserEnv names the unprivileged user the cluster runs as when the tests
// run as root.
const UserEnv = "CONDUCTOR_PGTEST_USER"

// ErrNotInstalled: no initdb on this machine.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (no initdb in PATH, /usr/local/bin or /usr/lib/postgresql/*/bin); " +
	"install it to run the PostgreSQL tests: apt-get install postgresql (Debian, Ubuntu), brew install postgresql (macOS)")

// Options tune a cluster.
type Options struct {
	// Durable keeps fsync and synchronous commits on, as in production:
	// for benchmarks. Off by default, which makes tests faster.
	Durable bool
	// Settings are more postgres -c settings (name → value).
	Settings map[string]string
}

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	dir    string // removed by Stop
	socket string // the socket's directory
	cmd    *exec.Cmd
	exited chan struct{}
	logf   *os.File
	n      atomic.Int64 // databases and schemas made
	shared struct {
		once sync.Once
		name string
		err  error
	}
}

// Find returns the directory holding initdb and postgres, or ErrNotInstalled.
func Find() (string, error) {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	dirs = append(dirs, "/usr/local/bin")
	versions, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(versions, func(i, j int) bool { return majorOf(versions[i]) > majorOf(versions[j]) })
	dirs = append(dirs, versions...)
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "postgres")) {
			return d, nil
		}
		// A symlink to initdb alone (postgres elsewhere): look where it points.
		if real, err := filepath.EvalSymlinks(filepath.Join(d, "initdb")); err == nil {
			rd := filepath.Dir(real)
			if isFile(filepath.Join(rd, "postgres")) {
				return rd, nil
			}
		}
	}
	return "", ErrNotInstalled
}

func majorOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// Start initialises and starts a cluster in a new temporary directory.
func Start(opts Options) (*Cluster, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	cred, owner, err := runAs()
	if err != nil {
		return nil, err
	}
	removeStale(tempRoot(owner != nil))
	dir, err := os.MkdirTemp(tempRoot(owner != nil), "conductor-pgtest-")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c := &Cluster{dir: dir, socket: filepath.Join(dir, "s"), exited: make(chan struct{})}
	c.shared.name = "tests"
	fail := func(err error) (*Cluster, error) {
		c.Stop()
		return nil, err
	}
	data := filepath.Join(dir, "data")
	for _, d := range []string{c.socket, data} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fail(err)
		}
	}
	if owner != nil {
		for _, d := range []string{dir, c.socket, data} {
			if err := os.Chown(d, owner.uid, owner.gid); err != nil {
				return fail(fmt.Errorf("pgtest: giving %s to %s: %w", d, owner.name, err))
			}
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
		"--encoding=UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	initdb.Env = cleanEnv()
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("pgtest: initdb: %w\n%s", err, out))
	}
	settings := map[string]string{
		"listen_addresses":           "",
		"unix_socket_directories":    c.socket,
		"max_connections":            "200",
		"shared_buffers":             "32MB",
		"dynamic_shared_memory_type": "mmap",
	}
	if !opts.Durable {
		settings["fsync"] = "off"
		settings["synchronous_commit"] = "off"
		settings["full_page_writes"] = "off"
	}
	for k, v := range opts.Settings {
		settings[k] = v
	}
	args := []string{"-D", data}
	for k, v := range settings {
		args = append(args, "-c", k+"="+v)
	}
	if c.logf, err = os.Create(filepath.Join(dir, "postgres.log")); err != nil {
		return fail(err)
	}
	c.cmd = exec.Command(filepath.Join(bin, "postgres"), args...)
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	c.cmd.Env = cleanEnv()
	c.cmd.Stdout, c.cmd.Stderr = c.logf, c.logf
	if err := c.cmd.Start(); err != nil {
		return fail(fmt.Errorf("pgtest: starting postgres: %w", err))
	}
	go func() {
		c.cmd.Wait()
		close(c.exited)
	}()
	if err := c.waitReady(30 * time.Second); err != nil {
		return fail(err)
	}
	started.Lock()
	if started.clusters == nil {
		started.clusters = map[*Cluster]bool{}
	}
	started.clusters[c] = true
	started.Unlock()
	return c, nil
}

// PIDs lists the server's processes: the postmaster and its children.
func (c *Cluster) PIDs() []int {
	if c.cmd == nil || c.cmd.Process == nil {
		return nil
	}
	root := c.cmd.Process.Pid
	pids := []int{root}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after
		// its closing parenthesis.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(string(stat[i+1:])); len(f) > 1 && f[1] == strconv.Itoa(root) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// removeStale removes the directories of clusters whose test binary died
// before stopping them (the server dies with it: Pdeathsig): each names
// its test binary's process in the file "owner".
func removeStale(root string) {
	dirs, _ := filepath.Glob(filepath.Join(root, "conductor-pgtest-*"))
	for _, d := range dirs {
		owner, err := os.ReadFile(filepath.Join(d, "owner"))
		if err != nil {
			// Being made, or older than owners: only when long unused.
			if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > 24*time.Hour {
				os.RemoveAll(d)
			}
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(owner))); err == nil && syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(d)
		}
	}
}

// tempRoot is where the cluster's directory goes: the system's temporary
// directory, unless the cluster's user could not reach into it (a TMPDIR
// under root's home), then /tmp.
func tempRoot(otherUser bool) string {
	root := os.TempDir()
	if !otherUser {
		return root
	}
	for d := root; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if d == filepath.Dir(d) {
			return root
		}
	}
}

// cleanEnv is the environment for initdb and postgres: none of the
// caller's PG* variables, which would point them elsewhere.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") && !strings.HasPrefix(kv, "LC_") && !strings.HasPrefix(kv, "LANG=") {
			env = append(env, kv)
		}
	}
	return append(env, "LC_ALL=C")
}

type owner struct {
	name     string
	uid, gid int
}

// runAs picks who runs the cluster: this process's user, or, as root, an
// unprivileged one (PostgreSQL refuses root).
func runAs() (*syscall.Credential, *owner, error) {
	if os.Geteuid() != 0 {
		return nil, nil, nil
	}
	names := []string{"postgres", "nobody"}
	if n := os.Getenv(UserEnv); n != "" {
		names = []string{n}
	}
	for _, n := range names {
		u, err := user.Lookup(n)
		if err != nil {
			continue
		}
		uid, err1 := strconv.Atoi(u.Uid)
		gid, err2 := strconv.Atoi(u.Gid)
		if err1 != nil || err2 != nil || uid == 0 {
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, &owner{n, uid, gid}, nil
	}
	return nil, nil, fmt.Errorf("pgtest: running as root, and PostgreSQL refuses root: none of the users %s exists; "+
		"create one (useradd --system pgtest) and set %s=pgtest", strings.Join(names, ", "), UserEnv)
}

func (c *Cluster) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-c.exited:
			return fmt.Errorf("pgtest: postgres stopped at start:\n%s", c.Log())
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx)
		}
		cancel()
		if err == nil {
			return nil
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("pgtest: postgres not ready after %v: %v\n%s", limit, last, c.Log())
}

// Log returns what the server wrote so far.
func (c *Cluster) Log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "postgres.log"))
	return string(b)
}

// DSN is the address of database db, as user postgres over the socket.
func (c *Cluster) DSN(db string) string {
	return "postgres://postgres@/" + db + "?host=" + c.socket + "&sslmode=disable"
}

// CreateDatabase makes a new empty database and returns its address.
func (c *Cluster) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d", c.n.Add(1))
	conn, err := pgx.Connect(ctx, c.DSN("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return c.DSN(name), nil
}

// CreateSchema makes a new schema in the cluster's shared database and
// returns an address whose search_path is that schema alone.
func (c *Cluster) CreateSchema(ctx context.Context) (string, error) {
	c.shared.once.Do(func() {
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		if err != nil {
			c.shared.err = err
			return
		}
		defer conn.Close(ctx)
		_, c.shared.err = conn.Exec(ctx, "CREATE DATABASE "+c.shared.name)
	})
	if c.shared.err != nil {
		return "", c.shared.err
	}
	name := fmt.Sprintf("s%d", c.n.Add(1))
	conn, err := pgx.Connect(ctx, c.DSN(c.shared.name))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		return "", err
	}
	return c.DSN(c.shared.name) + "&search_path=" + name, nil
}

// Stop shuts the server down (fast: it ends every session) and removes
// the cluster's directory.
func (c *Cluster) Stop() {
	started.Lock()
	delete(started.clusters, c)
	started.Unlock()
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.exited:
		case <-time.After(20 * time.Second):
			c.cmd.Process.Kill()
			<-c.exited
		}
	}
	if c.logf != nil {
		c.logf.Close()
	}
	os.RemoveAll(c.dir)
}

// The package's shared cluster, started on first use.
var shared struct {
	once    sync.Once
	cluster *Cluster
	err     error
}

// Shared returns the test binary's cluster, starting it on first use.
func Shared() (*Cluster, error) {
	shared.once.Do(func() { shared.cluster, shared.err = Start(Options{}) })
	return shared.cluster, shared.err
}

// started are the clusters Start made and Stop has not stopped, which
// Main stops.
var started struct {
	sync.Mutex
	clusters map[*Cluster]bool
}

// Main runs the tests, then every cleanup given, then stops the clusters
// they started (the shared one, and any Start made).
func Main(m *testing.M, cleanups ...func()) {
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	started.Lock()
	var all []*Cluster
	for c := range started.clusters {
		all = append(all, c)
	}
	started.Unlock()
	for _, c := range all {
		c.Stop()
	}
	os.Exit(code)
}

// Database returns the address of a new empty schema of its own for t,
// on the shared cluster. Without PostgreSQL it skips t, saying how to
// install it (fails with CONDUCTOR_REQUIRE_POSTGRES=1).
func Database(t testing.TB) string {
	t.Helper()
	return create(t, (*Cluster).CreateSchema)
}

// FreshDatabase is Database with a whole new database: slower, for a test
// of what is per database (its schemas, its settings).
func FreshDatabase(t testing.TB) string {
	t.Helper()
	return create(t, (*Cluster).CreateDatabase)
}

func create(t testing.TB, make func(*Cluster, context.Context) (string, error)) string {
	t.Helper()
	c, err := Shared()
	if err != nil {
		Unavailable(t, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dsn, err := make(c, ctx)
	if err != nil {
		t.Fatalf("pgtest: creating a database: %v", err)
	}
	return dsn
}

// Unavailable skips t because PostgreSQL cannot run here (err says why),
// or fails it when CONDUCTOR_REQUIRE_POSTGRES=1.
func Unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%v (%s=1: PostgreSQL is required here)", err, RequireEnv)
	}
	if errors.Is(err, ErrNotInstalled) {
		t.Skipf("skipping the PostgreSQL variant: %v", err)
	}
	// Installed but not starting: a real problem, worth failing over.
	t.Fatalf("PostgreSQL is installed but the test cluster did not start: %v", err)
}
