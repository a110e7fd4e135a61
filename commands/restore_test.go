package commands

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit/recorded"
	"conductor/store"
)

// recordOf is a recorded game as a live record with no move yet.
func recordOf(g *recorded.Game, ch string) *store.GameRecord {
	rec := &store.GameRecord{Channel: ch, Guild: "g1", ID: "id-" + ch, Map: g.Board, Variant: g.Variant, Seed: g.Seed, Rules: g.Rules,
		Status: store.StatusPlaying, Options: map[string]string{"locale": "en"}}
	if g.BonusTickets {
		rec.Options["bonus_tickets"] = "on"
	}
	for s := range g.Players {
		rec.Seats = append(rec.Seats, store.Seat{UserID: fmt.Sprint("u", s+1), Name: fmt.Sprint("Player ", s+1)})
	}
	return rec
}

// Every recorded game played move by move through the table commits a
// snapshot now and then, so that loading it replays a few dozen moves at
// most; and the table loaded again from its snapshot is the table that
// played (the game field for field, the narration /log shows, the
// narration waiting for the next board).
func TestSnapshotsKeepLoadingShort(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, rg := range recorded.All(t) {
		ch := fmt.Sprint("rec", i)
		if err := w.store.Put(recordOf(rg, ch)); err != nil {
			t.Fatal(err)
		}
		tb, err := w.svc.tables.get(ch)
		if err != nil {
			t.Fatal(err)
		}
		unlocked := false
		defer func() {
			if !unlocked {
				tb.mu.Unlock()
			}
		}()
		longest := 0
		for k, m := range rg.Moves[:len(rg.Moves)-1] {
			a, err := engine.ParseAction(tb.game.Board(), m.Action)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tb.apply(m.Seat, a, nil); err != nil {
				t.Fatalf("%s move %d: %v", rg.Name, k+1, err)
			}
			longest = max(longest, len(tb.rec.Log)-tb.snapMoves)
			if k%23 != 0 {
				continue
			}
			l, err := w.store.Load(ch)
			if err != nil {
				t.Fatal(err)
			}
			if l.Snapshot != nil && l.Snapshot.Moves != tb.snapMoves {
				t.Fatalf("%s: the stored snapshot is after %d moves, the table says %d", rg.Name, l.Snapshot.Moves, tb.snapMoves)
			}
			b, err := rebuild(w.svc.cfg.Catalog, w.svc.log, l.Record, l.Snapshot, len(l.Record.Log))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(b.game, tb.game) {
				t.Fatalf("%s move %d: the game loaded from the snapshot after %d moves differs", rg.Name, k+1, b.snapMoves)
			}
			if !slices.Equal(b.told.turn, tb.told.turn) || !slices.Equal(lastLines(b.told.history), lastLines(tb.told.history)) {
				t.Fatalf("%s move %d: the narration differs:\n%q\n%q\n%q\n%q", rg.Name, k+1, b.told.turn, tb.told.turn, lastLines(b.told.history), lastLines(tb.told.history))
			}
		}
		tb.mu.Unlock()
		unlocked = true
		// A table's narration waits for a board after bots' turns only: the
		// moves replayed stay within a snapshot's spacing and a few turns.
		if longest > snapshotEvery+12 {
			t.Errorf("%s: a load would replay %d moves", rg.Name, longest)
		}
	}
}

func lastLines(h []string) []string {
	if len(h) > snapshotLines {
		return h[len(h)-snapshotLines:]
	}
	return h
}

// A snapshot that cannot be read is ignored: the game is replayed.
func TestUnreadableSnapshotIsReplayed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rg := recorded.All(t)[0]
	rec := recordOf(rg, "c1")
	for _, m := range rg.Moves[:40] {
		rec.Log = append(rec.Log, store.LogEntry{Seat: m.Seat, Action: m.Action, At: w.now})
	}
	if err := w.store.Put(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.store.SaveSnapshot("c1", &store.Snapshot{Moves: 30, Data: []byte{tableSnapshotVersion, 1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	tb, err := w.svc.tables.get("c1")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.mu.Unlock()
	full, err := rebuild(w.svc.cfg.Catalog, w.svc.log, rec, nil, len(rec.Log))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tb.game, full.game) || len(tb.game.Log()) != 40 || tb.snapMoves != 0 {
		t.Fatal("the game loaded past a broken snapshot is not the replayed one")
	}
}
