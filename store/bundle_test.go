package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fillGuild gives guild a live game per channel and one archived game from
// its first channel's earlier game.
func fillGuild(t *testing.T, s *Store, guild string, channels ...string) {
	t.Helper()
	for i, ch := range channels {
		if i == 0 {
			old := sampleGame(ch, guild, 4)
			old.ID = "old-" + ch
			mustPut(t, s, old)
			if _, err := s.Archive(ch, ArchiveResult{Finished: base.Add(time.Hour),
				Players: []PlayerResult{{UserID: "u1", Name: "Ada", Score: 90, Rank: 1, Won: true}}}); err != nil {
				t.Fatal(err)
			}
		}
		mustPut(t, s, sampleGame(ch, guild, 3+i))
	}
}

func TestInventoryCountsByGuild(t *testing.T) {
	s, _ := openTemp(t)
	fillGuild(t, s, "g1", "a1", "a2")
	fillGuild(t, s, "g2", "b1")
	inv, err := s.Inventory()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]int{
		"g1": {"games": 2, "archive": 1, "archived_games": 1},
		"g2": {"games": 1, "archive": 1, "archived_games": 1},
	}
	if !reflect.DeepEqual(inv.Guilds, want) {
		t.Fatalf("guilds %v, want %v", inv.Guilds, want)
	}
	if got := inv.ChannelsOf("g1"); !reflect.DeepEqual(got, []string{"a1", "a2"}) {
		t.Fatalf("channels of g1: %v", got)
	}
	if !reflect.DeepEqual(inv.GuildIDs(), []string{"g1", "g2"}) {
		t.Fatalf("guild ids %v", inv.GuildIDs())
	}
}

// withBucket adds a per-channel bucket to the declared layout for one test,
// as a future bucket (say, pending posts per channel) would be.
func withBucket(t *testing.T, s *Store, name string, kind keying, fill func(b *bolt.Bucket) error) {
	t.Helper()
	bucketKeying[name] = kind
	t.Cleanup(func() { delete(bucketKeying, name) })
	err := s.file.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return err
		}
		return fill(b)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A per-channel bucket moves with its channel's server, whether it keeps
// one nested bucket per channel or flat keys "channel NUL n"; a channel
// with only an archived game is placed by the archive's summary.
func TestExportImportRemoveCarryAnyPerChannelBucket(t *testing.T) {
	src, _ := openTemp(t)
	dst, _ := openTemp(t)
	fillGuild(t, src, "g1", "a1", "a2")
	fillGuild(t, src, "g2", "b1")
	// a3's game is archived: only the archive says a3 is g1's.
	fillGuild(t, src, "g1", "a3")
	if err := src.Delete("a3"); err != nil {
		t.Fatal(err)
	}
	withBucket(t, src, "pending", perChannel, func(b *bolt.Bucket) error {
		for _, ch := range []string{"a1", "a3", "b1", "zz"} {
			for n := range 2 {
				if err := b.Put(fmt.Appendf(nil, "%s\x00%d", ch, n), []byte("post "+ch)); err != nil {
					return err
				}
			}
		}
		sub, err := b.CreateBucket([]byte("a2"))
		if err != nil {
			return err
		}
		return sub.Put([]byte("1"), []byte("board"))
	})
	inv, err := src.Inventory()
	if err != nil {
		t.Fatal(err)
	}
	if inv.Guilds["g1"]["pending"] != 5 || inv.Guilds["g2"]["pending"] != 2 {
		t.Fatalf("pending counts: %v", inv.Guilds)
	}
	if !reflect.DeepEqual(inv.Unplaced, map[string]map[string]int{"zz": {"pending": 2}}) {
		t.Fatalf("unplaced: %v", inv.Unplaced)
	}
	sel := Selection{Guild: "g1", Channels: inv.ChannelsOf("g1")}
	b, err := src.Export(sel)
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := map[string]int{"games": 2, "archive": 2, "archived_games": 2, "pending": 5}
	if got := b.Counts(); !reflect.DeepEqual(got, wantCounts) {
		t.Fatalf("bundle counts %v, want %v", got, wantCounts)
	}
	if keys := b.Keys(); len(keys) != 11 || keys[0] != "archive/g1/"+archBeforeKey(t, src) {
		t.Fatalf("keys %v", keys)
	}
	before := mustGet(t, src, "a1")
	archBefore, _ := src.Archived("g1")
	statsBefore, _ := src.Stats("g1", "u1")
	for i := range 2 { // importing twice changes nothing
		cmp, err := dst.Compare(b)
		if err != nil || len(cmp.Conflicts) != 0 {
			t.Fatalf("compare: %+v %v", cmp, err)
		}
		if held := cmp.Held; (i == 0 && len(held) != 0) || (i == 1 && !reflect.DeepEqual(held, wantCounts)) {
			t.Fatalf("import %d: held %v", i, held)
		}
		if err := dst.Import(b); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // removing twice is harmless
		if err := src.Remove(b); err != nil {
			t.Fatal(err)
		}
	}
	assertSame(t, mustGet(t, dst, "a1"), before)
	if _, err := src.Get("a1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a1 still in the source: %v", err)
	}
	archAfter, _ := dst.Archived("g1")
	statsAfter, _ := dst.Stats("g1", "u1")
	if !reflect.DeepEqual(archAfter, archBefore) || !reflect.DeepEqual(statsAfter, statsBefore) || len(archAfter) != 2 {
		t.Fatalf("archive or stats changed:\n%v\n%v\n%+v\n%+v", archAfter, archBefore, statsAfter, statsBefore)
	}
	full, err := dst.ArchivedGame(archAfter[0].Key)
	if err != nil || full.ID != "old-a1" {
		t.Fatalf("archived game: %v %v", full, err)
	}
	// g2 and the unplaced channel stayed; g1 left nothing behind.
	left, err := src.Inventory()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := left.Guilds["g1"]; ok || left.Guilds["g2"]["games"] != 1 || left.Unplaced["zz"]["pending"] != 2 {
		t.Fatalf("source after the move: %v unplaced %v", left.Guilds, left.Unplaced)
	}
	moved, _ := dst.Inventory()
	if !reflect.DeepEqual(moved.Guilds["g1"], map[string]int{"games": 2, "archive": 2, "archived_games": 2, "pending": 5}) {
		t.Fatalf("destination: %v", moved.Guilds)
	}
	dst.file.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket([]byte("pending")).Bucket([]byte("a2")).Get([]byte("1")); string(v) != "board" {
			t.Errorf("nested per-channel bucket: %q", v)
		}
		return nil
	})
	// The moved game keeps its interaction index: a replay is refused.
	if _, err := dst.AppendAction("a1", before.Log[0]); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("replayed interaction after the move: %v", err)
	}
}

func TestImportRefusesTwoGamesInOneChannel(t *testing.T) {
	src, _ := openTemp(t)
	dst, _ := openTemp(t)
	mustPut(t, src, sampleGame("c1", "g1", 3))
	other := sampleGame("c1", "g1", 1)
	other.ID = "new-game"
	mustPut(t, dst, other)
	archiveGame(t, src, "c2", "g1", "usa", 5, StatusFinished, base)
	b, err := src.Export(Selection{Guild: "g1", Channels: []string{"c1"}})
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := dst.Compare(b)
	if err != nil || len(cmp.Conflicts) != 1 || !strings.Contains(cmp.Conflicts[0].Detail, "new-game") {
		t.Fatalf("compare %+v, %v", cmp, err)
	}
	var ce *ConflictError
	if err := dst.Import(b); !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "games/c1") {
		t.Fatalf("import: %v", err)
	}
	// Nothing was written, not even the archive that did not conflict.
	if got, _ := dst.Archived("g1"); len(got) != 0 {
		t.Fatalf("a refused import wrote %v", got)
	}
	if mustGet(t, dst, "c1").ID != "new-game" {
		t.Fatal("a refused import replaced the game")
	}
}

// Two copies of the same game (a move interrupted between Import and
// Remove): the later one wins on either side.
func TestImportKeepsTheNewerCopyOfTheSameGame(t *testing.T) {
	src, _ := openTemp(t)
	dst, _ := openTemp(t)
	rec := sampleGame("c1", "g1", 3)
	mustPut(t, dst, rec) // updated at base+1s
	mustPut(t, src, rec) // updated at base+1s on its own clock
	src.AppendAction("c1", LogEntry{Action: "draw 1", Interaction: "late"})
	b, _ := src.Export(Selection{Guild: "g1", Channels: []string{"c1"}})
	if err := dst.Import(b); err != nil {
		t.Fatal(err)
	}
	if got := len(mustGet(t, dst, "c1").Log); got != 4 {
		t.Fatalf("the newer copy was not kept: %d entries", got)
	}
	// The other way round, the destination's newer copy stays.
	old, _ := openTemp(t)
	mustPut(t, old, rec)
	b, _ = old.Export(Selection{Guild: "g1", Channels: []string{"c1"}})
	if err := dst.Import(b); err != nil {
		t.Fatal(err)
	}
	if got := len(mustGet(t, dst, "c1").Log); got != 4 {
		t.Fatalf("an older copy replaced the newer one: %d entries", got)
	}
}

func TestUnknownBucketStopsExport(t *testing.T) {
	s, _ := openTemp(t)
	s.file.db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("mystery"))
		return err
	})
	mustPut(t, s, sampleGame("c1", "g1", 1))
	// Counting still works (a bot starting must not fail on it)...
	if inv, err := s.Inventory(); err != nil || !reflect.DeepEqual(inv.Unknown, []string{"mystery"}) || inv.Guilds["g1"]["games"] != 1 {
		t.Fatalf("inventory: %+v %v", inv, err)
	}
	// ...but nothing is exported while a bucket would be left behind.
	if _, err := s.Export(Selection{Guild: "g"}); !errors.Is(err, ErrUnknownBucket) {
		t.Fatalf("export: %v", err)
	}
}

// Every bucket a fresh file gets says whose records it holds, so that
// conductor reshard moves it with its server: a new bucket must be added to
// bucketKeying.
func TestEveryBucketIsDeclared(t *testing.T) {
	s, _ := openTemp(t)
	s.file.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			if _, err := bucketKind(name); err != nil {
				t.Error(err)
			}
			return nil
		})
	})
}

func TestShardAndReshardMarks(t *testing.T) {
	s, path := openTemp(t)
	if _, ok, err := s.Shard(); ok || err != nil {
		t.Fatalf("fresh file: %v %v", ok, err)
	}
	if err := s.SetShard(ShardIdentity{ID: 2, Count: 2}); err == nil {
		t.Fatal("shard 2 of 2 accepted")
	}
	if err := s.SetShard(ShardIdentity{ID: 1, Count: 3}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetReshardPending(3, 4); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openAt(t, path)
	if id, ok, err := s.Shard(); !ok || err != nil || id != (ShardIdentity{1, 3}) || id.String() != "shard 1 of 3" {
		t.Fatalf("shard: %v %v %v", id, ok, err)
	}
	if from, to, ok, err := s.ReshardPending(); !ok || err != nil || from != 3 || to != 4 {
		t.Fatalf("pending: %d %d %v %v", from, to, ok, err)
	}
	if err := s.ClearReshardPending(); err != nil {
		t.Fatal(err)
	}
	if err := s.SetShard(ShardIdentity{}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := s.ReshardPending(); ok {
		t.Fatal("the reshard mark stayed")
	}
	if _, ok, _ := s.Shard(); ok {
		t.Fatal("the shard record stayed")
	}
	if v, err := s.SchemaVersion(); v != CurrentSchema || err != nil {
		t.Fatalf("schema after the marks: %d %v", v, err)
	}
}

// A backup holds every hand and ticket: only its owner may read it.
func TestBackupFileIsPrivate(t *testing.T) {
	s, _ := openTemp(t)
	mustPut(t, s, sampleGame("c1", "g1", 3))
	path := filepath.Join(t.TempDir(), "backup.db")
	// An older copy readable by everyone is replaced by a private one.
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.BackupFile(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestBackupSizedAnnouncesTheLength(t *testing.T) {
	s, _ := openTemp(t)
	mustPut(t, s, sampleGame("c1", "g1", 3))
	var announced int64
	var sink strings.Builder
	n, err := s.BackupSized(&sink, func(size int64) { announced = size })
	if err != nil || n != announced || int64(sink.Len()) != n {
		t.Fatalf("announced %d, wrote %d (%d), %v", announced, n, sink.Len(), err)
	}
}

// archBeforeKey is the first archive key of g1 without its guild prefix.
func archBeforeKey(t *testing.T, s *Store) string {
	t.Helper()
	e, err := s.Archived("g1")
	if err != nil || len(e) == 0 {
		t.Fatalf("archive: %v %v", e, err)
	}
	return printable([]byte(e[0].Key))[len("g1/"):]
}
