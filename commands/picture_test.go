package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/testkit"
	"conductor/internal/testkit/recorded"
	"conductor/present"
	"conductor/store"
)

// roundTrip is a picture as the sender reads it back from the outbox.
func roundTrip(t *testing.T, p *picture) *picture {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back picture
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatalf("a picture does not read back: %v\n%s", err, raw)
	}
	return &back
}

// A picture kept in the outbox is its scene: read back, every board of
// every recorded game (and a final score sheet) draws what the table saw,
// an empty face-up slot included.
func TestPicturesKeepTheirScenes(t *testing.T) {
	t.Parallel()
	cat := testkit.Catalog()
	drawn := func(p *picture) (*imaging.Scene, *imaging.FinalScene) {
		sk := &sketch{}
		if _, err := p.draw(sk, cat); err != nil {
			t.Fatal(err)
		}
		if boards := sk.Boards(); len(boards) == 1 {
			return &boards[0], nil
		}
		return nil, &sk.Finals()[0]
	}
	for _, rg := range recorded.All(t) {
		var scenes []*imaging.Scene
		rec := recordOf(rg, "c1")
		players := seatPlayers(rec)
		g, err := rg.Replay(cat, func(g *engine.Game, _ engine.Move, _ []engine.Event) {
			if len(scenes) < 12 || g.Phase() == engine.PhaseOver {
				v := g.Public()
				scenes = append(scenes, present.BoardScene("de", &v, players, "Ada claimed Berlin – Wien"))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		empty := *scenes[len(scenes)-1]
		empty.FaceUp = append([]engine.Card{engine.NoCard}, empty.FaceUp[1:]...)
		for i, sc := range append(scenes, &empty) {
			got, _ := drawn(roundTrip(t, boardPicture(sc, "alt")))
			if !reflect.DeepEqual(got, sc) {
				t.Fatalf("%s, board %d: drawn\n%+v\nwant\n%+v", rg.Name, i, got, sc)
			}
		}
		v := g.Public()
		fs := present.FinalScene("fr", &v, g.Final(), players, false)
		if _, got := drawn(roundTrip(t, sheetPicture(fs, "alt"))); !reflect.DeepEqual(got, fs) {
			t.Fatalf("%s: the final sheet drawn differs", rg.Name)
		}
	}
}

// A board is drawn as it stood when its move was played, from the scene
// its entry holds: queued while Discord was down and sent after the game
// was over (its record archived), it still has its picture, the position
// of its move and no other.
func TestABoardIsDrawnAsItsMoveLeftIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	down := &downPoster{fakePoster: w.poster}
	down.down.Store(true)
	w.setPoster(down)
	click := func(id string) answer {
		return w.handle(&Request{Type: ComponentRequest, User: "u1", CustomID: id})
	}
	// A round with a claim: the board that ends it has a picture.
	claimed := false
	for seat, u := range []string{"u1", "u2"} {
		g, _ := w.game("c1")
		if c := claimFor(g, seat); c != nil && !claimed {
			a := w.handle(&Request{Type: CommandRequest, User: u, Name: "claim", Options: claimOpts(g, c)})
			if id := findButton(a.msg, "confirm:"); id != "" && strings.HasSuffix(id, ":yes") {
				w.handle(&Request{Type: ComponentRequest, User: u, CustomID: id})
			}
			claimed = true
			continue
		}
		for range 2 {
			w.handle(&Request{Type: ComponentRequest, User: u, CustomID: fmt.Sprintf("draw:%s:%d:deck", gid, seat)})
		}
	}
	g, _ := w.game("c1")
	if !claimed || g.Turn() != 2 {
		t.Fatalf("the first round: claimed %v, turn %d", claimed, g.Turn())
	}
	tb, _ := w.svc.tables.get("c1")
	want := tb.scene(tb.locale())
	tb.unlock()
	if a := click(fmt.Sprintf("end:%s:%d:score", gid, len(g.Log()))); a.kind != "update" {
		t.Fatalf("the host ends the game: %s %+v", a.kind, a.msg)
	}
	if _, err := w.store.Get("c1"); err == nil {
		t.Fatal("the game is still live")
	}

	// Discord is back: the next start delivers what waited.
	w.svc.Close()
	down.down.Store(false)
	sk := &sketch{}
	w.renderer = sk
	w.svc = w.service()
	posted := len(w.poster.all("c1"))
	if err := w.svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.svc.Quiet()
	posts := w.poster.all("c1")[posted:]
	if len(posts) == 0 || len(posts[0].Files) != 1 || posts[0].Files[0].Name != "board.png" {
		t.Fatalf("the board queued before the end is posted without its picture: %+v", posts)
	}
	boards := sk.Boards()
	if len(boards) != 1 {
		t.Fatalf("%d boards drawn, want the one queued", len(boards))
	}
	got := boards[0]
	want.Board = got.Board
	if !reflect.DeepEqual(&got, want) {
		t.Fatalf("the board drawn is not the one its move left:\n%+v\nwant\n%+v", got, want)
	}
	if n := len(sk.Finals()); n != 1 {
		t.Fatalf("%d final sheets drawn, want 1", n)
	}
}

// A board queued by an earlier release named its position (the moves it
// followed), not its scene: after an upgrade it is still delivered, drawn
// from the stored game replayed to that position. testdata/schema1.db
// holds such a board, waiting.
func TestBoardsQueuedBeforeScenesAreDrawn(t *testing.T) {
	t.Parallel()
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
	t.Cleanup(func() { st.Close() })
	const ch = "1300000000003000009"
	queued, err := st.Outbox(ch)
	if err != nil || len(queued) != 2 {
		t.Fatalf("the fixture's outbox of %s: %d entries, %v", ch, len(queued), err)
	}
	var old outboxPayload
	if err := json.Unmarshal(queued[0].Payload, &old); err != nil || old.Board == nil || old.Picture != nil {
		t.Fatalf("the fixture's board is not an old one: %s", queued[0].Payload)
	}
	rec, err := st.Get(ch)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rebuild(data.Embedded(), slog.Default(), rec, nil, old.Board.Moves)
	if err != nil {
		t.Fatal(err)
	}
	want := boardScene(old.Board.Locale, rec, b.game, &b.told)

	sk := &sketch{}
	w := &world{t: t, poster: newFakePoster(), renderer: sk, store: st, now: time.Date(2026, 3, 14, 18, 0, 0, 0, time.UTC), path: path}
	w.svc = w.service()
	t.Cleanup(w.svc.Close)
	if err := w.svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.svc.Quiet()
	posts := w.poster.all(ch)
	if len(posts) != 2 || len(posts[0].Files) != 1 || posts[0].Files[0].Name != "board.png" || posts[0].Content != old.Content {
		t.Fatalf("the old board is not delivered with its picture: %+v", posts)
	}
	drawn := sk.Boards()
	if len(drawn) != 1 || !reflect.DeepEqual(&drawn[0], want) {
		t.Fatalf("the old board is drawn as %+v, want the game after its %d moves", drawn, old.Board.Moves)
	}
	if left, _ := st.Outbox(ch); len(left) != 0 {
		t.Fatalf("%d entries left", len(left))
	}
}
