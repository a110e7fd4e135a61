package fakediscord

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func dialGatewayAt(t *testing.T, url string) *rawGateway {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(url+"?v=10&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	g := &rawGateway{t: t, ws: ws}
	if hello, _ := g.mustRead(); hello.Op != opHello {
		t.Fatalf("first payload %+v, want HELLO", hello)
	}
	return g
}

// identifyShard sends an IDENTIFY as shard [id, count] and returns Discord's answer.
func (g *rawGateway) identifyShard(srv *Server, id, count int) gatewayPayload {
	g.t.Helper()
	d := identifyPayload(srv, false)
	d["shard"] = []int{id, count}
	g.send(opIdentify, d)
	p, _ := g.mustRead()
	return p
}

func isReady(p gatewayPayload) bool { return p.Op == opDispatch && p.Type != nil && *p.Type == "READY" }

type gatewayBot struct {
	URL    string `json:"url"`
	Shards int    `json:"shards"`
	Limit  struct {
		Total          int `json:"total"`
		Remaining      int `json:"remaining"`
		ResetAfter     int `json:"reset_after"`
		MaxConcurrency int `json:"max_concurrency"`
	} `json:"session_start_limit"`
}

func getGatewayBot(t *testing.T, srv *Server) (gatewayBot, int) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.APIURL()+"gateway/bot", nil)
	req.Header.Set("Authorization", srv.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var gb gatewayBot
	json.NewDecoder(resp.Body).Decode(&gb)
	return gb, resp.StatusCode
}

// GET /gateway/bot says how many shards to run, how many may identify at once and how many
// session starts are left; each IDENTIFY takes one.
func TestGatewayBotReportsLoginLimits(t *testing.T) {
	srv := New(t, Options{RecommendedShards: 4, MaxConcurrency: 2})
	gb, code := getGatewayBot(t, srv)
	if code != http.StatusOK || gb.URL != srv.GatewayURL() || gb.Shards != 4 || gb.Limit.MaxConcurrency != 2 ||
		gb.Limit.Total != 1000 || gb.Limit.Remaining != 1000 || gb.Limit.ResetAfter <= 0 {
		t.Fatalf("GET /gateway/bot: %d %+v", code, gb)
	}
	if p := dialGatewayAt(t, srv.GatewayURL()).identifyShard(srv, 0, 4); !isReady(p) {
		t.Fatalf("IDENTIFY answered %+v", p)
	}
	if gb, _ = getGatewayBot(t, srv); gb.Limit.Remaining != 999 {
		t.Errorf("remaining %d after one IDENTIFY, want 999", gb.Limit.Remaining)
	}
	srv.CheckClean(t)
}

// Shards identify in max_concurrency buckets, one IDENTIFY per bucket per interval: a sooner
// one gets op 9 and starts no session, another bucket is free, and the bucket takes one again
// once the interval has passed (on the fake's clock).
func TestIdentifyPacingPerBucket(t *testing.T) {
	const interval = 5 * time.Second
	srv := New(t, Options{MaxConcurrency: 2, IdentifyInterval: interval})
	for shard := range 2 {
		if p := dialGatewayAt(t, srv.GatewayURL()).identifyShard(srv, shard, 4); !isReady(p) {
			t.Fatalf("shard %d (bucket %d) answered %+v", shard, shard, p)
		}
	}
	early := dialGatewayAt(t, srv.GatewayURL())
	if p := early.identifyShard(srv, 2, 4); p.Op != opInvalidSession || string(p.Data) != "false" {
		t.Fatalf("shard 2 in bucket 0 at once: %+v, want op 9 (d false)", p)
	}
	faults := srv.GatewayFaults()
	if len(faults) != 1 || faults[0].Shard != 2 || !strings.Contains(faults[0].What, "bucket 0") {
		t.Fatalf("faults %v", faults)
	}
	if n := srv.SessionStartsLeft(); n != 998 {
		t.Errorf("%d session starts left, want 998: a refused IDENTIFY starts no session", n)
	}
	srv.AdvanceClock(interval)
	if p := dialGatewayAt(t, srv.GatewayURL()).identifyShard(srv, 2, 4); !isReady(p) {
		t.Fatalf("shard 2 after the interval: %+v", p)
	}
	ids := srv.Identifies()
	if len(ids) != 3 || ids[2].Bucket != 0 || ids[1].Bucket != 1 {
		t.Errorf("identifies %+v", ids)
	}
}

// An IDENTIFY with no session start left ends every session (4004) and resets the token:
// REST answers 401 from then on.
func TestIdentifyPastTheSessionStartLimitResetsTheToken(t *testing.T) {
	srv := New(t, Options{MaxConcurrency: 2})
	srv.SetSessionStartLimit(1, time.Hour)
	first := dialGatewayAt(t, srv.GatewayURL())
	if p := first.identifyShard(srv, 0, 2); !isReady(p) {
		t.Fatalf("the last session start: %+v", p)
	}
	gb, _ := getGatewayBot(t, srv)
	if gb.Limit.Remaining != 0 || gb.Limit.ResetAfter < 3500000 || gb.Limit.ResetAfter > 3600000 {
		t.Fatalf("session_start_limit %+v, want none left for an hour", gb.Limit)
	}
	second := dialGatewayAt(t, srv.GatewayURL())
	d := identifyPayload(srv, false)
	d["shard"] = []int{1, 2}
	second.send(opIdentify, d)
	if code := second.closeCode(); code != 4004 {
		t.Errorf("IDENTIFY past the limit closed with %d, want 4004", code)
	}
	if code := first.closeCode(); code != 4004 {
		t.Errorf("the running session closed with %d, want 4004", code)
	}
	if !srv.TokenReset() {
		t.Error("the token was not reset")
	}
	if _, code := getGatewayBot(t, srv); code != http.StatusUnauthorized {
		t.Errorf("REST with the reset token answered %d, want 401", code)
	}
	if faults := srv.GatewayFaults(); len(faults) != 1 || !strings.Contains(faults[0].What, "resets the token") {
		t.Errorf("faults %v", faults)
	}
	srv.AdvanceClock(time.Hour)
	if n := srv.SessionStartsLeft(); n != 1000 {
		t.Errorf("%d session starts after the reset, want 1000", n)
	}
}

// A session that would hold more guilds than a shard may is closed with 4011; sharded, the
// same guilds are accepted.
func TestShardingRequired(t *testing.T) {
	srv := New(t, Options{MaxGuildsPerShard: 2, MaxConcurrency: 2})
	for range 3 {
		srv.CreateGuild("g")
	}
	g := dialGatewayAt(t, srv.GatewayURL())
	g.send(opIdentify, identifyPayload(srv, false))
	if code := g.closeCode(); code != 4011 {
		t.Errorf("an unsharded IDENTIFY with 3 guilds closed with %d, want 4011", code)
	}
	for shard := range 2 {
		if p := dialGatewayAt(t, srv.GatewayURL()).identifyShard(srv, shard, 2); !isReady(p) {
			t.Errorf("shard %d of 2: %+v", shard, p)
		}
	}
	srv.CheckClean(t)
}

// Op 9 with d true leaves the session resumable; READY names a resume URL apart from the
// first, and a RESUME there is clean while one on the first URL is a fault.
func TestResumableInvalidSessionAndTheResumeURL(t *testing.T) {
	srv := New(t)
	g := dialGatewayAt(t, srv.GatewayURL())
	g.send(opIdentify, identifyPayload(srv, false))
	ready, _ := g.mustRead()
	var r struct {
		SessionID        string `json:"session_id"`
		ResumeGatewayURL string `json:"resume_gateway_url"`
	}
	json.Unmarshal(ready.Data, &r)
	if r.ResumeGatewayURL != srv.ResumeGatewayURL() || r.ResumeGatewayURL == srv.GatewayURL() {
		t.Fatalf("resume_gateway_url %q", r.ResumeGatewayURL)
	}
	if err := srv.InvalidSession(0, true); err != nil {
		t.Fatal(err)
	}
	if p, _ := g.mustRead(); p.Op != opInvalidSession || string(p.Data) != "true" {
		t.Fatalf("got %+v, want op 9 d true", p)
	}
	g.ws.Close()
	resume := func(url string) gatewayPayload {
		g := dialGatewayAt(t, url)
		g.send(opResume, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 1})
		p, _ := g.mustRead()
		g.ws.Close()
		return p
	}
	if p := resume(r.ResumeGatewayURL); p.Type == nil || *p.Type != "RESUMED" {
		t.Fatalf("RESUME on resume_gateway_url answered %+v", p)
	}
	if faults := srv.GatewayFaults(); len(faults) != 0 {
		t.Fatalf("faults %v", faults)
	}
	if p := resume(srv.GatewayURL()); p.Type == nil || *p.Type != "RESUMED" {
		t.Fatalf("RESUME on the first URL answered %+v", p)
	}
	if faults := srv.GatewayFaults(); len(faults) != 1 || !strings.Contains(faults[0].What, "resume_gateway_url") {
		t.Errorf("faults %v, want the RESUME on the first URL", faults)
	}
	rs := srv.Resumes()
	if len(rs) != 2 || !rs[0].OnResumeURL || rs[1].OnResumeURL {
		t.Errorf("resumes %+v", rs)
	}
}
