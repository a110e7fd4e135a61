package ops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"conductor/store"
)

// guildID is a server id whose shard is k % count for every count (Discord
// shards on the id's bits above the 22 lowest).
func guildID(k int) string {
	return fmt.Sprint(uint64(k)<<22 | 12345)
}

// fixture is what the databases should hold, whatever the shard count.
type fixture struct {
	live     map[string]*store.GameRecord // by channel
	archived map[string][]store.ArchiveEntry
	stats    map[string]*store.Stats
}

// fillServers gives six servers two live games each and two archived ones
// (with statistics), plus a DM game and a terminal game, all in st.
func fillServers(t *testing.T, st *store.Store) {
	t.Helper()
	put := func(rec *store.GameRecord) {
		t.Helper()
		if err := st.Put(rec); err != nil {
			t.Fatal(err)
		}
	}
	game := func(guild, channel string, moves int) *store.GameRecord {
		rec := &store.GameRecord{Channel: channel, Guild: guild, Map: "usa", Status: store.StatusPlaying,
			Seats: []store.Seat{{UserID: "u1", Name: "Ada"}, {UserID: "u2", Name: "Bo"}}}
		for i := range moves {
			rec.Log = append(rec.Log, store.LogEntry{Seat: i % 2, Action: fmt.Sprint("draw ", i), Interaction: fmt.Sprintf("%s-%d", channel, i)})
		}
		return rec
	}
	for k := 1; k <= 6; k++ {
		g := guildID(k)
		for n, ch := range []string{"a", "b"} {
			channel := fmt.Sprintf("%d%s", 900+k, ch)
			put(game(g, channel, 3+n))
			if _, err := st.Archive(channel, store.ArchiveResult{Finished: time.Date(2025, 1, k, n, 0, 0, 0, time.UTC),
				Players: []store.PlayerResult{{UserID: "u1", Name: "Ada", Score: 100 + k, Rank: 1, Won: true, Routes: []string{"Denver-Omaha"}},
					{UserID: "u2", Name: "Bo", Score: 80, Rank: 2}}}); err != nil {
				t.Fatal(err)
			}
			put(game(g, channel, 5+n))
		}
	}
	put(game("", "dm-1", 2))
	put(game("local", "local:kitchen", 4))
}

// snapshot reads every record of every database given.
func snapshot(t *testing.T, paths ...string) fixture {
	t.Helper()
	f := fixture{live: map[string]*store.GameRecord{}, archived: map[string][]store.ArchiveEntry{}, stats: map[string]*store.Stats{}}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		st := openStore(t, p)
		recs, err := st.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if _, dup := f.live[r.Channel]; dup {
				t.Fatalf("channel %s has a live game in two databases", r.Channel)
			}
			f.live[r.Channel] = r
		}
		inv, err := st.Inventory()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range inv.GuildIDs() {
			a, err := st.Archived(g)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) == 0 {
				continue
			}
			if _, dup := f.archived[g]; dup {
				t.Fatalf("server %s has archived games in two databases", g)
			}
			f.archived[g] = a
			if f.stats[g], err = st.Stats(g, "u1"); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
	}
	return f
}

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(path, &store.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// assertPlaced checks that every record is in the database of its shard.
func assertPlaced(t *testing.T, paths []string, count int) {
	t.Helper()
	for i, p := range paths {
		st := openStore(t, p)
		inv, err := st.Inventory()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range inv.GuildIDs() {
			if ShardFor(g, count) != i {
				t.Errorf("%s (shard %d of %d) holds server %q's records %v", filepath.Base(p), i, count, g, inv.Guilds[g])
			}
		}
		if id, ok, _ := st.Shard(); i < count && (!ok || id != (store.ShardIdentity{ID: i, Count: count})) {
			t.Errorf("%s records %v (%v), want shard %d of %d", filepath.Base(p), id, ok, i, count)
		}
		if _, _, pending, _ := st.ReshardPending(); pending {
			t.Errorf("%s is still marked", filepath.Base(p))
		}
		st.Close()
	}
}

func shardPaths(dir string, n int) []string {
	paths := make([]string, n)
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("shard%d.db", i))
	}
	return paths
}

func TestShardFor(t *testing.T) {
	for _, c := range []struct {
		guild       string
		count, want int
	}{
		{guildID(5), 1, 0}, {guildID(5), 2, 1}, {guildID(5), 3, 2}, {guildID(6), 4, 2},
		{"", 3, 0}, {"local", 3, 0}, {"not-a-number", 2, 0},
		// Discord's documented example: (197038439483310086 >> 22) % 2.
		{"197038439483310086", 2, int((uint64(197038439483310086) >> 22) % 2)},
	} {
		if got := ShardFor(c.guild, c.count); got != c.want {
			t.Errorf("ShardFor(%q, %d) = %d, want %d", c.guild, c.count, got, c.want)
		}
	}
}

// One shard, then two, then three, then back to one: every live game,
// archived game and statistic of six servers ends in its shard's database,
// once, unchanged; DM and terminal games stay on shard 0; running each
// step twice is harmless.
func TestReshardOneTwoThreeAndBack(t *testing.T) {
	dir := t.TempDir()
	paths := shardPaths(dir, 3)
	st := openStore(t, paths[0])
	fillServers(t, st)
	st.Close()
	want := snapshot(t, paths...)
	if len(want.live) != 14 || len(want.archived) != 6 {
		t.Fatalf("fixture: %d live games, %d servers with archives", len(want.live), len(want.archived))
	}
	clock := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }

	steps := []struct{ from, to int }{{1, 2}, {2, 3}, {3, 1}}
	for _, step := range steps {
		files := paths[:max(step.from, step.to)]
		rep, err := Reshard(ReshardOptions{From: step.from, To: step.to, Paths: files, Now: now})
		if err != nil {
			t.Fatalf("%d -> %d: %v", step.from, step.to, err)
		}
		if len(rep.Moves) == 0 {
			t.Fatalf("%d -> %d moved nothing", step.from, step.to)
		}
		for _, m := range rep.Moves {
			if m.To != ShardFor(m.Guild, step.to) || m.Counts["games"] != 2 || m.Counts["archive"] != 2 || m.Counts["archived_games"] != 2 {
				t.Errorf("%d -> %d: move %+v", step.from, step.to, m)
			}
		}
		// A backup of each database that existed, private, before any change.
		if len(rep.Backups) != step.from {
			t.Errorf("%d -> %d: backups %v", step.from, step.to, rep.Backups)
		}
		for _, b := range rep.Backups {
			if fi, err := os.Stat(b); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("backup %s: %v %v", b, fi.Mode().Perm(), err)
			}
		}
		if !reflect.DeepEqual(rep.Before, rep.After) || rep.After["games"] != 14 || rep.After["archive"] != 12 {
			t.Errorf("%d -> %d: totals %v then %v", step.from, step.to, rep.Before, rep.After)
		}
		assertPlaced(t, paths[:step.to], step.to)
		if got := snapshot(t, files...); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d -> %d changed the records", step.from, step.to)
		}
		// DM and terminal games stay on shard 0.
		zero := openStore(t, paths[0])
		for _, ch := range []string{"dm-1", "local:kitchen"} {
			if _, err := zero.Get(ch); err != nil {
				t.Errorf("%d -> %d: %s not on shard 0: %v", step.from, step.to, ch, err)
			}
		}
		zero.Close()

		again, err := Reshard(ReshardOptions{From: step.from, To: step.to, Paths: files, Now: now})
		if err != nil || len(again.Moves) != 0 || len(again.Backups) != 0 {
			t.Fatalf("%d -> %d again: %+v %v", step.from, step.to, again, err)
		}
		if s := again.Summary(files); !strings.Contains(s, "nothing to move") {
			t.Errorf("second run's summary: %s", s)
		}
		if got := snapshot(t, files...); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d -> %d run twice changed the records", step.from, step.to)
		}
	}
	// Back to one shard: the other two files are emptied and serve nothing.
	for _, p := range paths[1:] {
		st := openStore(t, p)
		inv, _ := st.Inventory()
		_, ok, _ := st.Shard()
		if len(inv.Guilds) != 0 || ok {
			t.Errorf("%s after 3 -> 1: %v, shard recorded %v", p, inv.Guilds, ok)
		}
		st.Close()
	}
	// The first backup is the single database as it was.
	backups, _ := filepath.Glob(paths[0] + ".pre-reshard-*")
	sort.Strings(backups)
	if len(backups) != 3 {
		t.Fatalf("backups of shard 0: %v", backups)
	}
	if got := snapshot(t, backups[0]); !reflect.DeepEqual(got, want) {
		t.Error("the first backup is not the database before resharding")
	}
}

func TestReshardDryRunChangesNothing(t *testing.T) {
	dir := t.TempDir()
	paths := shardPaths(dir, 2)
	st := openStore(t, paths[0])
	fillServers(t, st)
	st.Close()
	before, _ := os.ReadFile(paths[0])
	rep, err := Reshard(ReshardOptions{From: 1, To: 2, Paths: paths, DryRun: true})
	if err != nil || len(rep.Moves) != 3 {
		t.Fatalf("dry run: %+v %v", rep, err)
	}
	if s := rep.Summary(paths); !strings.Contains(s, "would move 3 servers from "+paths[0]+" to "+paths[1]+": 6 live games, 6 archived games") {
		t.Errorf("summary: %s", s)
	}
	after, _ := os.ReadFile(paths[0])
	if _, err := os.Stat(paths[1]); err == nil || string(before) != string(after) {
		t.Error("a dry run wrote")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*pre-reshard*")); len(left) != 0 {
		t.Errorf("a dry run made backups: %v", left)
	}
}

// Interrupted between copying a server and removing it from its old
// database: both hold it, both are marked, the bot refuses them, and
// running the command again leaves one copy of everything.
func TestReshardFinishesAnInterruptedRun(t *testing.T) {
	dir := t.TempDir()
	paths := shardPaths(dir, 2)
	src := openStore(t, paths[0])
	fillServers(t, src)
	src.Close()
	want := snapshot(t, paths[0])
	src = openStore(t, paths[0])
	dst := openStore(t, paths[1])
	g := guildID(1)
	inv, _ := src.Inventory()
	b, err := src.Export(store.Selection{Guild: g, Channels: inv.ChannelsOf(g)})
	if err != nil {
		t.Fatal(err)
	}
	if err := dst.Import(b); err != nil {
		t.Fatal(err)
	}
	for _, st := range []*store.Store{src, dst} {
		if err := st.SetReshardPending(1, 2); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := CheckShard(dst, store.ShardIdentity{ID: 1, Count: 2}); !errors.Is(err, ErrReshardPending) ||
		!strings.Contains(err.Error(), "conductor reshard --from 1 --to 2") {
		t.Fatalf("a bot on a marked file: %v", err)
	}
	src.Close()
	dst.Close()
	// Another reshard than the unfinished one is refused.
	if _, err := Reshard(ReshardOptions{From: 2, To: 2, Paths: paths}); err == nil || !strings.Contains(err.Error(), "unfinished reshard --from 1 --to 2") {
		t.Fatalf("another reshard over an unfinished one: %v", err)
	}
	rep, err := Reshard(ReshardOptions{From: 1, To: 2, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Before["games"] != 16 || rep.After["games"] != 14 || rep.After["archive"] != 12 {
		t.Errorf("totals %v then %v: the copy already made counts once", rep.Before, rep.After)
	}
	assertPlaced(t, paths, 2)
	if got := snapshot(t, paths...); !reflect.DeepEqual(got, want) {
		t.Fatal("finishing the run changed the records")
	}
}

func TestReshardRefusals(t *testing.T) {
	dir := t.TempDir()
	paths := shardPaths(dir, 3)
	st := openStore(t, paths[0])
	fillServers(t, st)
	st.Close()
	if _, err := Reshard(ReshardOptions{From: 1, To: 2, Paths: paths[:2]}); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, paths[:2]...)
	refuse := func(name string, opt ReshardOptions, says ...string) {
		t.Helper()
		_, err := Reshard(opt)
		if err == nil {
			t.Errorf("%s: accepted", name)
			return
		}
		for _, s := range says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %v; want it to say %q", name, err, s)
			}
		}
	}
	refuse("wrong number of files", ReshardOptions{From: 2, To: 3, Paths: paths[:2]}, "needs 3 databases")
	refuse("zero shards", ReshardOptions{From: 0, To: 1, Paths: paths[:1]}, "start at 1")
	refuse("one file twice", ReshardOptions{From: 2, To: 2, Paths: []string{paths[0], filepath.Join(dir, ".", "shard0.db")}}, "same database")
	refuse("missing source", ReshardOptions{From: 3, To: 3, Paths: []string{paths[0], paths[1], filepath.Join(dir, "none.db")}}, "does not exist", "shard 2")
	refuse("wrong --from", ReshardOptions{From: 1, To: 3, Paths: paths}, "last served as shard 0 of 2", "--from is 1")
	refuse("files out of order", ReshardOptions{From: 2, To: 3, Paths: []string{paths[1], paths[0], paths[2]}}, "shard order")

	// A bot holds shard 1's file.
	held := openStore(t, paths[1])
	refuse("a running bot", ReshardOptions{From: 2, To: 3, Paths: paths, LockTimeout: 100 * time.Millisecond},
		paths[1], "running conductor", "stop every shard's bot")
	_, err := Reshard(ReshardOptions{From: 2, To: 3, Paths: paths, LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) {
		t.Errorf("locked: %v", err)
	}
	held.Close()

	// Files that never recorded their shard: their servers tell.
	legacy := shardPaths(t.TempDir(), 2)
	for i, p := range legacy {
		st := openStore(t, p)
		if err := st.Put(&store.GameRecord{Channel: fmt.Sprint("c", i), Guild: guildID(i), Map: "usa"}); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	refuse("legacy files out of order", ReshardOptions{From: 2, To: 3, Paths: []string{legacy[1], legacy[0], filepath.Join(dir, "x.db")}},
		"holds server "+guildID(1), "check --from and the order")

	// Nothing above changed a record, made a backup or left a mark.
	if got := snapshot(t, paths[:2]...); !reflect.DeepEqual(got, want) {
		t.Error("a refused reshard changed the records")
	}
	if b, _ := filepath.Glob(filepath.Join(dir, "shard1.db.pre-reshard-*")); len(b) != 0 {
		t.Errorf("a refused reshard made backups: %v", b)
	}
	if _, err := os.Stat(paths[2]); err == nil {
		t.Error("a refused reshard created a database")
	}
	assertPlaced(t, paths[:2], 2)
}

// A server that got a new game in a channel after the shard count changed
// (before the reshard) has two games there: refused before any change.
func TestReshardRefusesTwoGamesInOneChannel(t *testing.T) {
	dir := t.TempDir()
	paths := shardPaths(dir, 2)
	old := openStore(t, paths[0])
	g := guildID(1) // shard 1 of 2
	if err := old.Put(&store.GameRecord{Channel: "c1", Guild: g, Map: "usa", ID: "old-game"}); err != nil {
		t.Fatal(err)
	}
	if err := old.Put(&store.GameRecord{Channel: "c2", Guild: g, Map: "usa", ID: "fine"}); err != nil {
		t.Fatal(err)
	}
	newer := openStore(t, paths[1])
	if err := newer.Put(&store.GameRecord{Channel: "c1", Guild: g, Map: "europe", ID: "new-game"}); err != nil {
		t.Fatal(err)
	}
	// Both bots ran with two shards (and said so at start).
	for i, st := range []*store.Store{old, newer} {
		if _, err := CheckShard(st, store.ShardIdentity{ID: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	newer.Close()
	before := snapshotFiles(t, paths)
	_, err := Reshard(ReshardOptions{From: 2, To: 2, Paths: paths})
	if !errors.Is(err, ErrReshardConflict) {
		t.Fatalf("two games in c1: %v", err)
	}
	for _, s := range []string{"games/c1", "old-game", "new-game", "/ttr end", "nothing was changed"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%v: want it to say %q", err, s)
		}
	}
	if after := snapshotFiles(t, paths); !reflect.DeepEqual(after, before) {
		t.Error("the refused reshard changed a file")
	}
}

// snapshotFiles reads the files' bytes.
func snapshotFiles(t *testing.T, paths []string) []string {
	t.Helper()
	var out []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// A bucket this build does not know: the bot still starts, reshard refuses
// rather than leave it behind.
func TestReshardRefusesAnUnknownBucket(t *testing.T) {
	paths := shardPaths(t.TempDir(), 2)
	st := openStore(t, paths[0])
	fillServers(t, st)
	st.Close()
	db, err := bolt.Open(paths[0], 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("mystery")); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st = openStore(t, paths[0])
	if c, err := CheckShard(st, store.ShardIdentity{ID: 0, Count: 1}); err != nil || c.Problem() != "" {
		t.Fatalf("start with an unknown bucket: %v", err)
	}
	st.Close()
	_, err = Reshard(ReshardOptions{From: 1, To: 2, Paths: paths})
	if !errors.Is(err, store.ErrUnknownBucket) || !strings.Contains(err.Error(), "mystery") {
		t.Fatalf("reshard: %v", err)
	}
	if _, err := os.Stat(paths[1]); err == nil {
		t.Error("the refused reshard created shard 1's database")
	}
}
