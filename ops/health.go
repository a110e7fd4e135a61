package ops

import (
	"encoding/json"
	"net/http"
	"time"

	"conductor/bot"
	"conductor/store"
)

// HealthReport is the JSON of GET /healthz.
type HealthReport struct {
	Status   string         `json:"status"` // "ok" or "unavailable"
	Gateway  bot.Health     `json:"gateway"`
	Database DatabaseHealth `json:"database"`
	Outbox   OutboxHealth   `json:"outbox"`
	// Fleet is the processes sharing the database, when it has shard
	// leases (fleethealth.go).
	Fleet    *FleetHealth `json:"fleet,omitempty"`
	Time     time.Time    `json:"time"`
	Problems []string     `json:"problems,omitempty"`
}

// OutboxHealth is the queue of posts waiting for Discord.
type OutboxHealth struct {
	Waiting       int `json:"waiting"`
	OldestSeconds int `json:"oldest_seconds,omitempty"`
}

// OutboxStale: a post waiting longer means tables are not being told.
const OutboxStale = 5 * time.Minute

// DatabaseHealth says whether the database is readable.
type DatabaseHealth struct {
	OK     bool   `json:"ok"`
	Path   string `json:"path"`
	Schema int    `json:"schema,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Handler answers GET /healthz: 200 when the gateway is connected and the
// database readable, else 503. It also serves hot copies of the database
// to `conductor backup` on this machine when it presents backupToken
// (BackupPath; off when backupToken is "").
func Handler(b *bot.Bot, st *store.Store, backupToken string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+BackupPath, backupHandler(st, backupToken))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		rep := HealthReport{Status: "ok", Gateway: b.Health(), Database: DatabaseHealth{Path: st.Path()}, Time: now.UTC()}
		if v, err := st.SchemaVersion(); err != nil {
			rep.Database.Error = err.Error()
			rep.Problems = append(rep.Problems, "database unreadable")
		} else {
			rep.Database.OK, rep.Database.Schema = true, v
		}
		rep.Problems = append(rep.Problems, rep.Gateway.Problems(now)...)
		// A channel that refuses the bot's posts keeps them for a moderator
		// to fix (Gateway.RefusedChannels): that is no fault of the bot's.
		refused := map[string]bool{}
		for _, c := range rep.Gateway.RefusedChannels {
			refused[c.Channel] = true
		}
		if n, oldest, err := st.OutboxDepthExcept(func(q string) bool { return refused[q] }); err == nil {
			rep.Outbox = OutboxHealth{Waiting: n}
			if n > 0 {
				age := now.Sub(oldest)
				rep.Outbox.OldestSeconds = int(age.Seconds())
				if age > OutboxStale {
					rep.Problems = append(rep.Problems, "posts waiting for "+age.Round(time.Second).String())
				}
			}
		}
		// The fleet's view is information, not this process's health: a
		// dead peer's shards are another process's to take over.
		if f, err := fleetHealth(r.Context(), st, now); err == nil {
			rep.Fleet = f
		}
		code := http.StatusOK
		if len(rep.Problems) > 0 {
			rep.Status, code = "unavailable", http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(rep)
	})
	return mux
}
