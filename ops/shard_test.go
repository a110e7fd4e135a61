package ops

import (
	"path/filepath"
	"strings"
	"testing"

	"conductor/store"
)

// A shard that starts on a database holding other shards' servers says how
// many and which command fixes it; its shard is recorded.
func TestCheckShardNamesForeignGamesAndTheCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shard0.db")
	st := openStore(t, path)
	fillServers(t, st)
	c, err := CheckShard(st, store.ShardIdentity{ID: 0, Count: 1})
	if err != nil || c.Problem() != "" {
		t.Fatalf("one shard: %v %q", err, c.Problem())
	}
	// The deployment grew to two shards without a reshard.
	c, err = CheckShard(st, store.ShardIdentity{ID: 0, Count: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c.ForeignServers != 3 || c.ForeignLive != 6 || c.ForeignArchived != 6 {
		t.Fatalf("foreign: %+v", c)
	}
	p := c.Problem()
	for _, want := range []string{"6 live games and 6 archived games in this database are of 3 servers", "last served as shard 0 of 1",
		"conductor reshard --from 1 --to 2 SHARD0.db SHARD1.db"} {
		if !strings.Contains(p, want) {
			t.Errorf("problem %q lacks %q", p, want)
		}
	}
	if id, ok, _ := st.Shard(); !ok || id != (store.ShardIdentity{ID: 0, Count: 2}) {
		t.Errorf("recorded %v %v", id, ok)
	}
	// Started again, same settings: still loud about the games.
	c, _ = CheckShard(st, store.ShardIdentity{ID: 0, Count: 2})
	if p := c.Problem(); !strings.Contains(p, "6 live games") || !strings.Contains(p, "--from 2 --to 2") {
		t.Errorf("second start: %q", p)
	}
	// Shard 1 of 2 on a file of its own servers only: quiet.
	mine := openStore(t, filepath.Join(t.TempDir(), "shard1.db"))
	mine.Put(&store.GameRecord{Channel: "c", Guild: guildID(3), Map: "usa"})
	if c, err := CheckShard(mine, store.ShardIdentity{ID: 1, Count: 2}); err != nil || c.Problem() != "" {
		t.Errorf("own servers: %v %q", err, c.Problem())
	}
}
