package main

import (
	"strings"
	"testing"
)

func TestShardSettingsFromTheEnvironment(t *testing.T) {
	env := func(kv map[string]string) func(string) string {
		return func(k string) string { return kv[k] }
	}
	cfg, err := runConfigFrom(env(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_ID": "1", "CONDUCTOR_SHARD_COUNT": "2"}), nil)
	if err != nil || cfg.ShardID != 1 || cfg.ShardCount != 2 {
		t.Fatalf("shard 1 of 2: %+v %v", cfg, err)
	}
	cfg, err = runConfigFrom(env(map[string]string{"DISCORD_TOKEN": "x"}), nil)
	if err != nil || cfg.ShardID != 0 || cfg.ShardCount != 1 {
		t.Fatalf("default: %+v %v", cfg, err)
	}
	for _, bad := range []map[string]string{
		{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_ID": "2", "CONDUCTOR_SHARD_COUNT": "2"},
		{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_COUNT": "zero"},
		{"DISCORD_TOKEN": "x", "CONDUCTOR_SHARD_ID": "-1", "CONDUCTOR_SHARD_COUNT": "3"},
	} {
		if _, err := runConfigFrom(env(bad), nil); err == nil || !strings.Contains(err.Error(), "CONDUCTOR_SHARD") {
			t.Errorf("%v: got %v, want an error naming the setting", bad, err)
		}
	}
}
