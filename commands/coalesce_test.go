package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"conductor/data"
	"conductor/store"
)

// downPoster is a fakePoster behind a Discord that can be down.
type downPoster struct {
	*fakePoster
	down atomic.Bool
}

var errDiscordDown = errors.New("502 Bad Gateway")

func (p *downPoster) Post(ctx context.Context, ch string, m Message) (string, error) {
	if p.down.Load() {
		return "", errDiscordDown
	}
	return p.fakePoster.Post(ctx, ch, m)
}

// TestQueuedBoardsGoOutAsOneKeepingTheNarration: three turns are played while Discord is
// down; after the restart the table gets one board, the newest picture and buttons, with the
// narration of all three turns.
func TestQueuedBoardsGoOutAsOneKeepingTheNarration(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	poster := &downPoster{fakePoster: w.poster}
	poster.down.Store(true)
	service := func() *Service {
		return New(Config{Catalog: data.Embedded(), Store: w.store, Renderer: w.renderer, Poster: poster,
			Now: func() time.Time { return w.now }, BotDelay: time.Millisecond})
	}
	w.svc.Close()
	w.svc = service()
	posted := len(w.poster.all("c1"))
	for turn := range 3 {
		g, _ := w.game("c1")
		if g == nil {
			w.svc.Handle(context.Background(), &Request{Type: CommandRequest, ID: "warm", Channel: "c1", Guild: "g1", User: "u1", Name: "hand"}, &Recorder{})
			g, _ = w.game("c1")
		}
		user := fmt.Sprint("u", g.Current()+1)
		for draw := range 2 {
			r := &Recorder{}
			w.svc.Handle(context.Background(), &Request{Type: ComponentRequest, ID: fmt.Sprint("t", turn, "d", draw), Channel: "c1", Guild: "g1",
				User: user, UserName: user, CustomID: fmt.Sprintf("draw:%s:%d:deck", gid, g.Turn())}, r)
			if a := answerOf(t, r); !strings.Contains(a.msg.Content, "You drew") {
				t.Fatalf("turn %d, draw %d: %q", turn, draw, a.msg.Content)
			}
		}
	}
	entries, err := w.store.Outbox("c1")
	if err != nil {
		t.Fatal(err)
	}
	var boards []outboxPayload
	for _, e := range entries {
		var p outboxPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if e.Kind == "board" {
			boards = append(boards, p)
		}
	}
	if len(boards) != 3 {
		t.Fatalf("%d boards queued, want 3", len(boards))
	}

	// Discord is back; the bot restarts and delivers what waited.
	w.svc.Close()
	poster.down.Store(false)
	w.svc = service()
	if err := w.svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.svc.Quiet()
	posts := w.poster.all("c1")[posted:]
	if len(posts) != 1 {
		t.Fatalf("%d posts for three queued boards, want one", len(posts))
	}
	got, newest := posts[0], boards[2]
	// Three turns of draws changed nothing on the map: the merged board
	// goes as words, as each of its boards would have (pictureDue).
	for i, b := range boards {
		if !b.Quiet {
			t.Fatalf("board %d of draws alone is to show a picture", i)
		}
	}
	if len(got.Files) != 0 {
		t.Fatal("the merged board of draws alone has a picture")
	}
	want := *boards[0].Board.Narration + *boards[1].Board.Narration + newest.Content
	if got.Content != want {
		t.Errorf("merged text:\n%s\nwant:\n%s", got.Content, want)
	}
	for i, b := range boards {
		if *b.Board.Narration == "" || !strings.Contains(got.Content, *b.Board.Narration) {
			t.Errorf("the narration of board %d is missing: %q", i, *b.Board.Narration)
		}
	}
	if fmt.Sprint(got.Components) != fmt.Sprint(newest.Components) || fmt.Sprint(got.Mentions) != fmt.Sprint(newest.Mentions) {
		t.Error("the merged board does not carry the newest board's buttons and mention")
	}
	if n, _, _ := w.store.OutboxDepth(); n != 0 {
		t.Errorf("%d entries left in the outbox", n)
	}
}

// boardFixture is a queued board entry with this narration and trailer.
func boardFixture(seq uint64, narration, trailer string) store.OutboxEntry {
	p := outboxPayload{Message: Message{Content: narration + trailer}, Board: &boardAt{Moves: int(seq), Narration: &narration}}
	b, _ := json.Marshal(p)
	return store.OutboxEntry{Seq: seq, Kind: "board", Payload: b}
}

func TestBoardRunStopsWhereTheChannelMustReadInOrder(t *testing.T) {
	t.Parallel()
	dm := store.OutboxEntry{Seq: 9, Kind: "dm", Payload: []byte(`{"DM":"u2"}`)}
	plain := store.OutboxEntry{Seq: 10, Kind: "", Payload: []byte(`{"Content":"Bob undid the move"}`)}
	long := strings.Repeat("x", boardLimit-100) + "\n"
	old, _ := json.Marshal(outboxPayload{Message: Message{Content: "before narration was kept"}, Board: &boardAt{Moves: 1}})
	for _, tc := range []struct {
		name    string
		entries []store.OutboxEntry
		want    []uint64
	}{
		{"boards and the turn DMs between them", []store.OutboxEntry{boardFixture(1, "a\n", "next: bob"), dm, boardFixture(2, "b\n", "next: ann"), boardFixture(3, "c\n", "next: bob")}, []uint64{1, 2, 3}},
		{"a post of the channel ends the run", []store.OutboxEntry{boardFixture(1, "a\n", "t"), plain, boardFixture(2, "b\n", "t")}, []uint64{1}},
		{"the text would pass the limit", []store.OutboxEntry{boardFixture(1, long, "t"), boardFixture(2, "b\n", strings.Repeat("y", 200))}, []uint64{1}},
		{"a board queued before narration was kept goes alone", []store.OutboxEntry{{Seq: 1, Kind: "board", Payload: old}, boardFixture(2, "b\n", "t")}, []uint64{1}},
		{"not a board", []store.OutboxEntry{plain, boardFixture(2, "b\n", "t")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []uint64
			for _, q := range boardRun(tc.entries) {
				got = append(got, q.e.Seq)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("run %v, want %v", got, tc.want)
			}
		})
	}
}

// A board's mark (Message.IsBoard) survives the outbox, beside the payload's own Board (its
// position): a field named alike would be dropped by encoding/json.
func TestBoardMarkSurvivesTheOutbox(t *testing.T) {
	raw, err := json.Marshal(outboxPayload{Message: Message{Content: "x", IsBoard: true}, Board: &boardAt{Moves: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var p outboxPayload
	if err := json.Unmarshal(raw, &p); err != nil || !p.IsBoard || p.Board == nil || p.Board.Moves != 3 {
		t.Fatalf("%s read back as IsBoard %v, Board %+v (%v)", raw, p.IsBoard, p.Board, err)
	}
}
