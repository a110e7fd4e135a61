package web

import (
	"log"
	"log/slog"
	"net/http"
	"time"
)

// The page's HTTP server bounds every connection's time: the headers, the
// whole request with its body, the answer, and the wait between requests
// of a kept-alive connection. The two long-lived routes set their own
// deadlines: a long poll of /api/state extends its connection's for the
// length of the poll, and a WebSocket (/ws), once taken over, has a
// deadline per message (helloWithin, readIdle, writeWithin).

// Timeouts are the server's; a zero field takes its default.
type Timeouts struct {
	// Header is the time to send a request's headers (default 5 s).
	Header time.Duration
	// Read is the time to send a whole request, body included (default
	// 15 s; bodies are at most 8 KiB).
	Read time.Duration
	// Write is the time from the request read to the answer written
	// (default 30 s).
	Write time.Duration
	// Idle is how long a kept-alive connection waits for its next
	// request (default 2 minutes).
	Idle time.Duration
}

func (t Timeouts) withDefaults() Timeouts {
	if t.Header <= 0 {
		t.Header = 5 * time.Second
	}
	if t.Read <= 0 {
		t.Read = 15 * time.Second
	}
	if t.Write <= 0 {
		t.Write = 30 * time.Second
	}
	if t.Idle <= 0 {
		t.Idle = 2 * time.Minute
	}
	return t
}

// maxHeaderBytes bounds a request's headers (Discord's proxy adds a few).
const maxHeaderBytes = 64 << 10

// HTTPServer is the server to listen with: the routes and the timeouts.
func (s *Server) HTTPServer() *http.Server {
	t := s.opts.Timeouts
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: t.Header,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
		// net/http's own complaints (a bad TLS handshake, a client gone)
		// are the internet's noise: debug level.
		ErrorLog: log.New(slogWriter{s.log}, "", 0),
	}
}

// slogWriter turns net/http's log lines into debug records.
type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Debug("http server", "line", string(p))
	return len(p), nil
}

// holdOpen extends a request's connection deadlines for a long-lived
// answer (the long poll): reading (net/http watches the connection for the
// client going away) and writing, until d from now and the server's write
// time after.
func (s *Server) holdOpen(w http.ResponseWriter, d time.Duration) {
	rc := http.NewResponseController(w)
	until := time.Now().Add(d)
	rc.SetReadDeadline(until.Add(s.opts.Timeouts.Read))
	rc.SetWriteDeadline(until.Add(s.opts.Timeouts.Write))
}
