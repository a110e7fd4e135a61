package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestPutGetRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 5)
		mustPut(t, s, rec)
		got := mustGet(t, s, "c1")
		assertSame(t, got, rec)
		if got.Updated.IsZero() || !got.Created.Equal(base) {
			t.Fatalf("Created %v Updated %v: want Created kept and Updated set", got.Created, got.Updated)
		}
	})
}

func TestPutFillsDefaults(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := &GameRecord{Channel: "c1", Guild: "g1", Map: "usa"}
		mustPut(t, s, rec)
		if len(rec.ID) != 16 || rec.Status != StatusLobby || rec.Created.IsZero() || rec.Updated.IsZero() {
			t.Fatalf("defaults not filled: %+v", rec)
		}
		other := &GameRecord{Channel: "c2", Map: "usa"}
		mustPut(t, s, other)
		if other.ID == rec.ID {
			t.Fatalf("two games got the same id %s", rec.ID)
		}
		assertSame(t, mustGet(t, s, "c1"), rec)
	})
}

func TestPutRejectsInvalid(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		bad := map[string]*GameRecord{
			"no channel":   {Guild: "g"},
			"nul in guild": {Channel: "c", Guild: "g\x00h"},
		}
		for name, rec := range bad {
			if err := s.Put(rec); err == nil {
				t.Errorf("%s: Put accepted %+v", name, rec)
			}
		}
		if games, _ := s.List(); len(games) != 0 {
			t.Fatalf("rejected records were stored: %+v", games)
		}
	})
}

func TestPutReplacesGame(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 10))
		short := sampleGame("c1", "g1", 2)
		short.ID = "second"
		mustPut(t, s, short)
		assertSame(t, mustGet(t, s, "c1"), short)
		// The replaced game's interactions are gone with it.
		if _, err := s.AppendAction("c1", LogEntry{Action: "pass", Interaction: "c1-i7"}); err != nil {
			t.Fatalf("interaction of the replaced game still indexed: %v", err)
		}
	})
}

func TestPutRefusesDuplicateInteractionInLog(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 3)
		rec.Log[2].Interaction = rec.Log[0].Interaction
		if err := s.Put(rec); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("Put with a repeated interaction: %v, want ErrDuplicate", err)
		}
		if _, err := s.Get("c1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("refused Put left a game: %v", err)
		}
	})
}

func TestGetAndDeleteMissing(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		if _, err := s.Get("nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get: %v, want ErrNotFound", err)
		}
		if err := s.Delete("nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Delete: %v, want ErrNotFound", err)
		}
		if err := s.Update("nope", func(*GameRecord) error { return nil }); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Update: %v, want ErrNotFound", err)
		}
		if _, err := s.AppendAction("nope", LogEntry{Action: "x"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("AppendAction: %v, want ErrNotFound", err)
		}
	})
}

func TestDelete(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 3))
		mustPut(t, s, sampleGame("c2", "g1", 3))
		if err := s.Delete("c1"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get("c1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("deleted game still there: %v", err)
		}
		mustGet(t, s, "c2")
	})
}

func TestUpdateWritesChanges(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 4)
		mustPut(t, s, rec)
		err := s.Update("c1", func(r *GameRecord) error {
			r.Status = StatusFinished
			r.Messages["board"] = "m-43"
			r.Seats[1].Name = "Bot 2"
			r.Log = append(r.Log[:2], LogEntry{Seat: 1, Action: "draw deck deck", At: base, Interaction: "new"})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got := mustGet(t, s, "c1")
		if got.Status != StatusFinished || got.Messages["board"] != "m-43" || got.Seats[1].Name != "Bot 2" ||
			!got.Updated.After(rec.Updated) {
			t.Fatalf("update not stored: %+v", got)
		}
		if len(got.Log) != 3 || got.Log[1] != rec.Log[1] || got.Log[2].Action != "draw deck deck" {
			t.Fatalf("log after update: %+v", got.Log)
		}
		// Entries cut from the log free their interaction ids; kept ones do not.
		if _, err := s.AppendAction("c1", LogEntry{Action: "redo", Interaction: "c1-i3"}); err != nil {
			t.Fatalf("interaction of a removed entry: %v", err)
		}
		if _, err := s.AppendAction("c1", LogEntry{Action: "again", Interaction: "c1-i1"}); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("interaction of a kept entry: %v, want ErrDuplicate", err)
		}
		if _, err := s.AppendAction("c1", LogEntry{Action: "again", Interaction: "new"}); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("interaction added by Update: %v, want ErrDuplicate", err)
		}
	})
}

func TestUpdateErrorRollsBack(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 4)
		mustPut(t, s, rec)
		before := mustGet(t, s, "c1")

		boom := errors.New("boom")
		err := s.Update("c1", func(r *GameRecord) error {
			r.Status = StatusAbandoned
			r.Options["turn_timer"] = "1h"
			r.Log = append(r.Log, LogEntry{Action: "late", Interaction: "late"})
			r.Log[0].Action = "changed in place"
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v, want fn's error", err)
		}
		assertSame(t, mustGet(t, s, "c1"), before)

		// A failure while writing (a repeated interaction) rolls back too, even
		// after the header was rewritten within the transaction.
		err = s.Update("c1", func(r *GameRecord) error {
			r.Status = StatusFinished
			r.Log = append(r.Log, LogEntry{Action: "again", Interaction: r.Log[0].Interaction})
			return nil
		})
		if !errors.Is(err, ErrDuplicate) {
			t.Fatalf("Update with a repeated interaction: %v, want ErrDuplicate", err)
		}
		assertSame(t, mustGet(t, s, "c1"), before)
		if _, err := s.AppendAction("c1", LogEntry{Action: "late", Interaction: "late"}); err != nil {
			t.Fatalf("interaction of a rolled-back Update is indexed: %v", err)
		}
	})
}

func TestUpdateCannotMoveChannel(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 1))
		err := s.Update("c1", func(r *GameRecord) error { r.Channel = "c2"; return nil })
		if err == nil || !strings.Contains(err.Error(), "cannot move") {
			t.Fatalf("moving channel: %v", err)
		}
		if _, err := s.Get("c2"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("game appeared in c2: %v", err)
		}
	})
}

func TestAppendAction(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 2)
		mustPut(t, s, rec)
		at := base.Add(time.Hour)
		n, err := s.AppendAction("c1", LogEntry{Seat: 1, Action: "tickets keep 0 2", At: at, Interaction: "x1"})
		if err != nil || n != 2 {
			t.Fatalf("AppendAction = %d, %v; want 2, nil", n, err)
		}
		n, err = s.AppendAction("c1", LogEntry{Seat: 0, Action: "draw 3"})
		if err != nil || n != 3 {
			t.Fatalf("AppendAction = %d, %v; want 3, nil", n, err)
		}
		got := mustGet(t, s, "c1")
		if len(got.Log) != 4 || got.Log[2] != (LogEntry{Seat: 1, Action: "tickets keep 0 2", At: at, Interaction: "x1"}) {
			t.Fatalf("log: %+v", got.Log)
		}
		if got.Log[3].At.IsZero() || got.Log[3].Interaction != "" {
			t.Fatalf("entry without time or interaction: %+v", got.Log[3])
		}
		if !got.Updated.After(rec.Updated) {
			t.Fatalf("Updated not advanced: %v then %v", rec.Updated, got.Updated)
		}
		// Entries without an interaction id are never duplicates of each other.
		if _, err := s.AppendAction("c1", LogEntry{Seat: 0, Action: "draw 3"}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAppendActionRefusesDuplicate(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 0))
		mustPut(t, s, sampleGame("c2", "g1", 0))
		if _, err := s.AppendAction("c1", LogEntry{Action: "draw 1", Interaction: "i-1"}); err != nil {
			t.Fatal(err)
		}
		n, err := s.AppendAction("c1", LogEntry{Action: "draw 2", Interaction: "i-1"})
		if !errors.Is(err, ErrDuplicate) {
			t.Fatalf("second use of i-1: %d, %v; want ErrDuplicate", n, err)
		}
		if log := mustGet(t, s, "c1").Log; len(log) != 1 || log[0].Action != "draw 1" {
			t.Fatalf("refused entry changed the log: %+v", log)
		}
		// The index is per game.
		if _, err := s.AppendAction("c2", LogEntry{Action: "draw 1", Interaction: "i-1"}); err != nil {
			t.Fatalf("same id in another game: %v", err)
		}
	})
}

func TestConcurrentAppends(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		const channels, workers, each = 3, 4, 15
		for c := 0; c < channels; c++ {
			mustPut(t, s, sampleGame(fmt.Sprint("c", c), "g1", 0))
		}
		var wg sync.WaitGroup
		var applied atomic.Int32
		// The workers keep in step, a round at a time, as a retry comes
		// within seconds: the log refuses an interaction it holds in its
		// last 32 moves at least (logTail.repeats), not one of long ago.
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				var round sync.WaitGroup
				for w := 0; w < workers; w++ {
					round.Add(1)
					go func() {
						defer round.Done()
						for c := 0; c < channels; c++ {
							ch := fmt.Sprint("c", c)
							if _, err := s.AppendAction(ch, LogEntry{Seat: w, Action: fmt.Sprint("a", w, "-", i), Interaction: fmt.Sprint(w, "-", i)}); err != nil {
								t.Error(err)
							}
							// Every worker also retries one shared interaction: exactly
							// one of them must win per game.
							if _, err := s.AppendAction(ch, LogEntry{Seat: w, Action: "shared", Interaction: fmt.Sprint("shared-", i)}); err == nil {
								applied.Add(1)
							} else if !errors.Is(err, ErrDuplicate) {
								t.Error(err)
							}
						}
					}()
				}
				round.Wait()
			}
		}()
		// Readers run alongside the writers.
		for r := 0; r < 2; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 20; i++ {
					if _, err := s.List(); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		if got := applied.Load(); got != channels*each {
			t.Fatalf("shared interactions applied %d times, want %d", got, channels*each)
		}
		for c := 0; c < channels; c++ {
			log := mustGet(t, s, fmt.Sprint("c", c)).Log
			if len(log) != workers*each+each {
				t.Fatalf("c%d has %d entries, want %d", c, len(log), workers*each+each)
			}
			seen := map[string]bool{}
			for _, e := range log {
				if seen[e.Interaction] {
					t.Fatalf("c%d: interaction %s twice", c, e.Interaction)
				}
				seen[e.Interaction] = true
			}
		}
	})
}

func TestListAndListGuild(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for _, g := range []struct{ channel, guild string }{{"c3", "g2"}, {"c1", "g1"}, {"local:term", ""}, {"c2", "g1"}} {
			mustPut(t, s, sampleGame(g.channel, g.guild, 2))
		}
		all, err := s.List()
		if err != nil {
			t.Fatal(err)
		}
		if got := channelsOf(all); got != "c1 c2 c3 local:term" {
			t.Fatalf("List: %s", got)
		}
		if len(all[0].Log) != 2 {
			t.Fatalf("List records lack their logs: %+v", all[0])
		}
		g1, err := s.ListGuild("g1")
		if err != nil {
			t.Fatal(err)
		}
		if got := channelsOf(g1); got != "c1 c2" {
			t.Fatalf("ListGuild(g1): %s", got)
		}
		if none, _ := s.ListGuild("g9"); len(none) != 0 {
			t.Fatalf("ListGuild(g9): %s", channelsOf(none))
		}
	})
}

func channelsOf(recs []*GameRecord) string {
	var names []string
	for _, r := range recs {
		names = append(names, r.Channel)
	}
	return strings.Join(names, " ")
}

func TestGetReportsLogGap(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 2*chunkLen+3))
		if onPostgres(t) {
			pgExec(t, s, "DELETE FROM game_logs WHERE channel = 'c1' AND chunk = 1")
		} else if err := s.file.db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketLogs).Delete(chunkKey("c1", 1))
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get("c1"); !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("gap at entry %d", chunkLen)) {
			t.Fatalf("Get of a log with a hole: %v", err)
		}
	})
}
