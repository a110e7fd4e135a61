package commands

import (
	"bytes"
	"fmt"
	"image/gif"
	"slices"
	"strings"
	"testing"
	"time"

	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
	"conductor/present"
	"conductor/store"
)

// decodeGIF checks that a file is an animated GIF and returns its frames.
func decodeGIF(t testing.TB, f File) *gif.GIF {
	t.Helper()
	if f.Name != "replay.gif" || f.ContentType != "image/gif" {
		t.Fatalf("file %s (%s), want replay.gif", f.Name, f.ContentType)
	}
	g, err := gif.DecodeAll(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatalf("%s is not a GIF: %v", f.Name, err)
	}
	return g
}

// replayOfAFinishedGame checks a finished game's replay: the final score
// sheet offers it, anyone in the channel gets it privately, one picture per
// turn, until the archive forgets it (it forgets the server's games).
func replayOfAFinishedGame(t *testing.T, w *world) {
	t.Helper()
	posts := w.poster.all("c1")
	last := posts[len(posts)-1]
	id := findButton(last, "replay:")
	if id == "" {
		t.Fatalf("the final score sheet has no replay button: %+v", last.Components)
	}
	entries, err := w.store.Archived("g1")
	if i := slices.IndexFunc(entries, func(e store.ArchiveEntry) bool { return strings.HasPrefix(id, "replay:"+e.GameID+":") }); err != nil || i < 0 {
		t.Fatalf("button %q for the archive %+v (%v)", id, entries, err)
	} else {
		entries = entries[i : i+1]
	}

	a := w.click("watcher", id)
	if a.kind != "reply" || !a.msg.Ephemeral || len(a.msg.Files) != 1 {
		t.Fatalf("replay answer: %s %+v", a.kind, a.msg)
	}
	g := decodeGIF(t, a.msg.Files[0])
	// One picture after the ticket choice and one per turn, the last on the
	// finished board.
	rec, err := w.store.ArchivedGame(entries[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	frames, _, err := w.svc.replays.frames(rec, &entries[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(frames) || len(frames) < 20 {
		t.Fatalf("%d GIF frames, %d turns", len(g.Image), len(frames))
	}
	if want := present.T("", "replay.ready", "n", len(frames)); a.msg.Content != want {
		t.Errorf("text %q, want %q", a.msg.Content, want)
	}
	if len(a.msg.Files[0].Data) > present.ReplayMaxBytes {
		t.Errorf("the replay is %d bytes, over the %d budget", len(a.msg.Files[0].Data), present.ReplayMaxBytes)
	}
	if got := frames[len(frames)-1].Status; got != present.T("", "status.over") {
		t.Errorf("last frame's status %q", got)
	}

	// A second click is served the same GIF, in the clicker's language.
	b := w.do(&Request{Type: ComponentRequest, User: "u1", CustomID: id, Locale: "de"})
	if !bytes.Equal(b.msg.Files[0].Data, a.msg.Files[0].Data) || b.msg.Content != present.T("de", "replay.ready", "n", len(frames)) {
		t.Errorf("second replay differs: %q", b.msg.Content)
	}

	// Another server cannot reach it, and once forgotten it is gone.
	if c := w.do(&Request{Type: ComponentRequest, User: "u1", CustomID: id, Guild: "g2"}); c.msg.Content != present.T("", "replay.gone") || len(c.msg.Files) != 0 {
		t.Errorf("from another server: %+v", c.msg)
	}
	if _, _, err := w.store.ForgetGuild("g1"); err != nil {
		t.Fatal(err)
	}
	if c := w.click("u1", id); c.msg.Content != present.T("", "replay.gone") || !c.msg.Ephemeral || len(c.msg.Files) != 0 {
		t.Errorf("after /ttr forget: %+v", c.msg)
	}
}

// replayRefusesAGameThatNoLongerAddsUp checks that a game whose log no
// longer leads to its recorded scores (the rules or the tickets changed)
// is not replayed wrongly: a copy of the archived game of c1, its scores
// changed.
func replayRefusesAGameThatNoLongerAddsUp(t *testing.T, w *world) {
	t.Helper()
	entries, err := w.store.Archived("g1")
	if err != nil || len(entries) != 1 {
		t.Fatal(entries, err)
	}
	rec, err := w.store.ArchivedGame(entries[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	rec.Channel, rec.ID, rec.Status = "c2", "other", store.StatusPlaying
	if err := w.store.Put(rec); err != nil {
		t.Fatal(err)
	}
	res := store.ArchiveResult{Finished: w.now.Add(time.Hour)}
	for i, p := range entries[0].Players {
		p.Score += i + 1
		res.Players = append(res.Players, p)
	}
	if _, err := w.store.Archive("c2", res); err != nil {
		t.Fatal(err)
	}
	a := w.click("u1", "replay:other:0:")
	if a.msg.Content != present.T("", "replay.changed") || !a.msg.Ephemeral || len(a.msg.Files) != 0 {
		t.Fatalf("replay of a game that no longer adds up: %+v", a.msg)
	}
}

// Every recorded game (each edition and variant, tunnels, ferries,
// stations, passengers, ties) replays from its archive into one picture
// per turn, ending on the finished board.
func TestReplayFramesOfRecordedGames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, g := range recorded.All(t) {
		ch := fmt.Sprint("rec", i)
		rec := &store.GameRecord{Channel: ch, Guild: "g1", Map: g.Board, Variant: g.Variant, Seed: g.Seed,
			Rules: g.Rules, Status: store.StatusPlaying, Created: w.now, Options: map[string]string{"locale": "fr"}}
		if g.BonusTickets {
			rec.Options["bonus_tickets"] = "on"
		}
		res := store.ArchiveResult{Finished: w.now.Add(time.Duration(i) * time.Minute)}
		for s := range g.Players {
			rec.Seats = append(rec.Seats, store.Seat{UserID: fmt.Sprint("u", s+1), Name: fmt.Sprint("Player ", s+1)})
			res.Players = append(res.Players, store.PlayerResult{Name: fmt.Sprint("Player ", s+1), Score: g.Scores[s]["total"]})
		}
		for k, m := range g.Moves {
			rec.Log = append(rec.Log, store.LogEntry{Seat: m.Seat, Action: m.Action, At: w.now, Interaction: fmt.Sprint(ch, "-", k)})
		}
		if err := w.store.Put(rec); err != nil {
			t.Fatal(err)
		}
		entry, err := w.store.Archive(ch, res)
		if err != nil {
			t.Fatal(err)
		}
		frames, _, err := w.svc.replays.frames(rec, entry)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		eg, err := g.Replay(testkit.Catalog(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(frames); n < eg.Turn() || n > eg.Turn()+2 {
			t.Errorf("%s: %d pictures for %d turns", g.Name, n, eg.Turn())
		}
		if first, last := frames[0].Status, frames[len(frames)-1].Status; first == present.T("fr", "status.setup") || last != present.T("fr", "status.over") {
			t.Errorf("%s: pictures from %q to %q", g.Name, first, last)
		}
	}
}
