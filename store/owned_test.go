package store

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"
)

// A fleet's process fires the deadlines and delivers the queues of its
// shards' servers only: a server's shard is (guild_id >> 22) % count,
// records without a server are shard 0's, and a member's DM queue is
// delivered by the process serving its first post's server.
func TestOwnedDeadlinesAndQueues(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		const count = 3
		// Guild ids of each shard of 3, among them one past 2^63.
		guild := func(shard int, big bool) string {
			id := uint64(shard) << 22
			if big {
				id += 3 * 5 << 60 >> 22 << 22 // a multiple of 3 above shard's bits
			}
			return strconv.FormatUint(id, 10)
		}
		big := guild(2, true)
		if ShardOf(big, count) != 2 || ShardOf("", count) != 0 || ShardOf("dm", count) != 0 {
			t.Fatalf("ShardOf: %d %d", ShardOf(big, count), ShardOf("", count))
		}
		base := time.Unix(1_800_000_000, 0)
		games := map[string]string{"a0": guild(0, false), "a1": guild(1, false), "a2": guild(2, false), "b2": big, "dm": ""}
		i := 0
		for ch, g := range games {
			rec := sampleGame(ch, g, 2)
			rec.Due = &Deadline{At: base.Add(time.Duration(i) * time.Second), Kind: "turn"}
			i++
			mustPut(t, s, rec)
		}
		owned := &Owned{Count: count, Shards: []int{0, 2}}
		due, err := s.DueOf(owned, base.Add(time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		var chs []string
		for _, d := range due {
			chs = append(chs, d.Channel)
		}
		slices.Sort(chs)
		if !slices.Equal(chs, []string{"a0", "a2", "b2", "dm"}) {
			t.Fatalf("due of shards 0 and 2: %v", chs)
		}
		if d, ok, err := s.NextDueOf(&Owned{Count: count, Shards: []int{1}}); err != nil || !ok || d.Channel != "a1" {
			t.Fatalf("next due of shard 1: %+v %v %v", d, ok, err)
		}
		if all, _ := s.DueOf(nil, base.Add(time.Hour), 10); len(all) != 5 {
			t.Fatalf("every shard's due: %d", len(all))
		}
		if d, _ := s.DueOf(owned, base.Add(time.Hour), 2); len(d) != 2 {
			t.Fatalf("the limit: %d", len(d))
		}

		// Posts carry their table's server; a DM queue (u1) holds a
		// shard 1 table's post, then a shard 0 table's.
		p := func(queue string) OutboxEntry { return OutboxEntry{Queue: queue, Payload: json.RawMessage(`{}`)} }
		if _, err := s.Commit("a1", MoveCommit{Entry: LogEntry{Action: "pass", Interaction: "m1"}, Posts: []OutboxEntry{p(""), p("u1")}}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetDue("a0", nil, p(""), p("u1")); err != nil {
			t.Fatal(err)
		}
		if err := s.Enqueue("a2", p("")); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Outbox("u1"); len(got) != 2 || got[0].Guild != games["a1"] || got[1].Guild != games["a0"] {
			t.Fatalf("the DM queue's servers: %+v", got)
		}
		queues := func(o *Owned) []string {
			q, err := s.OutboxChannelsOf(o)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(q)
			return q
		}
		if q := queues(&Owned{Count: count, Shards: []int{0}}); !slices.Equal(q, []string{"a0"}) {
			t.Fatalf("shard 0's queues: %v", q)
		}
		if q := queues(&Owned{Count: count, Shards: []int{1}}); !slices.Equal(q, []string{"a1", "u1"}) {
			t.Fatalf("shard 1's queues: %v", q)
		}
		if q := queues(nil); len(q) != 4 {
			t.Fatalf("every queue: %v", q)
		}
		// Once shard 1's DM is delivered, the queue is shard 0's.
		got, _ := s.Outbox("u1")
		if err := s.Delivered("u1", got[0].Seq); err != nil {
			t.Fatal(err)
		}
		if q := queues(&Owned{Count: count, Shards: []int{0}}); !slices.Equal(q, []string{"a0", "u1"}) {
			t.Fatalf("shard 0's queues after the DM: %v", q)
		}
	})
}

// Two processes (two Stores on one database) reserving a pace get slots
// the spacing apart, whoever asks.
func TestPacingIsSharedByProcesses(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		a, path := openTemp(t)
		b := a
		if onPostgres(t) {
			b = openAt(t, path)
		}
		const spacing = 50 * time.Millisecond
		begin := time.Now()
		var slots []time.Duration
		for i := range 6 {
			s := a
			if i%2 == 1 {
				s = b
			}
			w, err := s.Reserve(t.Context(), "global", spacing)
			if err != nil {
				t.Fatal(err)
			}
			slots = append(slots, time.Since(begin)+w)
		}
		for i := 1; i < len(slots); i++ {
			if gap := slots[i] - slots[i-1]; gap < spacing-5*time.Millisecond {
				t.Fatalf("slots %v: %d and %d only %v apart", slots, i-1, i, gap)
			}
		}
		// Another key is paced apart.
		if w, err := a.Reserve(t.Context(), "identify/0", spacing); err != nil || w > 5*time.Millisecond {
			t.Fatalf("another key waits %v, %v", w, err)
		}
	})
}
