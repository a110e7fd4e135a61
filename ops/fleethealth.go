package ops

import (
	"context"
	"slices"
	"time"

	"conductor/store"
)

// FleetHealth is the fleet as the database sees it (GET /healthz, on a
// database whose shards are leased): which process holds which shards,
// how long ago each renewed its lease, and the shards nobody serves.
// Whichever process answers, the view is the same; the outbox beside it
// (HealthReport.Outbox) is the whole database's, every process's posts.
type FleetHealth struct {
	ShardCount int            `json:"shard_count"`
	Processes  []FleetProcess `json:"processes"`
	// Unserved are the shards with no live lease: their process died and
	// none took them over yet, or was stopped for good.
	Unserved []int `json:"unserved,omitempty"`
}

// FleetProcess is one process's leases.
type FleetProcess struct {
	Holder string `json:"holder"`
	Shards []int  `json:"shards"`
	// HeartbeatSeconds is how long ago it last renewed (the oldest of its
	// leases); ExpiresInSeconds when its leases end unless renewed.
	HeartbeatSeconds float64 `json:"heartbeat_seconds"`
	ExpiresInSeconds float64 `json:"expires_in_seconds"`
}

// fleetHealth reads the leases; nil when the database has none (a file,
// or a lone bot on PostgreSQL).
func fleetHealth(ctx context.Context, st *store.Store, now time.Time) (*FleetHealth, error) {
	rows, err := st.ShardLeases(ctx)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	// The count of the live leases (one at a time), else of the latest.
	count := rows[0].Count
	for _, r := range rows {
		if r.Live {
			count = r.Count
			break
		}
	}
	f := &FleetHealth{ShardCount: count}
	live := map[int]bool{}
	for _, r := range rows {
		if !r.Live || r.Count != count {
			continue
		}
		live[r.Shard] = true
		i := slices.IndexFunc(f.Processes, func(p FleetProcess) bool { return p.Holder == r.Holder })
		if i < 0 {
			f.Processes = append(f.Processes, FleetProcess{Holder: r.Holder, ExpiresInSeconds: r.Expires.Sub(now).Seconds()})
			i = len(f.Processes) - 1
		}
		p := &f.Processes[i]
		p.Shards = append(p.Shards, r.Shard)
		p.HeartbeatSeconds = max(p.HeartbeatSeconds, r.Heartbeat.Seconds())
		p.ExpiresInSeconds = min(p.ExpiresInSeconds, r.Expires.Sub(now).Seconds())
	}
	for sh := range count {
		if !live[sh] {
			f.Unserved = append(f.Unserved, sh)
		}
	}
	return f, nil
}
