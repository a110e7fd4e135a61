package fakediscord

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Fault is an injected failure: requests matching Method and Route (an OpenAPI template like
// "/channels/{channel_id}/messages"), and Path when set (a concrete path like
// "/channels/123/messages"), are answered with the failure instead of being served.
type Fault struct {
	Method string
	Route  string
	Path   string
	// Times is how many matching requests fail; 0 means every one until the fault is cleared.
	Times int

	// RetryAfter, when positive, makes the failure a 429 rate limit with this retry_after.
	RetryAfter time.Duration
	// Global marks a 429 as the global rate limit.
	Global bool

	// Status, Code and Message make any other Discord error (ignored for 429s).
	Status  int
	Code    int
	Message string

	// Delay, alone, makes matching requests slow: they are served after it.
	Delay time.Duration

	// AfterServe serves the request first (a message is created, say) and
	// then answers with the failure: a gateway that fails after the work
	// was done, as a 502 from Discord's edge can.
	AfterServe bool
}

type faultRule struct {
	Fault
	hits int
}

func (f Fault) String() string {
	where := f.Route
	if f.Path != "" {
		where = f.Path
	}
	if f.RetryAfter > 0 {
		return fmt.Sprintf("429 retry_after %v on %s %s", f.RetryAfter, f.Method, where)
	}
	if f.Delay > 0 && f.Status == 0 {
		return fmt.Sprintf("%v delay on %s %s", f.Delay, f.Method, where)
	}
	return fmt.Sprintf("%d/%d on %s %s", f.Status, f.Code, f.Method, where)
}

// InjectFault adds a failure rule. Rules are tried in the order they were added.
func (s *Server) InjectFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultRule{Fault: f})
}

// RateLimit answers the next `times` requests to method+route with 429 and retry_after, the
// way Discord does (JSON body and Retry-After / X-RateLimit-* headers), so the client waits
// and retries.
func (s *Server) RateLimit(method, route string, times int, retryAfter time.Duration) {
	s.InjectFault(Fault{Method: method, Route: route, Times: times, RetryAfter: retryAfter})
}

// ClearFaults removes every fault rule.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// FaultHits reports how many requests the rules answered, in rule order.
func (s *Server) FaultHits() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]int, len(s.faults))
	for i, f := range s.faults {
		out[i] = f.hits
	}
	return out
}

// FailDMsTo makes every message the bot sends to the user's DM channel fail with 403 and
// {"code": 50007, "message": "Cannot send messages to this user"}, as when the user closed
// their DMs. Opening the DM channel still works, as on Discord.
func (s *Server) FailDMsTo(userID string) {
	s.RefuseDMsTo(userID, http.StatusForbidden, 50007, "Cannot send messages to this user")
}

// RefuseDMsTo makes every message the bot sends to the user's DM channel fail with Discord's
// error status/code, until AllowDMsTo: 400/50033 "Invalid Recipient(s)", 400/20009 "Explicit
// content cannot be sent to the desired recipient(s)", 403/40003 "You are opening direct
// messages too fast" and so on (Opcodes and Status Codes → JSON Error Codes).
func (s *Server) RefuseDMsTo(userID string, status, code int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dmFailures[userID] = &apiError{status: status, code: code, message: message}
}

// AllowDMsTo undoes FailDMsTo.
func (s *Server) AllowDMsTo(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.dmFailures, userID)
}

// injectFault answers the call with the first matching fault, if any;
// serve runs the request's handler first for an AfterServe fault.
func (s *Server) injectFault(c *call, routeTemplate, path string, serve func(http.ResponseWriter)) bool {
	s.mu.Lock()
	var hit *Fault
	for _, f := range s.faults {
		if f.Method != c.r.Method || f.Route != routeTemplate || (f.Path != "" && f.Path != path) {
			continue
		}
		if f.Times > 0 && f.hits >= f.Times {
			continue
		}
		f.hits++
		copied := f.Fault
		hit = &copied
		break
	}
	s.mu.Unlock()
	if hit == nil {
		return false
	}
	c.rec.Fault = hit.String()
	if hit.Delay > 0 && hit.Status == 0 && hit.RetryAfter == 0 {
		time.Sleep(hit.Delay)
		return false // served, late
	}
	if hit.AfterServe && serve != nil {
		serve(discardWriter{header: http.Header{}})
	}
	if hit.RetryAfter > 0 {
		writeRateLimit(c, *hit, routeTemplate)
		return true
	}
	status := hit.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	msg := hit.Message
	if msg == "" {
		msg = http.StatusText(status)
	}
	c.fail(status, hit.Code, msg)
	return true
}

func writeRateLimit(c *call, f Fault, bucket string) {
	secs := f.RetryAfter.Seconds()
	h := c.w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(f.RetryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", bucketHash(c.r.Method, bucket))
	scope := "user"
	if f.Global {
		h.Set("X-RateLimit-Global", "true")
		scope = "global"
	}
	h.Set("X-RateLimit-Scope", scope)
	c.json(http.StatusTooManyRequests, map[string]any{
		"message": "You are being rate limited.", "retry_after": secs, "global": f.Global, "code": 0,
	})
}

// discardWriter swallows the answer of a request served before its fault.
type discardWriter struct{ header http.Header }

func (d discardWriter) Header() http.Header         { return d.header }
func (d discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d discardWriter) WriteHeader(int)             {}
