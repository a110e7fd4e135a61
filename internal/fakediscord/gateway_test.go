package fakediscord

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// rawGateway is a hand-driven gateway client, to test the protocol without discordgo.
type rawGateway struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialGateway(t *testing.T, srv *Server) *rawGateway {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL()+"/?v=10&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return &rawGateway{t: t, ws: ws}
}

func (g *rawGateway) send(op int, d any) {
	g.t.Helper()
	if err := g.ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		g.t.Fatal(err)
	}
}

// read returns the next payload and whether it came zlib-compressed.
func (g *rawGateway) read() (gatewayPayload, bool, error) {
	g.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	mt, data, err := g.ws.ReadMessage()
	if err != nil {
		return gatewayPayload{}, false, err
	}
	compressed := mt == websocket.BinaryMessage
	if compressed {
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return gatewayPayload{}, true, err
		}
		if data, err = io.ReadAll(zr); err != nil {
			return gatewayPayload{}, true, err
		}
	}
	var p gatewayPayload
	err = json.Unmarshal(data, &p)
	return p, compressed, err
}

func (g *rawGateway) mustRead() (gatewayPayload, bool) {
	g.t.Helper()
	p, compressed, err := g.read()
	if err != nil {
		g.t.Fatal(err)
	}
	return p, compressed
}

func (g *rawGateway) closeCode() int {
	for {
		if _, _, err := g.read(); err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				return ce.Code
			}
			return -1
		}
	}
}

func identifyPayload(srv *Server, compress bool) map[string]any {
	return map[string]any{"token": srv.Token(), "intents": intentGuilds, "compress": compress,
		"properties": map[string]any{"os": "linux"}}
}

func TestGatewayHelloIdentifyHeartbeat(t *testing.T) {
	srv := New(t, Options{HeartbeatInterval: 1234 * time.Millisecond})
	guild := srv.CreateGuild("g")
	g := dialGateway(t, srv)
	hello, compressed := g.mustRead()
	var h struct {
		HeartbeatInterval int `json:"heartbeat_interval"`
	}
	json.Unmarshal(hello.Data, &h)
	if hello.Op != opHello || h.HeartbeatInterval != 1234 || compressed {
		t.Fatalf("hello %+v compressed %v", hello, compressed)
	}
	g.send(opIdentify, identifyPayload(srv, true))
	ready, compressed := g.mustRead()
	var r struct {
		SessionID        string `json:"session_id"`
		ResumeGatewayURL string `json:"resume_gateway_url"`
		Shard            [2]int `json:"shard"`
		Application      struct {
			ID string `json:"id"`
		} `json:"application"`
	}
	json.Unmarshal(ready.Data, &r)
	if ready.Type == nil || *ready.Type != "READY" || *ready.Seq != 1 || !compressed {
		t.Fatalf("ready %+v compressed %v", ready, compressed)
	}
	if r.SessionID == "" || r.ResumeGatewayURL != srv.ResumeGatewayURL() || r.ResumeGatewayURL == srv.GatewayURL() ||
		r.Shard != [2]int{0, 1} || r.Application.ID != srv.AppID() {
		t.Errorf("ready data %+v", r)
	}
	create, _ := g.mustRead()
	if *create.Type != "GUILD_CREATE" || *create.Seq != 2 || !bytes.Contains(create.Data, []byte(guild.ID)) {
		t.Errorf("after READY: %+v", create)
	}
	g.send(opHeartbeat, 2)
	if ack, compressed := g.mustRead(); ack.Op != opHeartbeatAck || !compressed {
		t.Errorf("heartbeat answered by %+v", ack)
	}
	g.send(opIdentify, identifyPayload(srv, true))
	if code := g.closeCode(); code != 4005 {
		t.Errorf("second IDENTIFY closed with %d, want 4005", code)
	}
}

func TestGatewayRefusals(t *testing.T) {
	srv := New(t)
	cases := []struct {
		name string
		op   int
		d    map[string]any
		code int
	}{
		{"wrong token", opIdentify, map[string]any{"token": "Bot nope", "intents": 1}, 4004},
		{"no intents", opIdentify, map[string]any{"token": srv.Token()}, 4013},
		{"shard out of range", opIdentify, map[string]any{"token": srv.Token(), "intents": 1, "shard": []int{2, 2}}, 4010},
		{"presence before identify", opPresenceUpdate, map[string]any{}, 4003},
		{"unknown opcode", 42, map[string]any{}, 4001},
	}
	for _, c := range cases {
		g := dialGateway(t, srv)
		g.mustRead() // HELLO
		g.send(c.op, c.d)
		if code := g.closeCode(); code != c.code {
			t.Errorf("%s: closed with %d, want %d", c.name, code, c.code)
		}
	}
}

func TestGatewayResumeRules(t *testing.T) {
	srv := New(t)
	g := dialGateway(t, srv)
	g.mustRead()
	g.send(opIdentify, identifyPayload(srv, false))
	g.mustRead() // READY, seq 1
	session := srv.Identifies()[0].SessionID
	// Events sent while connected are not replayed when the client has them.
	if err := srv.DispatchEvent("", "TEST_EVENT", map[string]any{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if ev, _ := g.mustRead(); *ev.Type != "TEST_EVENT" || *ev.Seq != 2 {
		t.Fatalf("event %+v", ev)
	}
	// An abrupt end keeps the session; a missed event is replayed on RESUME.
	if err := srv.DropConnection(0); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitFor("the drop", func() bool { return !srv.Connected(0) }); err != nil {
		t.Fatal(err)
	}
	if err := srv.DispatchEvent("", "TEST_EVENT", map[string]any{"n": 2}); err != nil {
		t.Fatal(err)
	}
	g = dialGateway(t, srv)
	g.mustRead()
	g.send(opResume, map[string]any{"token": srv.Token(), "session_id": session, "seq": 2})
	replayed, _ := g.mustRead()
	resumed, _ := g.mustRead()
	if *replayed.Type != "TEST_EVENT" || *replayed.Seq != 3 || *resumed.Type != "RESUMED" {
		t.Fatalf("after RESUME: %+v then %+v", replayed, resumed)
	}
	// A client close with 1000 ends the session: RESUME is refused with op 9.
	g.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	if err := srv.WaitFor("the close", func() bool { return !srv.Connected(0) }); err != nil {
		t.Fatal(err)
	}
	g = dialGateway(t, srv)
	g.mustRead()
	g.send(opResume, map[string]any{"token": srv.Token(), "session_id": session, "seq": 3})
	if invalid, _ := g.mustRead(); invalid.Op != opInvalidSession || string(invalid.Data) != "false" {
		t.Errorf("resume of a closed session answered %+v", invalid)
	}
	rs := srv.Resumes()
	if len(rs) != 2 || !rs[0].Accepted || rs[0].Replayed != 1 || rs[1].Accepted {
		t.Errorf("resume records %+v", rs)
	}
}
