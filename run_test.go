package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"conductor/internal/fakediscord"
	"conductor/internal/testkit"
	"conductor/ops"
	"conductor/store"
)

func TestRunWithoutTokenSaysHowToGetOne(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	var stderr bytes.Buffer
	if code := realMain([]string{"run"}, nil, &bytes.Buffer{}, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, want := range []string{"DISCORD_TOKEN", "README", "conductor play", "discord.com/developers"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the message does not mention %q: %s", want, stderr.String())
		}
	}
	// `conductor doctor` without a token says to run itself with one.
	stderr.Reset()
	if code := realMain([]string{"doctor"}, nil, &bytes.Buffer{}, &stderr); code != 1 || !strings.Contains(stderr.String(), "`DISCORD_TOKEN=... conductor doctor`.") {
		t.Errorf("doctor without a token: exit %d, %q", code, stderr.String())
	}
}

// TestRunServesThenStopsCleanly runs `conductor run` against the fake
// Discord, which recommends two shards: the process runs both on one
// database, the health check reports the gateway (each shard) and the
// database, a command works, and cancelling (as SIGTERM does) closes
// everything, so the database opens again at once.
func TestRunServesThenStopsCleanly(t *testing.T) {
	srv := fakediscord.New(t, fakediscord.Options{RecommendedShards: 2, MaxConcurrency: 2})
	guild := srv.CreateGuild("Rail Club")
	ch := srv.CreateTextChannel(guild.ID, "table")
	alice := srv.CreateUser("alice")
	db := filepath.Join(t.TempDir(), "conductor.db")
	cfg := ops.Config{Token: "fake-bot-token", GuildID: guild.ID, APIBase: srv.BaseURL(), DBPath: db, HTTPAddr: "127.0.0.1:0"}
	started := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs testkit.SyncBuffer
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, &logs, func(addr string) { started <- addr }) }()
	var addr string
	select {
	case addr = <-started:
	case err := <-done:
		t.Fatalf("serve ended: %v\n%s", err, logs.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the bot did not start")
	}

	if err := srv.WaitFor("a connected gateway", func() bool {
		rep, code := getHealth(t, addr)
		return code == http.StatusOK && rep.Gateway.Connected
	}); err != nil {
		t.Fatal(err)
	}
	rep, _ := getHealth(t, addr)
	if rep.Status != "ok" || !rep.Database.OK || rep.Database.Path != db || !rep.Gateway.CommandsRegistered {
		t.Errorf("health = %+v", rep)
	}
	if g := rep.Gateway; g.ShardCount != 2 || len(g.Shards) != 2 || !g.Shards[0].Connected || !g.Shards[1].Connected || g.Shards[1].ID != 1 {
		t.Errorf("the health of the shards: %d of %d: %+v", len(g.Shards), g.ShardCount, g.Shards)
	}

	h, err := srv.RunCommand(alice.ID, ch.ID, "ttr", fakediscord.Subcommand("new", fakediscord.StringOption("map", "europe")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.WaitCallback(); err != nil {
		t.Fatal(err)
	}
	if m, ok := h.Original(); !ok || !m.Ephemeral() {
		t.Errorf("/ttr new answered %+v, want a private note", m)
	}
	if err := srv.WaitFor("the lobby", func() bool {
		_, ok := srv.LatestMessage(ch.ID, func(m fakediscord.Message) bool { return !m.Ephemeral() && len(m.Embeds) > 0 })
		return ok
	}); err != nil {
		t.Error(err)
	}

	// A second process on the same file fails fast with the store's advice.
	second := cfg
	second.HTTPAddr = ""
	begin := time.Now()
	err = serve(context.Background(), second, &bytes.Buffer{}, nil)
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), "CONDUCTOR_DB") {
		t.Errorf("second process: %v", err)
	}
	if d := time.Since(begin); d > 10*time.Second {
		t.Errorf("the second process took %v to give up", d)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	st, err := store.Open(db, &store.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("the database was left locked: %v", err)
	}
	defer st.Close()
	// The file serves every server: the whole bot, whatever its count.
	if id, ok, err := st.Shard(); err != nil || !ok || id != (store.ShardIdentity{ID: 0, Count: 1}) {
		t.Errorf("the database serves %v (%v %v), want the whole bot", id, ok, err)
	}
	game := ch.ID
	if th := srv.Threads(ch.ID); len(th) == 1 {
		game = th[0].ID // the game's own thread
	}
	if g, err := st.Get(game); err != nil || g.Map != "europe" {
		t.Errorf("the lobby was not saved: %+v %v", g, err)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("the health server still answers after the stop")
	}
	if !strings.Contains(logs.String(), "stopped") {
		t.Errorf("no clean stop in the log:\n%s", logs.String())
	}
	srv.CheckClean(t)
}

func getHealth(t *testing.T, addr string) (ops.HealthReport, int) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rep ops.HealthReport
	if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	return rep, resp.StatusCode
}
