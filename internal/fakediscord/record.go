package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// RecordedRequest is one HTTP request the bot made, with the fake's answer.
type RecordedRequest struct {
	Seq         int // 1-based order of arrival
	Time        time.Time
	Method      string
	Path        string // without the /api/vN prefix, like "/channels/123/messages"
	Query       url.Values
	APIVersion  string // "10" for /api/v10/...
	Route       string // OpenAPI path template, like "/channels/{channel_id}/messages"; "" if unknown
	OperationID string // OpenAPI operationId, like "create_message"
	Params      map[string]string
	Header      http.Header
	ContentType string
	Body        []byte        // raw body as sent
	JSON        []byte        // the JSON document: the body, or the payload_json part
	Files       []File        // multipart uploads
	Invalid     []SchemaError // where the body or path breaks the OpenAPI description
	Fault       string        // the injected fault that answered, if any
	Unhandled   bool          // the fake does not implement this route
	Status      int
	Response    []byte
}

// Decode unmarshals the request's JSON document into v.
func (r RecordedRequest) Decode(v any) error {
	if r.JSON == nil {
		return fmt.Errorf("%s %s has no JSON body", r.Method, r.Path)
	}
	return json.Unmarshal(r.JSON, v)
}

// ValidationFailure is a request whose body or path broke Discord's OpenAPI description, or a
// rule Discord enforces beyond it.
type ValidationFailure struct {
	Seq    int
	Method string
	Path   string
	Route  string
	Errors []SchemaError
}

func (f ValidationFailure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "request #%d %s %s (%s):", f.Seq, f.Method, f.Path, f.Route)
	for _, e := range f.Errors {
		b.WriteString("\n\t" + e.String())
	}
	return b.String()
}

func (s *Server) recordLocked(r *RecordedRequest) {
	r.Seq = len(s.requests) + 1
	s.requests = append(s.requests, r)
}

func (s *Server) recordInvalidLocked(r *RecordedRequest, errs []SchemaError) {
	if len(errs) == 0 {
		return
	}
	r.Invalid = append(r.Invalid, errs...)
	s.validation = append(s.validation, ValidationFailure{Seq: r.Seq, Method: r.Method, Path: r.Path, Route: r.Route, Errors: errs})
	s.changedLocked()
}

func (r *RecordedRequest) snapshot() RecordedRequest {
	c := *r
	c.Invalid = append([]SchemaError(nil), r.Invalid...)
	c.Files = append([]File(nil), r.Files...)
	return c
}

// Requests lists every request so far, in arrival order.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RecordedRequest, 0, len(s.requests))
	for _, r := range s.requests {
		out = append(out, r.snapshot())
	}
	return out
}

// RequestsTo lists the requests for one method and OpenAPI route, like
// ("POST", "/channels/{channel_id}/messages").
func (s *Server) RequestsTo(method, route string) []RecordedRequest {
	var out []RecordedRequest
	for _, r := range s.Requests() {
		if r.Method == method && r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// UnhandledRequests lists requests for routes the fake does not implement (answered 404).
func (s *Server) UnhandledRequests() []RecordedRequest {
	var out []RecordedRequest
	for _, r := range s.Requests() {
		if r.Unhandled {
			out = append(out, r)
		}
	}
	return out
}

// ValidationFailures lists every request that broke Discord's OpenAPI description or rules.
func (s *Server) ValidationFailures() []ValidationFailure {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ValidationFailure(nil), s.validation...)
}

// CheckClean fails the test for every validation failure, every unhandled request and every
// GatewayFault.
func (s *Server) CheckClean(tb testing.TB) {
	tb.Helper()
	for _, f := range s.ValidationFailures() {
		tb.Errorf("fakediscord: invalid request: %s", f)
	}
	for _, r := range s.UnhandledRequests() {
		tb.Errorf("fakediscord: request #%d %s %s is not implemented by the fake", r.Seq, r.Method, r.Path)
	}
	for _, f := range s.GatewayFaults() {
		tb.Errorf("fakediscord: gateway: %s", f)
	}
}

// responseRecorder keeps the status and body of an answer for the record.
type responseRecorder struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (w *responseRecorder) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *responseRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.body = append(w.body, b...)
	return w.ResponseWriter.Write(b)
}
