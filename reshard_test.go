package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/internal/testkit"
	"conductor/ops"
	"conductor/store"
)

// guildOn is a server id on shard k % count for every count.
func guildOn(k int) string { return fmt.Sprint(uint64(k)<<22 | 777) }

func TestReshardCommand(t *testing.T) {
	dir := t.TempDir()
	db := []string{filepath.Join(dir, "s0.db"), filepath.Join(dir, "s1.db"), filepath.Join(dir, "s2.db")}
	st, err := store.Open(db[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 3; k++ {
		if err := st.Put(&store.GameRecord{Channel: fmt.Sprint("ch", k), Guild: guildOn(k), Map: "usa"}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	run := func(args ...string) (int, string, string) {
		var o, e bytes.Buffer
		code := realMain(append([]string{"reshard"}, args...), nil, &o, &e)
		return code, o.String(), e.String()
	}
	if code, _, e := run("-h"); code != 0 || !strings.Contains(e, "--dry-run") || !strings.Contains(e, "pre-reshard") || !strings.Contains(e, "(G >> 22) % M") {
		t.Errorf("-h: exit %d\n%s", code, e)
	}
	if code, _, e := run("--from", "1", db[0]); code != exitUsage || !strings.Contains(e, "give both shard counts") {
		t.Errorf("no --to: exit %d %s", code, e)
	}
	if code, _, e := run("--from", "1", "--to", "3", db[0], db[1]); code != exitUsage || !strings.Contains(e, "needs 3 databases") {
		t.Errorf("too few files: exit %d %s", code, e)
	}
	if code, o, e := run(append([]string{"--from", "1", "--to", "3", "--dry-run"}, db...)...); code != 0 || !strings.Contains(o, "would move 1 servers from "+db[0]+" to "+db[1]) {
		t.Errorf("dry run: exit %d\n%s%s", code, o, e)
	}
	code, o, e := run("--from", "1", "--to", "3", db[0], db[1], db[2])
	if code != 0 || !strings.Contains(o, "moved 1 servers from "+db[0]+" to "+db[2]+": 1 live games") ||
		!strings.Contains(o, "backup: "+db[0]+".pre-reshard-") || !strings.Contains(o, "CONDUCTOR_SHARD_COUNT=3") {
		t.Fatalf("exit %d\n%s%s", code, o, e)
	}
	for k := 1; k <= 3; k++ {
		st, err := store.Open(db[k%3], &store.Options{Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Get(fmt.Sprint("ch", k)); err != nil {
			t.Errorf("ch%d not on shard %d: %v", k, k%3, err)
		}
		st.Close()
	}
	if code, o, _ := run("--from", "1", "--to", "3", db[0], db[1], db[2]); code != 0 || !strings.Contains(o, "nothing to move") {
		t.Errorf("again: exit %d %s", code, o)
	}
	// While a bot holds a database: refused, exit 1.
	held, err := store.Open(db[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if code, _, e := run("--from", "3", "--to", "3", db[0], db[1], db[2]); code != 1 || !strings.Contains(e, "stop every shard's bot") {
		t.Errorf("locked: exit %d %s", code, e)
	}
}

// A shard that starts on a database holding another shard's servers says
// so at ERROR, with the counts and the command; one left marked by an
// unfinished reshard does not start.
func TestServeSaysWhenGamesAreNotItsShards(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shard0.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 4; k++ { // guilds 1 and 3 are shard 1's with two shards
		if err := st.Put(&store.GameRecord{Channel: fmt.Sprint("ch", k), Guild: guildOn(k), Map: "usa", Status: store.StatusLobby}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetShard(store.ShardIdentity{ID: 0, Count: 1}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// The check runs before Discord is reached: an unreachable API is
	// enough to see the log line, then serve fails to connect.
	cfg := ops.Config{Token: "t", APIBase: "http://127.0.0.1:1/", DBPath: db, Shards: &bot.ShardRange{From: 0, To: 0}, ShardCount: 2}
	var logs testkit.SyncBuffer
	serve(t.Context(), cfg, &logs, nil)
	line := ""
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "level=ERROR") && strings.Contains(l, "other shards") {
			line = l
		}
	}
	for _, want := range []string{"2 live games and 0 archived games in this database are of 2 servers", "conductor reshard --from 1 --to 2", "foreign_live_games=2"} {
		if !strings.Contains(line, want) {
			t.Errorf("the ERROR line %q lacks %q\n%s", line, want, logs.String())
		}
	}

	st, err = store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.SetReshardPending(1, 2)
	st.Close()
	if err := serve(t.Context(), cfg, &bytes.Buffer{}, nil); err == nil || !strings.Contains(err.Error(), "reshard --from 1 --to 2") {
		t.Errorf("a marked database: %v", err)
	}
}

func TestServeExplainsAMissingDatabaseDirectory(t *testing.T) {
	db := filepath.Join(t.TempDir(), "volume-not-mounted", "conductor.db")
	cfg := ops.Config{Token: "t", APIBase: "http://127.0.0.1:1/", DBPath: db, ShardCount: 1}
	err := serve(t.Context(), cfg, &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), filepath.Dir(db)+" does not exist") {
		t.Fatalf("serve: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(db)); err == nil {
		t.Error("serve created the directory")
	}
}

func TestHoldWaitsUntilStopped(t *testing.T) {
	var o, e bytes.Buffer
	if code := realMain([]string{"hold", "-h"}, nil, &o, &e); code != 0 || !strings.Contains(e.String(), "fly ssh") {
		t.Errorf("-h: exit %d %s", code, e.String())
	}
	if code := realMain([]string{"hold", "x"}, nil, &o, &e); code != exitUsage {
		t.Errorf("an argument: exit %d", code)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var logs testkit.SyncBuffer
	done := make(chan struct{})
	go func() {
		holdCommand(flag.NewFlagSet("hold", flag.ContinueOnError))(ctx, &invocation{stderr: &logs})
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("hold returned before it was stopped")
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	<-done
	if !strings.Contains(logs.String(), "stopped") {
		t.Errorf("log: %s", logs.String())
	}
}
