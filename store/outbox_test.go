package store

import (
	"encoding/json"
	"errors"
	"testing"
)

// A move and its posts commit together; posts come back in order with
// distinct nonces until delivered, and survive a reopen.
func TestOutboxCommitsWithTheMove(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, path := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 2))
		posts := []OutboxEntry{{Kind: "board", Payload: json.RawMessage(`{"content":"board"}`)}, {Payload: json.RawMessage(`{"content":"mention"}`)}}
		n, err := s.AppendActionWithPosts("c1", LogEntry{Seat: 0, Action: "pass", Interaction: "i9"}, posts)
		if err != nil || n != 2 {
			t.Fatalf("append: %d %v", n, err)
		}
		// A refused move (a repeated interaction) queues nothing.
		if _, err := s.AppendActionWithPosts("c1", LogEntry{Seat: 0, Action: "pass", Interaction: "i9"}, posts); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("duplicate: %v", err)
		}
		s.Close()
		s = openAt(t, path)
		got, err := s.Outbox("c1")
		if err != nil || len(got) != 2 || string(got[0].Payload) != `{"content":"board"}` || got[0].Kind != "board" || got[0].Nonce == got[1].Nonce || got[0].Seq >= got[1].Seq {
			t.Fatalf("outbox after reopen: %+v %v", got, err)
		}
		if chs, _ := s.OutboxChannels(); len(chs) != 1 || chs[0] != "c1" {
			t.Fatalf("channels: %v", chs)
		}
		if n, oldest, _ := s.OutboxDepth(); n != 2 || oldest.IsZero() {
			t.Fatalf("depth %d oldest %v", n, oldest)
		}
		for _, e := range got {
			if err := s.Delivered("c1", e.Seq); err != nil {
				t.Fatal(err)
			}
		}
		if chs, _ := s.OutboxChannels(); len(chs) != 0 {
			t.Fatalf("a delivered channel leaves the outbox: %v", chs)
		}
		if err := s.Enqueue("c2", OutboxEntry{Payload: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Outbox("c2"); len(got) != 1 {
			t.Fatalf("enqueue alone: %+v", got)
		}
	})
}
