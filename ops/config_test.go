package ops

import (
	"errors"
	"strings"
	"testing"
	"time"
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
	for _, bad := range []string{"fast", "0", "-5"} {
		_, err := ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_GLOBAL_RATE": bad}), nil)
		if err == nil || !strings.Contains(err.Error(), "CONDUCTOR_GLOBAL_RATE") {
			t.Errorf("%q: got %v, want an error naming the setting", bad, err)
		}
	}
}

func TestShardSettingsFromTheEnvironment(t *testing.T) {
	cfg, err := ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_ID": "1", "CONDUCTOR_SHARD_COUNT": "2"}), nil)
	if err != nil || cfg.ShardID != 1 || cfg.ShardCount != 2 {
		t.Fatalf("shard 1 of 2: %+v %v", cfg, err)
	}
	cfg, err = ConfigFromEnv(getenv(map[string]string{"DISCORD_TOKEN": "x"}), nil)
	if err != nil || cfg.ShardID != 0 || cfg.ShardCount != 1 {
		t.Fatalf("default: %+v %v", cfg, err)
	}
	for _, bad := range []map[string]string{
		{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_ID": "2", "CONDUCTOR_SHARD_COUNT": "2"},
		{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_COUNT": "zero"},
		{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_ID": "-1", "CONDUCTOR_SHARD_COUNT": "3"},
	} {
		if _, err := ConfigFromEnv(getenv(bad), nil); err == nil || !strings.Contains(err.Error(), "CONDUCTOR_SHARD") {
			t.Errorf("%v: got %v, want an error naming the setting", bad, err)
		}
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
// listens (by default on :8081), and refuses to run with several shards.
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
	env["CONDUCTOR_SHARD_COUNT"] = "2"
	_, err = ConfigFromEnv(get, nil)
	var ce ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "one shard") {
		t.Errorf("two shards: %v", err)
	}
	if rep := DoctorWeb(get, nil); rep.OK() {
		t.Errorf("doctor with two shards: %+v", rep)
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
