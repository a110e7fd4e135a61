package pgtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { Main(m) }

// Two databases of the shared cluster are apart, and the server is one
// this package started: owned by an unprivileged user, on its own socket.
func TestDatabasesAreApart(t *testing.T) {
	ctx := context.Background()
	a, b := Database(t), Database(t)
	if a == b {
		t.Fatalf("two tests got the same database %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE x (n int); INSERT INTO x VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	if _, err := cb.Exec(ctx, "SELECT n FROM x"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("database b sees a's table: %v", err)
	}
	var super bool
	var dir string
	if err := ca.QueryRow(ctx, "SELECT rolsuper, current_setting('unix_socket_directories') FROM pg_roles WHERE rolname = current_user").Scan(&super, &dir); err != nil {
		t.Fatal(err)
	}
	c, _ := Shared()
	if !super || dir != c.socket {
		t.Fatalf("connected as superuser %v to a server on %q; want ours on %q", super, dir, c.socket)
	}
}

// Without initdb the helper skips, saying how to install PostgreSQL; with
// CONDUCTOR_REQUIRE_POSTGRES=1 it fails instead.
func TestUnavailableSkipsOrFails(t *testing.T) {
	for _, require := range []string{"", "1"} {
		t.Setenv(RequireEnv, require)
		rec := &recorder{TB: t}
		func() {
			defer func() { recover() }() // Skipf and Fatalf end the goroutine in a real test
			Unavailable(rec, ErrNotInstalled)
		}()
		want := "skip"
		if require == "1" {
			want = "fatal"
		}
		if rec.how != want || !strings.Contains(rec.msg, "apt-get install postgresql") {
			t.Errorf("%s=%q: %s %q, want %s saying how to install it", RequireEnv, require, rec.how, rec.msg, want)
		}
	}
}

// recorder stands in for a test to see whether Unavailable skips or fails.
type recorder struct {
	testing.TB
	how, msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.how, r.msg = "skip", sprintf(format, args...)
	panic("skip")
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.how, r.msg = "fatal", sprintf(format, args...)
	panic("fatal")
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
