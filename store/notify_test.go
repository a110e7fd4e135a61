package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// next waits for a subscription's next change, failing after a while.
func next(t *testing.T, sub *Subscription) Change {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := sub.Next(ctx)
	if err != nil {
		t.Fatalf("waiting for a change: %v", err)
	}
	return c
}

// nothing checks that no change is waiting.
func nothing(t *testing.T, sub *Subscription) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if c, err := sub.Next(ctx); err == nil {
		t.Fatalf("unexpected change %+v", c)
	}
}

// A change committed by another process reaches the subscribers, once the
// transaction commits; a refused move tells nothing; changes not yet taken
// are delivered once.
func TestChangesReachSubscribers(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		a, path := openTemp(t)
		b := secondProcess(t, a, path)
		sub, err := a.Subscribe()
		if err != nil {
			t.Fatal(err)
		}
		mustPut(t, b, sampleGame("c1", "g1", 1))
		if c := next(t, sub); c.Channel != "c1" || c.Missed {
			t.Fatalf("after a Put: %+v", c)
		}
		for i := range 3 {
			if _, err := b.AppendActionWithPosts("c1", LogEntry{Action: "m", Interaction: string(rune('a' + i))},
				[]OutboxEntry{{Payload: json.RawMessage(`{}`)}}); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(100 * time.Millisecond)
		if c := next(t, sub); c.Channel != "c1" {
			t.Fatalf("after three moves: %+v", c)
		}
		nothing(t, sub) // the three were one change not yet taken
		// A refused move and a deadline alone tell nothing.
		if _, err := b.AppendAction("c1", LogEntry{Action: "again", Interaction: "a"}); !errors.Is(err, ErrDuplicate) {
			t.Fatal(err)
		}
		if err := b.SetDue("c1", &Deadline{At: base, Kind: "turn"}); err != nil {
			t.Fatal(err)
		}
		if err := b.Notify("marker"); err != nil {
			t.Fatal(err)
		}
		if c := next(t, sub); c.Channel != "marker" {
			t.Fatalf("the next change after a refused move is %+v, want the marker", c)
		}
		if _, err := b.Archive("c1", ArchiveResult{}); err != nil {
			t.Fatal(err)
		}
		if c := next(t, sub); c.Channel != "c1" {
			t.Fatalf("after Archive: %+v", c)
		}
		other, err := a.Subscribe()
		if err != nil {
			t.Fatal(err)
		}
		sub.Close()
		if _, err := sub.Next(context.Background()); !errors.Is(err, ErrClosed) {
			t.Fatalf("Next after Close: %v", err)
		}
		mustPut(t, b, sampleGame("c2", "g1", 1))
		if c := next(t, other); c.Channel != "c2" {
			t.Fatalf("the other subscription: %+v", c)
		}
		a.Close()
		if _, err := other.Next(context.Background()); !errors.Is(err, ErrClosed) {
			t.Fatalf("Next after the store closed: %v", err)
		}
	})
}

// A subscriber that falls far behind is told it missed changes, then
// hears the next ones.
func TestSubscriberThatLagsIsToldItMissed(t *testing.T) {
	h := newHub()
	sub := &Subscription{hub: h, pending: map[string]bool{}, ready: make(chan struct{}, 1)}
	h.add(sub)
	for i := range maxPending + 1 { // the last one overflows
		h.publish(string(rune(i)))
	}
	if c := next(t, sub); !c.Missed {
		t.Fatalf("a lagging subscriber got %+v, want Missed", c)
	}
	nothing(t, sub)
	h.publish("after")
	if c := next(t, sub); c.Channel != "after" {
		t.Fatalf("after catching up: %+v", c)
	}
}

// When its listening connection is lost, a PostgreSQL store listens again
// and tells its subscribers that changes may have been missed meanwhile.
func TestPostgresListenerReconnects(t *testing.T) {
	a, dsn := openPG(t)
	b := openAt(t, dsn)
	sub, err := a.Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := pgPool(t, b).QueryRow(context.Background(),
		"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()").Scan(&n); err != nil || n != 1 {
		t.Fatalf("ending the listener's connection: %d, %v", n, err)
	}
	if c := next(t, sub); !c.Missed {
		t.Fatalf("after the connection was lost: %+v, want Missed", c)
	}
	mustPut(t, b, sampleGame("c1", "g1", 1))
	if c := next(t, sub); c.Channel != "c1" {
		t.Fatalf("after listening again: %+v", c)
	}
}
