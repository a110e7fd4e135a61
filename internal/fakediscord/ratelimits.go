package fakediscord

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Discord's rate limits (https://discord.com/developers/docs/topics/rate-limits), as the fake
// applies them:
//
//   - Per-route buckets: every answer carries X-RateLimit-Limit, -Remaining, -Reset,
//     -Reset-After and -Bucket for the bucket of its route (method and OpenAPI template) and
//     top-level resource (the channel, guild, webhook or interaction in the path). Discord does
//     not publish its buckets' sizes ("should not be hard coded"); with Options.RouteLimit set,
//     the fake's are RouteLimit per RouteWindow and a request over its bucket is answered 429
//     with X-RateLimit-Scope: user; without it, buckets of 50 a second are reported, not
//     enforced.
//   - The global limit: with Options.GlobalLimit set (Discord's is 50 a second per bot), a
//     request beyond it within any second is answered 429 with "global": true,
//     X-RateLimit-Global: true and X-RateLimit-Scope: global. Interaction endpoints (the
//     callback and the interaction's webhook, /webhooks/{application}/{interaction token}/...)
//     are not bound to it, as on Discord.
//   - Invalid requests: answers 401, 403 and 429 (but a 429 of scope "shared") are counted,
//     since Discord bans an IP after 10,000 of them in 10 minutes; InvalidRequests reports it.

// The buckets reported when Options.RouteLimit is not set, and the default RouteWindow.
const (
	defaultRouteLimit  = 50
	defaultRouteWindow = time.Second
)

// globalWindow is the span of Discord's global limit: GlobalLimit requests a second.
const globalWindow = time.Second

// bucket is one per-route rate limit window. Guarded by Server.mu.
type bucket struct {
	hash  string // X-RateLimit-Bucket: the route's, shared by its top-level resources
	start time.Time
	used  int
}

// limitState is the fake's rate limit book-keeping. Guarded by Server.mu.
type limitState struct {
	buckets map[string]*bucket
	// global holds the times of the requests counted against the global limit within the
	// last globalWindow, oldest first.
	global []time.Time
	// invalid counts answers 401, 403 and 429 (not of scope "shared"); limited, the 429s.
	invalid, limited, globalLimited int
}

// exemptFromGlobal reports an interaction endpoint: the callback, and the webhook of an
// interaction token (the fake has no other webhooks).
func exemptFromGlobal(template string) bool {
	return strings.HasPrefix(template, "/interactions/") || strings.HasPrefix(template, "/webhooks/{webhook_id}/{webhook_token}")
}

// topLevel is the part of a path that makes a route's bucket its own: Discord's top-level
// resources (channel, guild, webhook with its token; an interaction for its callback).
func topLevel(params map[string]string) string {
	switch {
	case params["channel_id"] != "":
		return "channel " + params["channel_id"]
	case params["guild_id"] != "":
		return "guild " + params["guild_id"]
	case params["webhook_id"] != "":
		return "webhook " + params["webhook_id"] + "/" + params["webhook_token"]
	case params["interaction_id"] != "":
		return "interaction " + params["interaction_id"] + "/" + params["interaction_token"]
	}
	return ""
}

// bucketHash names a route's bucket the way Discord does: an opaque string, the same for every
// top-level resource.
func bucketHash(method, template string) string {
	sum := sha256.Sum256([]byte(method + " " + template))
	return hex.EncodeToString(sum[:8])
}

// rateLimit applies the global limit and the route's bucket to a call: it sets the bucket's
// headers on the answer, or answers 429 itself and returns false.
func (s *Server) rateLimit(c *call, op *Operation) bool {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.GlobalLimit > 0 && !exemptFromGlobal(op.Template) {
		cut := 0
		for cut < len(s.limits.global) && now.Sub(s.limits.global[cut]) >= globalWindow {
			cut++
		}
		s.limits.global = s.limits.global[cut:]
		if len(s.limits.global) >= s.opts.GlobalLimit {
			wait := s.limits.global[0].Add(globalWindow).Sub(now)
			s.limits.globalLimited++
			c.rec.Fault = "global rate limit"
			writeGlobalRateLimit(c, wait)
			return false
		}
		s.limits.global = append(s.limits.global, now)
	}
	if s.limits.buckets == nil {
		s.limits.buckets = map[string]*bucket{}
	}
	key := op.Method + " " + op.Template + " " + topLevel(c.params)
	b, ok := s.limits.buckets[key]
	if !ok {
		b = &bucket{hash: bucketHash(op.Method, op.Template)}
		s.limits.buckets[key] = b
	}
	limit, window, enforce := s.opts.RouteLimit, s.opts.RouteWindow, s.opts.RouteLimit > 0
	if !enforce {
		limit = defaultRouteLimit
	}
	if now.Sub(b.start) >= window {
		b.start, b.used = now, 0
	}
	reset := b.start.Add(window)
	h := c.w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(reset.UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(reset.Sub(now).Seconds(), 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", b.hash)
	if b.used >= limit && enforce {
		h.Set("X-RateLimit-Remaining", "0")
		c.rec.Fault = "route rate limit"
		writeRateLimitBody(c, reset.Sub(now), "user", false)
		return false
	}
	b.used++
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(limit-b.used, 0)))
	return true
}

// writeGlobalRateLimit answers as Discord does past the global limit: no bucket headers.
func writeGlobalRateLimit(c *call, wait time.Duration) {
	h := c.w.Header()
	for _, k := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
		h.Del(k)
	}
	h.Set("X-RateLimit-Global", "true")
	writeRateLimitBody(c, wait, "global", true)
}

// writeRateLimitBody writes a 429: Retry-After (whole seconds, rounded up), the scope, and
// Discord's body with the precise retry_after.
func writeRateLimitBody(c *call, wait time.Duration, scope string, global bool) {
	secs := math.Max(wait.Seconds(), 0.001)
	h := c.w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Scope", scope)
	c.json(http.StatusTooManyRequests, map[string]any{
		"message": "You are being rate limited.", "retry_after": math.Round(secs*1000) / 1000, "global": global, "code": 0,
	})
}

// countInvalidLocked counts an answer Discord holds against the IP: 401, 403, and 429 unless
// its scope is "shared".
func (s *Server) countInvalidLocked(status int, scope string) {
	switch {
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		s.limits.invalid++
	case status == http.StatusTooManyRequests:
		s.limits.limited++
		if scope != "shared" {
			s.limits.invalid++
		}
	}
}

// InvalidRequests counts the answers Discord holds against the bot's IP address (401, 403,
// and 429 but those of scope "shared"): Discord bans the address for a while after 10,000 in
// 10 minutes.
func (s *Server) InvalidRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limits.invalid
}

// RateLimited counts the 429 answers: all of them, and those of the global limit.
func (s *Server) RateLimited() (all, global int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limits.limited, s.limits.globalLimited
}

// GlobalRequests counts the requests that fell under the global limit (every REST request
// but the interaction endpoints'), whether or not Options.GlobalLimit is set.
func (s *Server) GlobalRequests() int {
	n := 0
	for _, r := range s.Requests() {
		if r.Route != "" && !exemptFromGlobal(r.Route) {
			n++
		}
	}
	return n
}

// SetGlobalLimit changes Options.GlobalLimit: at most n requests in any second, interaction
// endpoints exempt; 0 enforces none.
func (s *Server) SetGlobalLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.GlobalLimit = n
	s.limits.global = nil
}
