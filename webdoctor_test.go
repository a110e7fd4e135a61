package main

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"conductor/internal/fakediscord"
	"conductor/internal/testkit"
	"conductor/ops"
)

// freeAddr is a local address nothing listens on (for a moment).
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestRunServesTheLiveBoard: with the client secret, `conductor run`
// serves the page on CONDUCTOR_WEB, doctor finds it at the public address,
// and the stop closes it.
func TestRunServesTheLiveBoard(t *testing.T) {
	srv := fakediscord.New(t)
	srv.CreateGuild("Rail Club")
	webAddr := freeAddr(t)
	cfg := ops.Config{Token: "fake-bot-token", APIBase: srv.BaseURL(), DBPath: t.TempDir() + "/c.db",
		ClientSecret: srv.ClientSecret(), WebAddr: webAddr, PublicURL: "http://" + webAddr}
	started := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs testkit.SyncBuffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, &logs, func(addr string) { started <- addr }) }()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("serve ended: %v\n%s", err, logs.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the bot did not start")
	}
	env := map[string]string{"DISCORD_CLIENT_SECRET": "x", "CONDUCTOR_WEB": webAddr, "CONDUCTOR_PUBLIC_URL": "http://" + webAddr}
	rep := ops.DoctorWeb(func(k string) string { return env[k] }, nil)
	var out strings.Builder
	rep.Write(&out)
	if !rep.OK() || !strings.Contains(out.String(), "serves the live board") {
		t.Errorf("doctor:\n%s", out.String())
	}
	if !strings.Contains(logs.String(), "live board listening") {
		t.Errorf("no log line for the page:\n%s", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + webAddr + "/"); err == nil {
		t.Error("the page still answers after the stop")
	}
	// Without the secret the page is off, and the log says so once.
	var quiet testkit.SyncBuffer
	cfg2 := ops.Config{Token: "fake-bot-token", APIBase: srv.BaseURL(), DBPath: t.TempDir() + "/d.db"}
	ctx2, cancel2 := context.WithCancel(context.Background())
	if err := serve(ctx2, cfg2, &quiet, func(string) { cancel2() }); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(quiet.String(), "the live board (Discord Activity) and replay pages are off"); n != 1 {
		t.Errorf("the page's being off is said %d times:\n%s", n, quiet.String())
	}
}
