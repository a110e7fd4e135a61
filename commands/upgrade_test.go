package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"conductor/engine"
	"conductor/internal/testkit/recorded"
	"conductor/store"
)

// testdata/schema1.db was written by the schema 1 store (commit f01a7bf):
// live games in the middle and one move from their end, in threads and in
// channels, a rematch of an archived game, a lobby, an abandoned game in
// the archive, posts waiting. testdata/schema1.json is what that store read
// back from it.
type schema1Golden struct {
	Live     map[string]*store.GameRecord `json:"live"`
	Archived map[string]struct {
		Summary store.ArchiveEntry `json:"summary"`
		Game    store.GameRecord   `json:"game"`
	} `json:"archived"`
	Outbox map[string][]store.OutboxEntry `json:"outbox"`
}

// An old database is upgraded once when opened: nothing is lost, the
// indexes are built, every live game is looked at once and gets the
// deadline it needs, and the recorded games still replay to their scores.
func TestSchema1DatabaseIsUpgradedOnce(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/schema1.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden schema1Golden
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	db, err := os.ReadFile("testdata/schema1.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(path, db, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := st.SchemaVersion(); v != store.CurrentSchema {
		t.Fatalf("schema %d after opening", v)
	}
	// Nothing lost: the live games (each due for a check at once), the
	// archive, the posts waiting.
	for ch, want := range golden.Live {
		got, err := st.Get(ch)
		if err != nil {
			t.Fatal(err)
		}
		if got.Due == nil || got.Due.Kind != dueCheck {
			t.Fatalf("%s: deadline %+v after the upgrade, want a check", ch, got.Due)
		}
		got.Due = nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s changed in the upgrade:\n got  %+v\n want %+v", ch, got, want)
		}
	}
	for key, want := range golden.Archived {
		got, err := st.ArchivedGame(key)
		if err != nil || !reflect.DeepEqual(*got, want.Game) {
			t.Fatalf("archived %q: %v", key, err)
		}
		want.Summary.Key = key
		es, _ := st.Archived(want.Summary.Guild)
		if !slices.ContainsFunc(es, func(e store.ArchiveEntry) bool { return reflect.DeepEqual(e, want.Summary) }) {
			t.Fatalf("archive summary %q lost", key)
		}
	}
	for ch, want := range golden.Outbox {
		got, _ := st.Outbox(ch)
		for i := range got {
			got[i].Seq = 0
		}
		for i := range want { // the JSON file indents the payloads
			var c bytes.Buffer
			json.Compact(&c, want[i].Payload)
			want[i].Payload = c.Bytes()
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("outbox of %s: %+v", ch, got)
		}
	}
	// The indexes are built.
	byParent, byGuild := map[string][]string{}, map[string][]string{}
	rematchOf := map[string]string{}
	for ch, rec := range golden.Live {
		byGuild[rec.Guild] = append(byGuild[rec.Guild], ch)
		if p := rec.Options["parent"]; p != "" {
			byParent[p] = append(byParent[p], ch)
		}
		if id := rec.Options["rematch_of"]; id != "" {
			rematchOf[id] = ch
		}
	}
	for p, want := range byParent {
		ths, _ := st.Threads(p)
		var got []string
		for _, th := range ths {
			got = append(got, th.Channel)
			var members []string
			for _, seat := range golden.Live[th.Channel].Seats {
				if seat.Bot == "" {
					members = append(members, seat.UserID)
				}
			}
			if !reflect.DeepEqual(th.Members, members) {
				t.Errorf("members of %s: %v, want %v", th.Channel, th.Members, members)
			}
		}
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("threads of %s: %v, want %v", p, got, want)
		}
	}
	if len(rematchOf) != 1 {
		t.Fatalf("the fixture has %d rematches", len(rematchOf))
	}
	for id, want := range rematchOf {
		if ch, err := st.RematchOf(id); err != nil || ch != want {
			t.Fatalf("rematch of %s: %q %v", id, ch, err)
		}
	}
	for g, want := range byGuild {
		recs, _ := st.ListGuild(g)
		if len(recs) != len(want) {
			t.Fatalf("ListGuild(%s): %d games, want %d", g, len(recs), len(want))
		}
	}
	if guilds, _ := st.Guilds(); !reflect.DeepEqual(guilds, []string{"g1", "g2"}) {
		t.Fatalf("guilds %v", guilds)
	}

	// The service looks at every game once (their deadlines are due) and
	// gives each the deadline it needs; the recorded games replay.
	w := newWorldOn(t, st, path)
	games := recorded.All(t)
	replayed := 0
	for ch, want := range golden.Live {
		tb, err := w.svc.tables.get(ch)
		if err != nil {
			t.Fatal(err)
		}
		if want.Status == store.StatusPlaying {
			rg := recordedFor(games, want)
			if rg == nil {
				tb.unlock()
				t.Fatalf("%s is no recorded game", ch)
			}
			if len(want.Log) == len(rg.Moves)-1 {
				g := tb.game.Clone()
				last := rg.Moves[len(rg.Moves)-1]
				a, err := engine.ParseAction(g.Board(), last.Action)
				if err == nil {
					err = g.Play(last.Seat, a)
				}
				if err != nil {
					tb.unlock()
					t.Fatalf("%s: the last move of %s: %v", ch, rg.Name, err)
				}
				for _, p := range rg.Compare(g, nil) {
					t.Errorf("%s (%s): %s", ch, rg.Name, p)
				}
				replayed++
			}
		}
		tb.unlock()
	}
	if replayed != 3 {
		t.Fatalf("%d games replayed to their end, want 3", replayed)
	}
	w.svc.CheckTimers()
	for ch, want := range golden.Live {
		got, _ := st.Get(ch)
		switch {
		case want.Status == store.StatusLobby && (got.Due == nil || got.Due.Kind != dueLobby):
			t.Errorf("lobby %s has the deadline %+v, not its expiry", ch, got.Due)
		case want.Status == store.StatusPlaying && (got.Due == nil || (got.Due.Kind != dueTurn && got.Due.Kind != dueBot) || got.Due.Moves != len(got.Log)):
			t.Errorf("%s has the deadline %+v after its check", ch, got.Due)
		}
	}
	// Opened again, the file is not upgraded again.
	w.svc.Close()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	due, _ := st.Due(w.now.AddDate(1, 0, 0), 100)
	for _, d := range due {
		if d.Kind == dueCheck {
			t.Fatalf("%s is due for a check again", d.Channel)
		}
	}
}

// recordedFor finds the recorded game a stored game's log was taken from.
func recordedFor(games []*recorded.Game, rec *store.GameRecord) *recorded.Game {
	for _, g := range games {
		if g.Board != rec.Map || g.Seed != rec.Seed || g.Rules != rec.Rules || len(g.Moves) < len(rec.Log) || g.Players != len(rec.Seats) {
			continue
		}
		same := true
		for i, e := range rec.Log {
			if g.Moves[i].Action != e.Action || g.Moves[i].Seat != e.Seat {
				same = false
				break
			}
		}
		if same {
			return g
		}
	}
	return nil
}

// newWorldOn is a world on an open store, its clock just after the
// fixture's games were played.
func newWorldOn(t *testing.T, st *store.Store, path string) *world {
	w := &world{t: t, poster: newFakePoster(), renderer: &sketch{}, store: st, now: time.Date(2026, 3, 14, 18, 0, 0, 0, time.UTC), path: path}
	w.svc = w.service()
	t.Cleanup(w.svc.Close)
	return w
}
