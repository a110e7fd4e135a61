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
	Time     time.Time      `json:"time"`
	Problems []string       `json:"problems,omitempty"`
}

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
		rep := HealthReport{Status: "ok", Gateway: b.Health(), Database: DatabaseHealth{Path: st.Path()}, Time: time.Now().UTC()}
		if v, err := st.SchemaVersion(); err != nil {
			rep.Database.Error = err.Error()
			rep.Problems = append(rep.Problems, "database unreadable")
		} else {
			rep.Database.OK, rep.Database.Schema = true, v
		}
		if !rep.Gateway.Connected {
			rep.Problems = append(rep.Problems, "gateway disconnected")
		}
		if !rep.Gateway.CommandsRegistered {
			rep.Problems = append(rep.Problems, "slash commands not registered")
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
