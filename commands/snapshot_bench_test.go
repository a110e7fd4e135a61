package commands

import (
	"testing"

	"conductor/engine"
)

// BenchmarkLockUnchangedTable: a request that reads a table (its lock
// taken and released, nothing changed), as /hand, /score or a refused
// move do. Releasing the lock publishes the table for autocomplete and
// the live page; a table that did not change need not be copied again.
func BenchmarkLockUnchangedTable(b *testing.B) {
	w := newWorld(b)
	gid := startedGame(b, w, nil)
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	b.ReportAllocs()
	for b.Loop() {
		t, err := w.svc.tables.get("c1")
		if err != nil {
			b.Fatal(err)
		}
		t.unlock()
	}
}

// The snapshot a table publishes for autocomplete and the live page holds
// a copy of its game, made again only when the game moved: a request that
// reads the table (or is refused) reuses the copy; a move makes a new one,
// of the game after it.
func TestSnapshotCopiesTheGameOnlyWhenItMoved(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	snapGame := func() *engine.Game {
		tb, _ := w.svc.tables.loaded("c1")
		return tb.snap.Load().game
	}
	before := snapGame()
	w.cmd("u1", "score", "", nil)
	w.cmd("u2", "hand", "", nil)
	w.click("u2", "draw:"+gid+":0:deck") // not u2's turn: refused
	if snapGame() != before {
		t.Fatal("the game was copied again while nothing moved")
	}
	w.click("u1", "draw:"+gid+":0:deck")
	after := snapGame()
	g, _ := w.game("c1")
	if after == before || len(after.Log()) != len(g.Log()) || after == g {
		t.Fatalf("after a move the snapshot holds %d moves (the table %d), a new copy: %v", len(after.Log()), len(g.Log()), after != before)
	}
}
