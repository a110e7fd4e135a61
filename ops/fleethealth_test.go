package ops

import (
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"conductor/bot"
	"conductor/internal/pgtest"
	"conductor/store"
)

// /healthz shows the fleet from the database, on a file (its one
// process's leases) and on PostgreSQL: who holds which shards, how long
// ago each renewed, the shards nobody serves, and the outbox's oldest post.
func TestHealthShowsTheFleet(t *testing.T) {
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "c.db")
			if backend == "postgres" {
				db = pgtest.Database(t)
			}
			st, err := store.Open(db, &store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			b, err := bot.New(bot.Config{Token: "never-used", APIBase: "http://127.0.0.1:1/"})
			if err != nil {
				t.Fatal(err)
			}
			get := func() HealthReport {
				rec := httptest.NewRecorder()
				Handler(b, st, "").ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
				var rep HealthReport
				if err := json.NewDecoder(rec.Body).Decode(&rep); err != nil {
					t.Fatal(err)
				}
				return rep
			}
			if rep := get(); rep.Fleet != nil {
				t.Fatalf("a database without leases shows a fleet: %+v", rep.Fleet)
			}
			if _, err := st.AcquireShards(t.Context(), "a", store.ShardRange{Count: 4, First: 0, Last: 1}, time.Minute); err != nil {
				t.Fatal(err)
			}
			lb, err := st.AcquireShards(t.Context(), "b", store.ShardRange{Count: 4, First: 2, Last: 2}, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Enqueue("c1", store.OutboxEntry{Payload: []byte(`{}`), Created: time.Now().Add(-time.Minute)}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
			rep := get()
			f := rep.Fleet
			if f == nil || f.ShardCount != 4 || len(f.Processes) != 2 || !slices.Equal(f.Unserved, []int{3}) {
				t.Fatalf("fleet %+v", f)
			}
			a, bp := f.Processes[0], f.Processes[1]
			if a.Holder != "a" || !slices.Equal(a.Shards, []int{0, 1}) || bp.Holder != "b" || !slices.Equal(bp.Shards, []int{2}) {
				t.Fatalf("processes %+v", f.Processes)
			}
			if a.HeartbeatSeconds < 0.01 || a.HeartbeatSeconds > 10 || a.ExpiresInSeconds < 30 || a.ExpiresInSeconds > 60 {
				t.Errorf("heartbeat %v s ago, expires in %v s", a.HeartbeatSeconds, a.ExpiresInSeconds)
			}
			if rep.Outbox.Waiting != 1 || rep.Outbox.OldestSeconds < 59 {
				t.Errorf("outbox %+v", rep.Outbox)
			}
			// A renewal is a heartbeat; a release leaves the shard unserved.
			if _, err := st.RenewShards(t.Context(), lb, time.Minute); err != nil {
				t.Fatal(err)
			}
			if f := get().Fleet; f.Processes[1].HeartbeatSeconds >= f.Processes[0].HeartbeatSeconds {
				t.Errorf("after b's renewal, b's heartbeat is not the more recent: %+v", f.Processes)
			}
			if err := st.ReleaseShards(t.Context(), lb); err != nil {
				t.Fatal(err)
			}
			if f := get().Fleet; len(f.Processes) != 1 || !slices.Equal(f.Unserved, []int{2, 3}) {
				t.Errorf("after b's release: %+v", f)
			}
		})
	}
}
