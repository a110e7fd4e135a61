package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Discord's global rate limit: a bot may make about 50 requests a second across every server,
// interaction endpoints (the callback and the interaction's webhook) excepted
// (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit). discordgo keeps
// per-route buckets and obeys a 429 it meets, but does not pace the whole session: a burst of
// boards over many channels would meet the global limit in every bucket at once, a storm of
// 429s, each one counted toward Discord's IP ban (10,000 answers 401, 403 or 429 in 10
// minutes). The global gate below sits in the session's HTTP transport, so that every request
// of the process (channel senders, DMs, threads, registration, discordgo's own retries) waits
// for its turn there, and the interaction endpoints pass without waiting.

// DefaultGlobalRate is Discord's global limit for a bot, in requests a second.
const DefaultGlobalRate = 50

// InvalidRequestsWindow and InvalidRequestsAlarm: Discord bans an IP address for a while after
// 10,000 answers 401, 403 or 429 in 10 minutes; /healthz turns unhealthy at a tenth of that.
const (
	InvalidRequestsWindow = 10 * time.Minute
	InvalidRequestsBan    = 10000
	InvalidRequestsAlarm  = InvalidRequestsBan / 10
)

// GlobalLimiter paces the requests under Discord's global limit. The process's own
// (newLocalGlobalLimiter) serves a bot whose shards all run in this process, or a process
// given its share; processes sharing a bot will need one coordinated between them, behind the
// same interface.
type GlobalLimiter interface {
	// Wait blocks until one more request may be sent, or ctx ends.
	Wait(ctx context.Context) error
}

// globalGate paces and counts the REST requests of a session.
type globalGate struct {
	lim GlobalLimiter // nil: no pacing
	// local is lim when it is the process's own, whose rate Start sets.
	local *localGlobalLimiter
	// pausedUntil (Unix nanoseconds) holds every counted request back after a global 429.
	pausedUntil atomic.Int64
	// counted are the requests sent that fall under the global limit; moves, the moves
	// people made (commands.MoveCounter), to report the cost of one.
	counted, moves atomic.Int64
	invalid        invalidWindow
}

// newGlobalGate paces requests with lim, or when lim is nil with the process's own limiter
// at perSecond (see newLocalGlobalLimiter; 0: DefaultGlobalRate until setRate). perSecond < 0
// paces nothing (the requests are still counted).
func newGlobalGate(lim GlobalLimiter, perSecond float64) *globalGate {
	g := &globalGate{lim: lim}
	if lim == nil && perSecond >= 0 {
		if perSecond == 0 {
			perSecond = DefaultGlobalRate
		}
		g.local = newLocalGlobalLimiter(perSecond)
		g.lim = g.local
	}
	return g
}

// setRate gives the process's own limiter a new rate (Start, once it knows the shards).
func (g *globalGate) setRate(perSecond float64) {
	if g.local != nil {
		g.local.setRate(perSecond)
	}
}

// localGlobalLimiter is the process's own limiter: no second holds more than 90% of its
// rate (a steady rate and a small burst together), leaving room for the jitter between this
// clock and Discord's.
type localGlobalLimiter struct {
	lim *rate.Limiter
}

func newLocalGlobalLimiter(perSecond float64) *localGlobalLimiter {
	steady, burst := pace(perSecond)
	return &localGlobalLimiter{lim: rate.NewLimiter(steady, burst)}
}

// pace is the steady rate and the burst that keep every second under 90% of perSecond.
func pace(perSecond float64) (rate.Limit, int) {
	burst := max(1, int(perSecond/25))
	steady := max(0.9*perSecond-float64(burst), 0.5*perSecond)
	return rate.Limit(steady), burst
}

func (l *localGlobalLimiter) setRate(perSecond float64) {
	steady, burst := pace(perSecond)
	now := time.Now()
	l.lim.SetLimitAt(now, steady)
	l.lim.SetBurstAt(now, burst)
}

func (l *localGlobalLimiter) Wait(ctx context.Context) error { return l.lim.Wait(ctx) }

// reserve is when a request asked for at now may go: what Wait waits for, on a clock of
// the caller's (the simulation of global_sim_test.go).
func (l *localGlobalLimiter) reserve(now time.Time) time.Time {
	return now.Add(l.lim.ReserveN(now, 1).DelayFrom(now))
}

// exemptFromGlobal reports Discord's interaction endpoints, which the global limit does not
// bind: /interactions/{id}/{token}/callback and /webhooks/{application}/{token}/... (the bot
// uses no webhook but its interactions'). path is the API path after the version.
func exemptFromGlobal(path string) bool {
	return strings.HasPrefix(path, "interactions/") || strings.HasPrefix(path, "webhooks/")
}

// apiPath is the path of a request to Discord's REST API after /api/vN/, or false for any
// other request (the CDN, an attachment).
func apiPath(r *http.Request) (string, bool) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/v")
	if !ok {
		return "", false
	}
	_, path, ok := strings.Cut(rest, "/")
	return path, ok
}

// wrap puts the gate in front of a transport.
func (g *globalGate) wrap(next http.RoundTripper) http.RoundTripper {
	return gatedTransport{g: g, next: next}
}

type gatedTransport struct {
	g    *globalGate
	next http.RoundTripper
}

func (t gatedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	path, api := apiPath(r)
	if !api {
		return t.next.RoundTrip(r)
	}
	if !exemptFromGlobal(path) {
		if err := t.g.wait(r); err != nil {
			return nil, err
		}
		t.g.counted.Add(1)
	}
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		t.g.answered(resp)
	}
	return resp, err
}

// wait holds a request until the global limit lets it go, within the request's own deadline
// (the HTTP client's timeout): a request that cannot go in time fails unsent, and its sender
// retries it later.
func (g *globalGate) wait(r *http.Request) error {
	ctx := r.Context()
	for {
		if until := time.Unix(0, g.pausedUntil.Load()); time.Now().Before(until) {
			t := time.NewTimer(time.Until(until))
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("waiting out Discord's global rate limit: %w", ctx.Err())
			}
		}
		if g.lim == nil {
			return nil
		}
		if err := g.lim.Wait(ctx); err != nil {
			return fmt.Errorf("waiting for Discord's global rate limit: %w", err)
		}
		if time.Now().UnixNano() >= g.pausedUntil.Load() {
			return nil
		}
	}
}

// answered counts an answer Discord holds against the address (401, 403, 429 but of scope
// "shared"), and after a global 429 holds every counted request back for its retry_after:
// discordgo itself retries only the request that met it.
func (g *globalGate) answered(resp *http.Response) {
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		g.invalid.add(time.Now())
	case http.StatusTooManyRequests:
		if resp.Header.Get("X-RateLimit-Scope") != "shared" {
			g.invalid.add(time.Now())
		}
		if resp.Header.Get("X-RateLimit-Global") == "" {
			return
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		var rl struct {
			RetryAfter float64 `json:"retry_after"`
		}
		if err != nil || json.Unmarshal(body, &rl) != nil || rl.RetryAfter <= 0 {
			rl.RetryAfter = 1
		}
		until := time.Now().Add(time.Duration(rl.RetryAfter * float64(time.Second))).UnixNano()
		for {
			old := g.pausedUntil.Load()
			if old >= until || g.pausedUntil.CompareAndSwap(old, until) {
				return
			}
		}
	}
}

// invalidWindow counts events over the last InvalidRequestsWindow, by the second.
type invalidWindow struct {
	mu    sync.Mutex
	slots [int(InvalidRequestsWindow / time.Second)]struct {
		sec int64
		n   int
	}
}

func (w *invalidWindow) add(now time.Time) {
	sec := now.Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	s := &w.slots[sec%int64(len(w.slots))]
	if s.sec != sec {
		s.sec, s.n = sec, 0
	}
	s.n++
}

// count is the number of events within the window ending at now.
func (w *invalidWindow) count(now time.Time) int {
	sec := now.Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, s := range w.slots {
		if sec-s.sec < int64(len(w.slots)) && s.sec <= sec {
			n += s.n
		}
	}
	return n
}

// CountMove counts a move a person made (commands.MoveCounter): the health check reports the
// requests under the global limit per move.
func (b *Bot) CountMove() { b.gate.moves.Add(1) }

// GlobalRequests counts the REST requests sent so far that fall under Discord's global rate
// limit, and the moves people made: the benchmark and /healthz divide one by the other.
func (b *Bot) GlobalRequests() (requests, moves int64) {
	return b.gate.counted.Load(), b.gate.moves.Load()
}

// InvalidRequests counts the answers 401, 403 and 429 (but of scope "shared") over the last
// ten minutes.
func (b *Bot) InvalidRequests() int { return b.gate.invalid.count(time.Now()) }
