package store

import (
	"encoding/json"
	"errors"
	"testing"
)

// A lobby and the posts that show it are stored together; Lobbies lists a
// guild's forming tables only.
func TestLobbyIsStoredWithItsPosts(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, path := openTemp(t)
		lobby := &GameRecord{Channel: "thread1", Guild: "g1", Map: "usa", Host: "u1", Seats: []Seat{{UserID: "u1", Name: "Ada"}}}
		err := s.PutWithPosts(lobby,
			OutboxEntry{Kind: "lobby", Queue: "parent1", Payload: json.RawMessage(`{"content":"lobby"}`)},
			OutboxEntry{Payload: json.RawMessage(`{"content":"welcome"}`)})
		if err != nil {
			t.Fatal(err)
		}
		mustPut(t, s, sampleGame("c9", "g1", 2)) // playing: not a lobby
		mustPut(t, s, &GameRecord{Channel: "c8", Guild: "g2", Map: "usa"})
		s.Close()
		s = openAt(t, path)
		if got, _ := s.Outbox("parent1"); len(got) != 1 || got[0].Kind != "lobby" {
			t.Fatalf("the lobby post is not queued for the parent channel: %+v", got)
		}
		if got, _ := s.Outbox("thread1"); len(got) != 1 || string(got[0].Payload) != `{"content":"welcome"}` {
			t.Fatalf("the welcome is not queued for the thread: %+v", got)
		}
		lobbies, err := s.Lobbies("g1")
		if err != nil || len(lobbies) != 1 || lobbies[0].Channel != "thread1" || lobbies[0].ID == "" {
			t.Fatalf("lobbies of g1: %+v %v", lobbies, err)
		}
	})
}

// A finished game gets one rematch, ever: the mark is kept with the
// archived game, so a later try is refused even after the rematch's own
// table was thrown away.
func TestOneRematchPerArchivedGame(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 3))
		entry, err := s.Archive("c1", ArchiveResult{})
		if err != nil {
			t.Fatal(err)
		}
		first := &GameRecord{Channel: "c2", Guild: "g1", Map: "europe"}
		if err := s.PutRematch(entry.Key, first, OutboxEntry{Payload: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		old, err := s.ArchivedGame(entry.Key)
		if err != nil || RematchMark(old) != first.ID {
			t.Fatalf("the archived game does not name its rematch: %v %v", old.Options, err)
		}
		if err := s.Delete("c2"); err != nil {
			t.Fatal(err)
		}
		again := &GameRecord{Channel: "c3", Guild: "g1", Map: "europe"}
		if err := s.PutRematch(entry.Key, again); !errors.Is(err, ErrRematched) {
			t.Fatalf("a second rematch: %v", err)
		}
		if _, err := s.Get("c3"); !errors.Is(err, ErrNotFound) {
			t.Fatal("a refused rematch stored its table")
		}
		if err := s.PutRematch("no such key", again); !errors.Is(err, ErrNotFound) {
			t.Fatalf("the rematch of an unknown game: %v", err)
		}
	})
}

// Nonces are unique across databases: two files at the same sequence
// (two shards, or a database recreated) hand out different nonces, and a
// reopened file new ones, while queued entries keep theirs.
func TestNoncesDifferAcrossDatabasesAndOpenings(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		a, path := openTemp(t)
		b, _ := openTemp(t)
		post := OutboxEntry{Payload: json.RawMessage(`{}`)}
		for _, s := range []*Store{a, b} {
			if err := s.Enqueue("c1", post); err != nil {
				t.Fatal(err)
			}
		}
		na, _ := a.Outbox("c1")
		nb, _ := b.Outbox("c1")
		if na[0].Seq != nb[0].Seq || na[0].Nonce == nb[0].Nonce {
			t.Fatalf("sequence %d/%d, nonces %q and %q", na[0].Seq, nb[0].Seq, na[0].Nonce, nb[0].Nonce)
		}
		if n := len(na[0].Nonce); n > 25 {
			t.Fatalf("nonce %q is longer than Discord's 25 characters", na[0].Nonce)
		}
		a.Close()
		a = openAt(t, path)
		if kept, _ := a.Outbox("c1"); kept[0].Nonce != na[0].Nonce {
			t.Fatal("a queued entry changed its nonce on reopening")
		}
		if err := a.Enqueue("c1", post); err != nil {
			t.Fatal(err)
		}
		got, _ := a.Outbox("c1")
		if got[1].Nonce[:noncePrefixLen] == got[0].Nonce[:noncePrefixLen] {
			t.Fatalf("a reopened database reuses its nonce prefix: %q, %q", got[0].Nonce, got[1].Nonce)
		}
	})
}

// The health check can leave out the queues of channels that refuse posts.
func TestOutboxDepthExcept(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		if err := s.Enqueue("c1", OutboxEntry{Payload: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if err := s.Enqueue("c2", OutboxEntry{Payload: json.RawMessage(`{}`)}, OutboxEntry{Payload: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if n, _, _ := s.OutboxDepthExcept(func(q string) bool { return q == "c2" }); n != 1 {
			t.Fatalf("%d waiting without c2, want 1", n)
		}
		if n, _, _ := s.OutboxDepth(); n != 3 {
			t.Fatalf("%d waiting, want 3", n)
		}
	})
}
