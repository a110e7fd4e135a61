package main

import (
	"strings"
	"testing"
)

func TestGlobalRateFromTheEnvironment(t *testing.T) {
	env := func(kv map[string]string) func(string) string {
		return func(k string) string { return kv[k] }
	}
	cfg, err := runConfigFrom(env(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_GLOBAL_RATE": "25"}), nil)
	if err != nil || cfg.GlobalRate != 25 {
		t.Fatalf("25 a second: %+v %v", cfg, err)
	}
	if cfg, err = runConfigFrom(env(map[string]string{"DISCORD_TOKEN": "x"}), nil); err != nil || cfg.GlobalRate != 0 {
		t.Fatalf("default (the bot's): %+v %v", cfg, err)
	}
	for _, bad := range []string{"fast", "0", "-5"} {
		_, err := runConfigFrom(env(map[string]string{"DISCORD_TOKEN": "x", "CONDUCTOR_GLOBAL_RATE": bad}), nil)
		if err == nil || !strings.Contains(err.Error(), "CONDUCTOR_GLOBAL_RATE") {
			t.Errorf("%q: got %v, want an error naming the setting", bad, err)
		}
	}
}
