package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// TestWebSettings: without the client secret the page is off; with it, it
// listens (by default on :8081), and refuses to run with several shards.
func TestWebSettings(t *testing.T) {
	env := map[string]string{"DISCORD_TOKEN": "abc"}
	get := func(k string) string { return env[k] }
	cfg, err := runConfigFrom(get, nil)
	if err != nil || cfg.ClientSecret != "" || cfg.WebAddr != "" {
		t.Fatalf("off: %+v %v", cfg, err)
	}
	env["DISCORD_CLIENT_SECRET"] = " s3cret "
	env["CONDUCTOR_PUBLIC_URL"] = "https://conductor.example.org"
	cfg, err = runConfigFrom(get, nil)
	if err != nil || cfg.ClientSecret != "s3cret" || cfg.WebAddr != defaultWebAddr || cfg.PublicURL != "https://conductor.example.org" {
		t.Fatalf("on: %+v %v", cfg, err)
	}
	env["CONDUCTOR_SHARD_COUNT"] = "2"
	_, err = runConfigFrom(get, nil)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "one shard") {
		t.Errorf("two shards: %v", err)
	}
	rep := doctorWeb(get, nil)
	if rep.OK() {
		t.Errorf("doctor with two shards: %+v", rep)
	}
	delete(env, "DISCORD_CLIENT_SECRET")
	if rep := doctorWeb(get, nil); !rep.OK() || !strings.Contains(rep[0].Detail, "off") {
		t.Errorf("doctor, off: %+v", rep)
	}
}

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
	cfg := runConfig{Token: "fake-bot-token", APIBase: srv.BaseURL(), DBPath: t.TempDir() + "/c.db",
		ClientSecret: srv.ClientSecret(), WebAddr: webAddr, PublicURL: "http://" + webAddr}
	started := make(chan string, 1)
	cfg.started = func(addr string) { started <- addr }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, &logs) }()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("serve ended: %v\n%s", err, logs.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the bot did not start")
	}
	env := map[string]string{"DISCORD_CLIENT_SECRET": "x", "CONDUCTOR_WEB": webAddr, "CONDUCTOR_PUBLIC_URL": "http://" + webAddr}
	rep := doctorWeb(func(k string) string { return env[k] }, nil)
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
	var quiet syncBuffer
	cfg2 := runConfig{Token: "fake-bot-token", APIBase: srv.BaseURL(), DBPath: t.TempDir() + "/d.db"}
	ctx2, cancel2 := context.WithCancel(context.Background())
	cfg2.started = func(string) { cancel2() }
	if err := serve(ctx2, cfg2, &quiet); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(quiet.String(), "the live board (Discord Activity) and replay pages are off"); n != 1 {
		t.Errorf("the page's being off is said %d times:\n%s", n, quiet.String())
	}
}
