package web

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
)

// A panic anywhere in the page's server is one request's failure, never
// the process's: every handler and every goroutine of this package
// recovers, logs the panic at error level and, for a request, answers 500
// with a sentence and no internal text. (A panic left to a goroutine
// would end every server's games at once.)

// recovering wraps the routes: a handler's panic becomes a 500.
func (s *Server) recovering(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // the deliberate abort: net/http ends the request quietly
			}
			s.logPanic("serving a request", v, "method", r.Method, "route", routeOf(r))
			if !tw.wrote {
				s.refuse(tw, http.StatusInternalServerError, "internal", acceptLang(r))
			}
		}()
		next.ServeHTTP(tw, r)
	})
}

// routeOf names a request's route for the log: its pattern, not its path
// (a path holds a replay's token).
func routeOf(r *http.Request) string {
	if r.Pattern != "" {
		return r.Pattern
	}
	p := r.URL.Path
	if len(p) > 64 {
		p = p[:64] + "…"
	}
	return p
}

// logPanic writes a recovered panic and where it happened.
func (s *Server) logPanic(where string, v any, attrs ...any) {
	s.log.Error("panic "+where+": recovered", append(attrs, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))...)
}

// goSafe runs f in a goroutine that recovers a panic (logged; then
// onPanic, if any, runs).
func (s *Server) goSafe(where string, f func(), onPanic func()) {
	go func() {
		defer func() {
			if v := recover(); v != nil {
				s.logPanic(where, v)
				if onPanic != nil {
					onPanic()
				}
			}
		}()
		f()
	}()
}

// trackingWriter notes whether a response was begun, so a recovered panic
// answers only a request not answered yet. It keeps the writer's
// hijacking (WebSockets) and flushing.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *trackingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("web: the connection cannot be taken over")
	}
	w.wrote = true
	return h.Hijack()
}

func (w *trackingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		w.wrote = true
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
