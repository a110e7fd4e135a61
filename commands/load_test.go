package commands

import (
	"fmt"
	"testing"

	"conductor/engine"
	"conductor/internal/testkit/recorded"
	"conductor/store"
)

// TestStoredGamesLoadAsRecorded: a stored game is rebuilt by replaying its
// log through the engine's replay, the path the recorded games take. Every
// recorded game, stored one move before its end, loads narrated, and its
// last move ends it with the record's scores and ranking.
func TestStoredGamesLoadAsRecorded(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, g := range recorded.All(t) {
		ch := fmt.Sprint("rec", i)
		rec := &store.GameRecord{Channel: ch, Guild: "g1", Map: g.Board, Variant: g.Variant, Seed: g.Seed,
			Rules: g.Rules, Status: store.StatusPlaying, Created: w.now}
		if g.BonusTickets {
			rec.Options = map[string]string{"bonus_tickets": "on"}
		}
		for s := range g.Players {
			rec.Seats = append(rec.Seats, store.Seat{UserID: fmt.Sprint("u", s+1), Name: fmt.Sprint("Player ", s+1)})
		}
		last := g.Moves[len(g.Moves)-1]
		for k, m := range g.Moves[:len(g.Moves)-1] {
			rec.Log = append(rec.Log, store.LogEntry{Seat: m.Seat, Action: m.Action, At: w.now, Interaction: fmt.Sprint(ch, "-", k)})
		}
		if err := w.store.Put(rec); err != nil {
			t.Fatal(err)
		}
		tbl, err := w.svc.tables.get(ch)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		func() {
			defer tbl.mu.Unlock()
			if tbl.game == nil || len(tbl.game.Log()) != len(rec.Log) {
				t.Fatalf("%s: loaded %v", g.Name, tbl.game)
			}
			if len(tbl.told.history) == 0 {
				t.Errorf("%s: loading narrated nothing", g.Name)
			}
			a, err := engine.ParseAction(tbl.game.Board(), last.Action)
			if err == nil {
				err = tbl.game.Play(last.Seat, a)
			}
			if err != nil {
				t.Fatalf("%s: last move %q: %v", g.Name, last.Action, err)
			}
			for _, p := range g.Compare(tbl.game, nil) {
				t.Error(p)
			}
		}()
	}
}
