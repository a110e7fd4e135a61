package commands

import (
	"context"
	"testing"
)

// A process that does not own a game's table reads it as a mirror: View
// shows it, Refresh follows the owner's moves (the version goes on), and
// nothing is loaded into its table cache or written: what the owner
// parked stays parked.
func TestAnotherProcessReadsATableAsAMirror(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.configure(func(c *Config) { c.Owns = func(guild string) bool { return guild == "g1" } })
	gid := startedGame(t, w, nil)
	other := New(Config{Catalog: w.svc.cfg.Catalog, Store: w.store, Renderer: w.renderer, Poster: w.poster,
		Now: w.svc.cfg.Now, Owns: func(string) bool { return false }})
	defer other.Close()
	if !w.svc.Owns("g1") || other.Owns("g1") {
		t.Fatal("Owns does not say what Config.Owns says")
	}

	parked := []byte(`{"BoardShown":"2026-11-22T12:00:00Z"}`)
	if err := w.store.Park("c1", parked); err != nil {
		t.Fatal(err)
	}
	v, err := other.View("c1", "u1", "en")
	if err != nil || v.Game != gid || v.Seat != 0 || v.Private == nil {
		t.Fatalf("the mirror's view: %+v, %v", v, err)
	}
	if n := other.tables.len(); n != 0 {
		t.Fatalf("the other process loaded %d tables to read one", n)
	}
	if l, err := w.store.Load("c1"); err != nil || string(l.Parked) != string(parked) {
		t.Fatalf("reading the mirror changed what was parked: %q, %v", l.Parked, err)
	}

	// The owner plays (a page move, two draws); the mirror follows once
	// told, its version after the last one.
	before := v.Version
	for _, id := range []string{"m1", "m2"} {
		w.svc.Move(context.Background(), PageMove{ID: id, Guild: "g1", Channel: "c1", User: "u1", UserName: "name-u1", Press: "draw:" + gid + ":0:deck"})
	}
	w.svc.Quiet()
	if v, _ := other.View("c1", "", "en"); v.Version != before {
		t.Fatalf("the mirror moved before it was told: %d → %d", before, v.Version)
	}
	other.Refresh("c1", false)
	v, err = other.View("c1", "", "en")
	if err != nil || v.Version <= before || v.Public == nil || v.Public.Current != 1 {
		t.Fatalf("after Refresh: %+v, %v", v, err)
	}
	if n := other.tables.len(); n != 0 {
		t.Fatalf("the other process loaded %d tables", n)
	}
}
