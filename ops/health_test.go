package ops

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"conductor/bot"
	"conductor/store"
)

func TestHealthIsUnavailableWithoutGateway(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "c.db"), &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := bot.New(bot.Config{Token: "never-used", APIBase: "http://127.0.0.1:1/"})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	Handler(b, st, "").ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	var rep HealthReport
	if err := json.NewDecoder(rec.Body).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusServiceUnavailable || rep.Status != "unavailable" || rep.Gateway.Connected || !rep.Database.OK {
		t.Errorf("%d %+v", rec.Code, rep)
	}
	if len(rep.Problems) == 0 || !strings.Contains(strings.Join(rep.Problems, ","), "gateway") {
		t.Errorf("problems = %v", rep.Problems)
	}
}
