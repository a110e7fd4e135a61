package ops

import (
	"io"
	"log/slog"
	"net/http"
	"testing"
)

// Listen serves until Shutdown, which returns once the server has
// stopped; an empty health address serves nothing, and a nil Listening
// is safe to ask and to stop.
func TestListenServesUntilShutdown(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	l, err := Listen("127.0.0.1:0", &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "here")
	})}, log, "test server")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + l.Addr() + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "here" {
		t.Fatalf("body %q", body)
	}
	l.Shutdown(t.Context())
	if _, err := http.Get("http://" + l.Addr() + "/"); err == nil {
		t.Fatal("still serving after Shutdown")
	}

	h, err := ListenHealth("", nil, nil, "", log)
	if h != nil || err != nil {
		t.Fatalf("no CONDUCTOR_HTTP: %v %v", h, err)
	}
	if h.Addr() != "" {
		t.Fatal("a nil Listening has an address")
	}
	h.Shutdown(t.Context())
}
