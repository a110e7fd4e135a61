package bot

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// stubDiscord answers every request with the status and headers it is given, and records when
// each request reached it.
type stubDiscord struct {
	mu     sync.Mutex
	at     []time.Time
	answer func(r *http.Request) *http.Response
}

func (s *stubDiscord) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.at = append(s.at, time.Now())
	s.mu.Unlock()
	if s.answer != nil {
		return s.answer(r), nil
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}"))}, nil
}

func get(t *testing.T, rt http.RoundTripper, ctx context.Context, path string) (*http.Response, error) {
	t.Helper()
	r, err := http.NewRequestWithContext(ctx, "GET", "https://discord.com/api/v9/"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rt.RoundTrip(r)
}

// TestGlobalGateKeepsUnderTheLimit: a burst far over the limit goes out no faster than the
// gate's pace (90% of the limit: a steady rate and a burst), and every request is counted.
// The bound is on the time the burst takes: scheduling on a loaded machine can only delay a
// request, never advance it.
func TestGlobalGateKeepsUnderTheLimit(t *testing.T) {
	t.Parallel()
	const perSecond, n = 20, 45
	stub := &stubDiscord{}
	g := newGlobalGate(nil, perSecond)
	rt := g.wrap(stub)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := get(t, rt, context.Background(), "channels/"+string(rune('a'+i%26))+"/messages"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if g.counted.Load() != n {
		t.Errorf("%d requests counted, want %d", g.counted.Load(), n)
	}
	last := start
	for _, at := range stub.at {
		if at.After(last) {
			last = at
		}
	}
	burst, steady := float64(g.local.lim.Burst()), float64(g.local.lim.Limit())
	if burst+steady > 0.9*perSecond {
		t.Errorf("the gate allows %v + %v a second; want at most 90%% of %d", burst, steady, perSecond)
	}
	// slack: the limiter takes each caller's clock reading as its own, even
	// one a little older than the last it saw (x/time/rate's advance), so
	// goroutines racing into it can run ahead of the pace by the spread of
	// their readings: 44 µs in one CI run. 10 ms on 2.6 s is 0.4%, far
	// inside the 10% the gate keeps below Discord's limit.
	const slack = 10 * time.Millisecond
	if took, least := last.Sub(start), time.Duration((n-burst)/steady*float64(time.Second)); took < least-slack {
		t.Errorf("%d requests went out in %v; the gate's pace needs at least %v", n, took, least)
	}
}

// TestGlobalGateSparesInteractions: interaction endpoints neither wait nor count, even while
// a global 429 holds everything else back.
func TestGlobalGateSparesInteractions(t *testing.T) {
	t.Parallel()
	stub := &stubDiscord{}
	g := newGlobalGate(nil, 1)
	g.pausedUntil.Store(time.Now().Add(time.Hour).UnixNano())
	rt := g.wrap(stub)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	for _, path := range []string{"interactions/1/tok/callback", "webhooks/9/tok", "webhooks/9/tok/messages/@original"} {
		if _, err := get(t, rt, ctx, path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := get(t, rt, ctx, "channels/1/messages"); err == nil {
		t.Error("a channel post went out while a global 429 held everything back")
	}
	if g.counted.Load() != 0 {
		t.Errorf("%d requests counted", g.counted.Load())
	}
	// Not Discord's API (an attachment on the CDN): neither paced nor counted.
	r, _ := http.NewRequestWithContext(ctx, "GET", "https://cdn.discordapp.com/attachments/1/2/board.png", nil)
	if _, err := rt.RoundTrip(r); err != nil {
		t.Error(err)
	}
}

// TestGlobal429HoldsEveryRequest: after a global 429 every counted request waits out its
// retry_after (discordgo retries only the request that met it), and the 429 is counted as an
// invalid request; a 429 of scope "shared" is not.
func TestGlobal429HoldsEveryRequest(t *testing.T) {
	t.Parallel()
	first := true
	stub := &stubDiscord{answer: func(r *http.Request) *http.Response {
		h := http.Header{}
		if first {
			first = false
			h.Set("X-RateLimit-Global", "true")
			h.Set("X-RateLimit-Scope", "global")
			return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h,
				Body: io.NopCloser(strings.NewReader(`{"message":"You are being rate limited.","retry_after":0.3,"global":true}`))}
		}
		if strings.Contains(r.URL.Path, "shared") {
			h.Set("X-RateLimit-Scope", "shared")
			return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h, Body: io.NopCloser(strings.NewReader(`{"retry_after":0.01}`))}
		}
		return &http.Response{StatusCode: http.StatusOK, Header: h, Body: io.NopCloser(strings.NewReader("{}"))}
	}}
	g := newGlobalGate(nil, -1)
	rt := g.wrap(stub)
	resp, err := get(t, rt, context.Background(), "channels/1/messages")
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("%v %v", resp, err)
	}
	if body, _ := io.ReadAll(resp.Body); !strings.Contains(string(body), "retry_after") {
		t.Errorf("the 429's body was not handed on: %q", body)
	}
	start := time.Now()
	if _, err := get(t, rt, context.Background(), "channels/2/messages"); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 250*time.Millisecond {
		t.Errorf("another channel's post went out %v after a global 429 of 0.3 s", waited)
	}
	if _, err := get(t, rt, context.Background(), "shared/1"); err != nil {
		t.Fatal(err)
	}
	if n := g.invalid.count(time.Now()); n != 1 {
		t.Errorf("%d invalid requests counted, want the global 429 alone", n)
	}
}

// TestInvalidWindowForgets: the count covers the last ten minutes only.
func TestInvalidWindowForgets(t *testing.T) {
	t.Parallel()
	var w invalidWindow
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for i := range 30 {
		w.add(t0.Add(time.Duration(i) * 30 * time.Second)) // 15 minutes
	}
	if n := w.count(t0.Add(15*time.Minute - time.Second)); n != 20 {
		t.Errorf("count over the last ten minutes: %d, want 20", n)
	}
	if n := w.count(t0.Add(time.Hour)); n != 0 {
		t.Errorf("an hour later: %d", n)
	}
}

// TestHealthWarnsBeforeTheBan: /healthz turns unhealthy well before Discord's 10,000.
func TestHealthWarnsBeforeTheBan(t *testing.T) {
	t.Parallel()
	h := Health{Connected: true, CommandsRegistered: true}
	if p := h.Problems(time.Now()); len(p) != 0 {
		t.Fatalf("healthy: %v", p)
	}
	h.InvalidRequests = InvalidRequestsAlarm
	if p := h.Problems(time.Now()); len(p) != 1 || !strings.Contains(p[0], "10000") {
		t.Fatalf("at the alarm: %v", p)
	}
}
