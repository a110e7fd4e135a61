package ops

import (
	"errors"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/store"
)

func getenv(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

func TestConfigFromEnvironment(t *testing.T) {
	env := map[string]string{"DISCORD_TOKEN": " abc ", "LOG_LEVEL": "DEBUG", "CONDUCTOR_HTTP": ":8080"}
	cfg, err := ConfigFromEnv(getenv(env), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Token != "abc" || cfg.DBPath != "conductor.db" || cfg.HTTPAddr != ":8080" || cfg.LogLevel.String() != "DEBUG" {
		t.Errorf("config = %+v", cfg)
	}
	if cfg.LobbiesPerMember != 0 || cfg.LobbiesPerChannel != 0 || cfg.LobbyExpiry != 0 {
		t.Errorf("the lobby limits are not the defaults: %+v", cfg)
	}
	env["CONDUCTOR_LOBBIES_PER_MEMBER"], env["CONDUCTOR_LOBBIES_PER_CHANNEL"], env["CONDUCTOR_LOBBY_EXPIRY"] = "3", "0", "90m"
	cfg, err = ConfigFromEnv(getenv(env), nil)
	if err != nil || cfg.LobbiesPerMember != 3 || cfg.LobbiesPerChannel != -1 || cfg.LobbyExpiry != 90*time.Minute {
		t.Errorf("lobby limits %+v, %v", cfg, err)
	}
	var ce ConfigError
	for key, bad := range map[string]string{"LOG_LEVEL": "loud", "CONDUCTOR_LOBBIES_PER_MEMBER": "-2", "CONDUCTOR_LOBBY_EXPIRY": "a day"} {
		if _, err := ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "abc", key: bad}), nil); !errors.As(err, &ce) {
			t.Errorf("%s=%s: %v, want a ConfigError", key, bad, err)
		}
	}
	// Without a token: how to get one, and how to play without.
	_, err = ConfigFromEnv(getenv(map[string]string{}), nil)
	for _, want := range []string{"DISCORD_TOKEN", "README", "conductor play", "discord.com/developers"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no token: %v does not mention %q", err, want)
		}
	}
}

func TestGlobalRateFromTheEnvironment(t *testing.T) {
	cfg, err := ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_GLOBAL_RATE": "25"}), nil)
	if err != nil || cfg.GlobalRate != 25 {
		t.Fatalf("25 a second: %+v %v", cfg, err)
	}
	if cfg, err = ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x"}), nil); err != nil || cfg.GlobalRate != 0 {
		t.Fatalf("default (the bot's): %+v %v", cfg, err)
	}
	// Behind a REST proxy that paces every process's requests (nirn-proxy).
	if cfg, err = ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_GLOBAL_RATE": "off"}), nil); err != nil || cfg.GlobalRate != -1 {
		t.Fatalf("off: %+v %v", cfg, err)
	}
	for _, bad := range []string{"fast", "0", "-5"} {
		_, err := ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_GLOBAL_RATE": bad}), nil)
		if err == nil || !strings.Contains(err.Error(), "CONDUCTOR_GLOBAL_RATE") {
			t.Errorf("%q: got %v, want an error naming the setting", bad, err)
		}
	}
}

func TestShardSettingsFromTheEnvironment(t *testing.T) {
	type want struct {
		shards string // "all" or the range
		count  int
		notice string
	}
	for env, w := range map[string]want{
		"":                           {"all", 0, ""},
		"CONDUCTOR_SHARDS=all":       {"all", 0, ""},
		"CONDUCTOR_SHARD_COUNT=auto": {"all", 0, ""},
		"CONDUCTOR_SHARDS=all CONDUCTOR_SHARD_COUNT=8": {"all", 8, ""},
		"CONDUCTOR_SHARD_COUNT=1":                      {"all", 1, ""},
		"CONDUCTOR_SHARDS=0-3 CONDUCTOR_SHARD_COUNT=4": {"all", 4, ""},
		"CONDUCTOR_SHARDS=3 CONDUCTOR_SHARD_COUNT=4":   {"3", 4, ""},
		// The settings of a process that ran one shard go on working.
		"CONDUCTOR_SHARD_ID=1 CONDUCTOR_SHARD_COUNT=2":                    {"1", 2, "CONDUCTOR_SHARD_ID=1 is read as CONDUCTOR_SHARDS=1"},
		"CONDUCTOR_SHARD_ID=0 CONDUCTOR_SHARD_COUNT=1":                    {"all", 1, "read as CONDUCTOR_SHARDS=0"},
		"CONDUCTOR_SHARD_ID=2 CONDUCTOR_SHARDS=2 CONDUCTOR_SHARD_COUNT=3": {"2", 3, ""},
	} {
		kv := map[string]string{"DISCORD_TOKEN": "x"}
		for _, f := range strings.Fields(env) {
			k, v, _ := strings.Cut(f, "=")
			kv[k] = v
		}
		cfg, err := ConfigFromEnv(getenv(kv), nil)
		if err != nil {
			t.Errorf("%s: %v", env, err)
			continue
		}
		got := "all"
		if cfg.Shards != nil {
			got = cfg.Shards.String()
		}
		if got != w.shards || cfg.ShardCount != w.count || w.notice == "" && len(cfg.Notices) > 0 ||
			w.notice != "" && (len(cfg.Notices) != 1 || !strings.Contains(cfg.Notices[0], w.notice)) {
			t.Errorf("%s: shards %s of %d, notices %q; want %+v", env, got, cfg.ShardCount, cfg.Notices, w)
		}
	}
	for env, says := range map[string]string{
		"CONDUCTOR_SHARD_ID=2 CONDUCTOR_SHARD_COUNT=2":                    "numbered 0 to 1",
		"CONDUCTOR_SHARD_COUNT=zero":                                      "CONDUCTOR_SHARD_COUNT=\"zero\"",
		"CONDUCTOR_SHARD_COUNT=0":                                         "1 or more",
		"CONDUCTOR_SHARD_ID=-1 CONDUCTOR_SHARD_COUNT=3":                   "CONDUCTOR_SHARD_ID",
		"CONDUCTOR_SHARDS=5-2 CONDUCTOR_SHARD_COUNT=8":                    "no greater than the last",
		"CONDUCTOR_SHARDS=two":                                            "CONDUCTOR_SHARDS",
		"CONDUCTOR_SHARDS=3":                                              "CONDUCTOR_SHARD_COUNT=auto",
		"CONDUCTOR_SHARD_ID=1 CONDUCTOR_SHARDS=2 CONDUCTOR_SHARD_COUNT=3": "disagree",
		// A count alone used to run shard 0: it is not silently all of them now.
		"CONDUCTOR_SHARD_COUNT=2": "CONDUCTOR_SHARDS=all to run all 2",
		// A bbolt file per range of shards is not a layout anything tends.
		"CONDUCTOR_SHARDS=0-1 CONDUCTOR_SHARD_COUNT=4": "every shard or one",
	} {
		kv := map[string]string{"DISCORD_TOKEN": "x"}
		for _, f := range strings.Fields(env) {
			k, v, _ := strings.Cut(f, "=")
			kv[k] = v
		}
		_, err := ConfigFromEnv(getenv(kv), nil)
		var ce ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: got %v, want a ConfigError saying %q", env, err, says)
		}
	}
}

// The database of a process that runs every shard serves the whole bot (shard 0 of 1,
// whatever the count); one that runs one shard serves that shard.
func TestTheDatabaseServesTheProcessShards(t *testing.T) {
	if id := (Config{ShardCount: 8}).storeShard(); id != (store.ShardIdentity{ID: 0, Count: 1}) {
		t.Errorf("all shards: %v", id)
	}
	if id := (Config{Shards: &bot.ShardRange{From: 3, To: 3}, ShardCount: 8}).storeShard(); id != (store.ShardIdentity{ID: 3, Count: 8}) {
		t.Errorf("shard 3: %v", id)
	}
}

func TestBackupTokenFromTheEnvironment(t *testing.T) {
	env := map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_BACKUP_TOKEN": " " + strings.Repeat("k", BackupTokenMin) + " "}
	cfg, err := ConfigFromEnv(getenv(env), nil)
	if err != nil || cfg.BackupToken != strings.Repeat("k", BackupTokenMin) {
		t.Fatalf("token: %q %v", cfg.BackupToken, err)
	}
	env["CONDUCTOR_BACKUP_TOKEN"] = "short"
	if _, err := ConfigFromEnv(getenv(env), nil); err == nil || !strings.Contains(err.Error(), "CONDUCTOR_BACKUP_TOKEN") {
		t.Fatalf("a short token: %v", err)
	}
}

// TestWebSettings: without the client secret the page is off; with it, it
// listens (by default on :8081), at any shard count when this process runs
// them all, and refuses to run beside processes that run the others.
func TestWebSettings(t *testing.T) {
	env := map[string]string{"DISCORD_TOKEN": "abc"}
	get := getenv(env)
	cfg, err := ConfigFromEnv(get, nil)
	if err != nil || cfg.ClientSecret != "" || cfg.WebAddr != "" {
		t.Fatalf("off: %+v %v", cfg, err)
	}
	env["DISCORD_CLIENT_SECRET"] = " s3cret "
	env["CONDUCTOR_PUBLIC_URL"] = "https://conductor.example.org"
	cfg, err = ConfigFromEnv(get, nil)
	if err != nil || cfg.ClientSecret != "s3cret" || cfg.WebAddr != DefaultWebAddr || cfg.PublicURL != "https://conductor.example.org" {
		t.Fatalf("on: %+v %v", cfg, err)
	}
	// Every shard in this process: the page's sessions and every game are here.
	env["CONDUCTOR_SHARD_COUNT"], env["CONDUCTOR_SHARDS"] = "16", "all"
	if cfg, err = ConfigFromEnv(get, nil); err != nil || cfg.ClientSecret == "" {
		t.Fatalf("16 shards in one process: %+v %v", cfg, err)
	}
	delete(env, "CONDUCTOR_PUBLIC_URL") // the doctor fetches nothing then
	if rep := DoctorWeb(get, nil); !rep[0].OK || !strings.Contains(rep[0].Detail, "on") {
		t.Errorf("doctor with 16 shards in one process: %+v", rep)
	}
	// One shard of two: the other's servers are in another process.
	env["CONDUCTOR_SHARD_COUNT"], env["CONDUCTOR_SHARDS"] = "2", "1"
	_, err = ConfigFromEnv(get, nil)
	var ce ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "every shard in this process") {
		t.Errorf("one shard of two: %v", err)
	}
	if rep := DoctorWeb(get, nil); rep.OK() {
		t.Errorf("doctor with one shard of two: %+v", rep)
	}
	delete(env, "DISCORD_CLIENT_SECRET")
	if rep := DoctorWeb(get, nil); !rep.OK() || !strings.Contains(rep[0].Detail, "off") {
		t.Errorf("doctor, off: %+v", rep)
	}
}

func TestClientAddressSettings(t *testing.T) {
	env := map[string]string{"DISCORD_TOKEN": "abc", "DISCORD_CLIENT_SECRET": "s"}
	get := getenv(env)
	cfg, err := ConfigFromEnv(get, nil)
	if err != nil || cfg.ClientIPHeader != "" || cfg.TrustedProxies != nil {
		t.Fatalf("unset: %+v %v", cfg, err)
	}
	env["CONDUCTOR_CLIENT_IP_HEADER"] = "Fly-Client-IP"
	if cfg, err = ConfigFromEnv(get, nil); err != nil || cfg.ClientIPHeader != "Fly-Client-IP" || cfg.TrustedProxies != nil {
		t.Fatalf("a header: %+v %v", cfg, err)
	}
	env["CONDUCTOR_TRUSTED_PROXIES"] = "172.16.0.0/12, fdaa::1"
	if cfg, err = ConfigFromEnv(get, nil); err != nil || len(cfg.TrustedProxies) != 2 || cfg.TrustedProxies[1].String() != "fdaa::1/128" {
		t.Fatalf("proxies: %+v %v", cfg, err)
	}
	var ce ConfigError
	for k, v := range map[string]string{"CONDUCTOR_TRUSTED_PROXIES": "fly-proxy", "CONDUCTOR_CLIENT_IP_HEADER": "Fly Client IP"} {
		old := env[k]
		env[k] = v
		if _, err := ConfigFromEnv(get, nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%q: %v", k, v, err)
		}
		env[k] = old
	}
	delete(env, "CONDUCTOR_CLIENT_IP_HEADER")
	if _, err := ConfigFromEnv(get, nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "CONDUCTOR_CLIENT_IP_HEADER") {
		t.Errorf("proxies without a header: %v", err)
	}
}
