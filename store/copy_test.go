package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fillForCopy gives a file one of everything: games of every log length
// (sealed chunks, an open one, none), snapshots, parked tables, deadlines,
// threads, a rematch, archived games, posts in several queues, the replay
// key.
func fillForCopy(t *testing.T, s *Store, games int) {
	t.Helper()
	for i := range games {
		ch := fmt.Sprintf("c%03d", i)
		var rec *GameRecord
		if i%3 == 0 {
			rec = threadGame(ch, fmt.Sprint("g", i%4), fmt.Sprint("p", i%5), map[bool]string{true: "old", false: ""}[i == 3])
		} else {
			rec = sampleGame(ch, fmt.Sprint("g", i%4), (i*17)%(3*chunkLen+7))
		}
		rec.Due = &Deadline{At: base.Add(time.Duration(i*7919) * time.Nanosecond), Kind: "turn", Moves: len(rec.Log)}
		mustPut(t, s, rec)
		if i%4 == 1 {
			if err := s.SaveSnapshot(ch, &Snapshot{Moves: len(rec.Log) / 2, Data: []byte(fmt.Sprint("state of ", ch))}); err != nil {
				t.Fatal(err)
			}
		}
		if i%5 == 2 {
			if err := s.Park(ch, []byte("a question")); err != nil {
				t.Fatal(err)
			}
		}
		if i%6 == 5 {
			if _, err := s.Archive(ch, ArchiveResult{Players: []PlayerResult{{UserID: "u1", Name: "Ada", Score: i, Won: true}}}); err != nil {
				t.Fatal(err)
			}
		}
		if i%7 == 0 {
			if err := s.Enqueue(ch, OutboxEntry{Kind: "board", Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))},
				OutboxEntry{Queue: "dm:u1", Payload: json.RawMessage(fmt.Sprintf(`{"dm":%d}`, i))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.ReplayKey(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetSeason("g1", SeasonMonth, s.now()); err != nil {
		t.Fatal(err)
	}
}

// sameStores compares everything a store says of its records.
func sameStores(t *testing.T, src, dst *Store) {
	t.Helper()
	cs, err1 := src.Counts()
	cd, err2 := dst.Counts()
	if err1 != nil || err2 != nil || *cs != *cd {
		t.Fatalf("counts: file %+v (%v), copy %+v (%v)", cs, err1, cd, err2)
	}
	chs, err := src.ChannelList()
	if err != nil {
		t.Fatal(err)
	}
	if chd, _ := dst.ChannelList(); !reflect.DeepEqual(chs, chd) {
		t.Fatalf("channels: file %v, copy %v", chs, chd)
	}
	for _, ch := range chs {
		a, err1 := src.Load(ch)
		b, err2 := dst.Load(ch)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: file %+v (%v), copy %+v (%v)", ch, a, err1, b, err2)
		}
		pa, _ := src.Outbox(ch)
		pb, _ := dst.Outbox(ch)
		if !samePosts(pa, pb) {
			t.Fatalf("%s's outbox: file %+v, copy %+v", ch, pa, pb)
		}
	}
	pa, _ := src.Outbox("dm:u1")
	pb, _ := dst.Outbox("dm:u1")
	if !samePosts(pa, pb) {
		t.Fatalf("a DM queue: file %+v, copy %+v", pa, pb)
	}
	da, _ := src.Due(base.Add(time.Hour), 1000)
	db, _ := dst.Due(base.Add(time.Hour), 1000)
	if !reflect.DeepEqual(da, db) {
		t.Fatalf("deadlines: file %v, copy %v", da, db)
	}
	for p := range 5 {
		ta, _ := src.Threads(fmt.Sprint("p", p))
		tb, _ := dst.Threads(fmt.Sprint("p", p))
		if !reflect.DeepEqual(ta, tb) {
			t.Fatalf("threads of p%d: file %v, copy %v", p, ta, tb)
		}
	}
	ga, _ := src.Guilds()
	if gb, _ := dst.Guilds(); !reflect.DeepEqual(ga, gb) {
		t.Fatalf("guilds: file %v, copy %v", ga, gb)
	}
	for _, g := range ga {
		aa, _ := src.Archived(g)
		ab, _ := dst.Archived(g)
		if !reflect.DeepEqual(aa, ab) {
			t.Fatalf("archive of %s: file %+v, copy %+v", g, aa, ab)
		}
		for _, e := range aa {
			ra, err1 := src.ArchivedGame(e.Key)
			rb, err2 := dst.ArchivedGame(e.Key)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(ra, rb) {
				t.Fatalf("archived %q: %v %v", e.Key, err1, err2)
			}
		}
		sa, _ := src.Stats(g, "u1")
		sb, _ := dst.Stats(g, "u1")
		if !reflect.DeepEqual(sa, sb) {
			t.Fatalf("stats of %s differ", g)
		}
	}
	for _, g := range ga {
		sa, err1 := src.Settings(g)
		sb, err2 := dst.Settings(g)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(sa, sb) {
			t.Fatalf("settings of %s: file %+v (%v), copy %+v (%v)", g, sa, err1, sb, err2)
		}
	}
	ka, _ := src.ReplayKey()
	if kb, _ := dst.ReplayKey(); string(ka) != string(kb) {
		t.Fatal("the replay key was not copied: replay links would break")
	}
	ra, _ := src.RematchOf("old")
	if rb, _ := dst.RematchOf("old"); ra != rb {
		t.Fatalf("the rematch index: file %q, copy %q", ra, rb)
	}
}

// samePosts: the same entries, nonces and order (the sequences are the
// database's own).
func samePosts(a, b []OutboxEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Seq, y.Seq = 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func TestCopyFileToPostgres(t *testing.T) {
	src := openAt(t, filepath.Join(t.TempDir(), "conductor.db"))
	fillForCopy(t, src, 3*copyBatch+17)
	dst, dsn := openPG(t)
	var stages []string
	if err := src.CopyTo(dst, func(stage string, done, total int) {
		if done == total {
			stages = append(stages, fmt.Sprint(stage, " ", total))
		}
	}); err != nil {
		t.Fatal(err)
	}
	sameStores(t, src, dst)
	if r, _ := dst.RematchOf("old"); r != "c003" {
		t.Fatalf("the rematch index of the copy names %q", r)
	}
	if st, err := dst.CopyState(); err != nil || st == nil || !st.Finished.IsZero() || !strings.HasSuffix(st.Source, "conductor.db") {
		t.Fatalf("the copy's mark before it is checked: %+v %v", st, err)
	}
	if want := "live games 600"; len(stages) != 4 || !strings.HasPrefix(stages[0], "live games") || stages[3] != "servers' settings 1" {
		t.Fatalf("progress %q (want %s, archived games, outbox posts, servers' settings 1)", stages, want)
	}
	// The copy plays on: a move on the copy commits with its posts.
	if _, err := dst.AppendActionWithPosts("c001", LogEntry{Action: "after the copy", Interaction: "new"},
		[]OutboxEntry{{Payload: json.RawMessage(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := dst.FinishCopy(); err != nil {
		t.Fatal(err)
	}
	// A finished copy is never overwritten: the bot may have played on it.
	if err := src.CopyTo(openAt(t, dsn), nil); err == nil || !strings.Contains(err.Error(), "already holds a complete copy") {
		t.Fatalf("copying again into a finished copy: %v", err)
	}
}

// An interrupted copy, run again, finishes; so does one whose file changed
// in between, or whose target was damaged: the copy ends equal to the file.
func TestCopyResumes(t *testing.T) {
	src := openAt(t, filepath.Join(t.TempDir(), "conductor.db"))
	fillForCopy(t, src, 3*copyBatch+5)
	dst, _ := openPG(t)
	stop := errors.New("the machine stopped")
	batches := 0
	copyInterrupt = func() error {
		if batches++; batches == 2 {
			return stop
		}
		return nil
	}
	err := src.CopyTo(dst, nil)
	copyInterrupt = nil
	if !errors.Is(err, stop) {
		t.Fatalf("interrupted copy: %v", err)
	}
	if c, _ := dst.Counts(); c.Games != 2*copyBatch || c.Archived != 0 {
		t.Fatalf("after two batches the copy holds %+v", c)
	}
	// Meanwhile the file changed, and so did the copy.
	if _, err := src.AppendAction("c001", LogEntry{Action: "late move", Interaction: "late"}); err != nil {
		t.Fatal(err)
	}
	if err := src.Delete("c002"); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Archive("c004", ArchiveResult{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := src.ForgetGuild("g3"); err != nil {
		t.Fatal(err)
	}
	pgExec(t, dst, "UPDATE game_logs SET data = '\\x01'::bytea WHERE channel = 'c010'")
	pgExec(t, dst, "DELETE FROM game_snapshots WHERE channel = 'c013'")
	if err := src.CopyTo(dst, nil); err != nil {
		t.Fatal(err)
	}
	sameStores(t, src, dst)
}

// The copy goes into an empty database or its own unfinished copy only.
func TestCopyRefusesAnotherDatabase(t *testing.T) {
	src := openAt(t, filepath.Join(t.TempDir(), "a.db"))
	fillForCopy(t, src, 3)
	dst, _ := openPG(t)
	mustPut(t, dst, sampleGame("c9", "g9", 1))
	if err := src.CopyTo(dst, nil); err == nil || !strings.Contains(err.Error(), "copy into an empty database") {
		t.Fatalf("copying into a database in use: %v", err)
	}
	if _, err := dst.Get("c9"); err != nil {
		t.Fatalf("the refused copy touched the database: %v", err)
	}
	empty, _ := openPG(t)
	if err := src.CopyTo(empty, nil); err != nil {
		t.Fatal(err)
	}
	other := openAt(t, filepath.Join(t.TempDir(), "b.db"))
	if err := other.CopyTo(empty, nil); err == nil || !strings.Contains(err.Error(), "unfinished copy of another file") {
		t.Fatalf("a second file into an unfinished copy: %v", err)
	}
	if err := empty.CopyTo(src, nil); err == nil {
		t.Fatal("copying PostgreSQL into a file was accepted")
	}
}
