package commands

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"conductor/data"
	"conductor/store"
)

// shardFleet serves some shards of two, without leases.
type shardFleet struct{ shards []int }

func (f shardFleet) Owned() *store.Owned       { return &store.Owned{Count: 2, Shards: f.shards} }
func (f shardFleet) Fence(string) *store.Fence { return nil }

// guildOfShard is a server of the shard, of two: (id >> 22) % 2.
var guildOfShard = map[int]string{0: "8388608", 1: "4194304"}

// postLog records the posts of several processes' senders, in order.
type postLog struct {
	mu   sync.Mutex
	sent []string
}

// processPoster is one process's Discord: its posts go to the log under its name.
type processPoster struct {
	name string
	log  *postLog
}

func (p processPoster) Post(_ context.Context, _ string, m Message) (string, error) {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	p.log.sent = append(p.log.sent, p.name+":"+m.Content)
	return "m", nil
}

func (processPoster) DM(context.Context, string, Message) error { return nil }

// Two processes of a fleet on one database, serving shard 0 and shard 1:
// a member's DM queue holds posts of tables of both servers, and goes out
// in order, each post by its server's process, each once: a process stops
// at a post of the other's server, and the other carries on at its sweep.
func TestFleetDeliversAQueueOfTwoServersInOrder(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "s.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := &postLog{}
	newProc := func(name string, shard int) *sender {
		ctx, cancel := context.WithCancel(context.Background())
		s := newSender(ctx, shardFleet{[]int{shard}}, st, processPoster{name, log}, sharedRenderer, data.Embedded(), &notes{}, clock{time.Now, time.After}, slog.New(slog.DiscardHandler))
		t.Cleanup(func() { cancel(); s.close() })
		return s
	}
	a, b := newProc("a", 0), newProc("b", 1)
	// The DM queue u1: a post of shard 0's server, one of shard 1's, one of shard 0's.
	for i, shard := range []int{0, 1, 0} {
		e := outboxEntry(postMessage, Message{Content: string(rune('1' + i))})
		e.Queue, e.Guild = "u1", guildOfShard[shard]
		if err := st.Enqueue("table", e); err != nil {
			t.Fatal(err)
		}
	}
	sweep := func() {
		for i, s := range []*sender{a, b} {
			if err := s.deliverAll(context.Background(), &store.Owned{Count: 2, Shards: []int{i}}); err != nil {
				t.Fatal(err)
			}
			s.quiet()
		}
	}
	for range 3 {
		sweep()
	}
	want := []string{"a:1", "b:2", "a:3"}
	sent := log.sent
	if len(sent) != len(want) {
		t.Fatalf("sent %q, want %q", sent, want)
	}
	for i := range want {
		if sent[i] != want[i] {
			t.Fatalf("sent %q, want %q", sent, want)
		}
	}
	if left, _ := st.Outbox("u1"); len(left) != 0 {
		t.Fatalf("%d posts left", len(left))
	}
}
