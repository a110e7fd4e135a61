package fakediscord

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Gateway intents the fake honours when choosing which events to send.
const (
	intentGuilds         = 1 << 0
	intentGuildMessages  = 1 << 9
	intentDirectMessages = 1 << 12
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11
)

// IdentifyRecord is an IDENTIFY the fake accepted (it answered READY).
type IdentifyRecord struct {
	SessionID      string
	Shard          [2]int // [shard id, shard count]; [0, 1] when the client sent none
	ShardSent      bool
	Bucket         int // the identify rate-limit key: shard id % max_concurrency
	Intents        int
	Compress       bool
	LargeThreshold int
	Properties     map[string]any
	Token          string
	Query          url.Values // of the gateway URL: v, encoding, compress
	Guilds         []string   // ids of the guilds READY listed
	Time           time.Time
}

// ResumeRecord is a RESUME the bot sent.
type ResumeRecord struct {
	SessionID string
	Seq       int64 // the last sequence number the client had
	Shard     int
	Accepted  bool // false: the fake answered INVALID_SESSION
	Replayed  int  // events re-sent because the client missed them
	// OnResumeURL: the connection was dialled at READY's resume_gateway_url, as it should be.
	OnResumeURL bool
	Time        time.Time
}

// GatewayFrame is one gateway payload, either way.
type GatewayFrame struct {
	Time       time.Time
	Conn       int // connection number, from 1
	Shard      int // -1 before IDENTIFY/RESUME
	FromClient bool
	Op         int
	Type       string
	Seq        int64
	Data       json.RawMessage
}

type gatewayEvent struct {
	seq     int64
	payload []byte
}

// gatewaySession outlives connections, so that RESUME can replay what a dropped connection
// missed. mu orders dispatches: sequence numbers are assigned and written under it.
type gatewaySession struct {
	mu       sync.Mutex
	id       string
	shard    [2]int
	intents  int
	compress bool
	token    string
	seq      int64
	events   []gatewayEvent
	conn     *gatewayConn

	invalid bool // guarded by Server.mu: closed with 1000/1001 or invalidated; cannot resume
}

type gatewayConn struct {
	id int
	ws *websocket.Conn
	// resumeURL: dialled at READY's resume_gateway_url rather than GET /gateway's URL.
	resumeURL bool
	writeMu   sync.Mutex
	compress  bool // zlib-compress payloads (after IDENTIFY with compress: true)
	closeOnce sync.Once

	session *gatewaySession // guarded by Server.mu
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// gatewayPayload is the envelope of every gateway message.
type gatewayPayload struct {
	Op   int             `json:"op"`
	Data json.RawMessage `json:"d"`
	Seq  *int64          `json:"s"`
	Type *string         `json:"t"`
}

func (c *gatewayConn) write(payload []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if !c.compress {
		return c.ws.WriteMessage(websocket.TextMessage, payload)
	}
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(payload)
	zw.Close()
	return c.ws.WriteMessage(websocket.BinaryMessage, buf.Bytes())
}

// drop closes the TCP connection without a close frame, like a network failure.
func (c *gatewayConn) drop() {
	c.closeOnce.Do(func() { c.ws.Close() })
}

// closeWith sends a close frame with code, then drops the connection.
func (c *gatewayConn) closeWith(code int, reason string) {
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.drop()
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	// While the gateway is held (HoldGateway), new connections wait.
	s.mu.Lock()
	held := s.gatewayHeld
	s.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-r.Context().Done():
			return
		}
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	conn := &gatewayConn{ws: ws, resumeURL: strings.HasPrefix(r.URL.Path, "/resume")}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.connCounter++
	conn.id = s.connCounter
	s.conns[conn] = true
	s.mu.Unlock()

	query := r.URL.Query()
	if enc := query.Get("encoding"); enc != "" && enc != "json" {
		conn.closeWith(4002, "Decode error: only encoding=json is supported")
		s.connGone(conn, 0)
		return
	}
	hello, _ := json.Marshal(map[string]any{"op": opHello, "d": map[string]any{"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds()}, "s": nil, "t": nil})
	s.logFrame(conn, -1, false, hello)
	if conn.write(hello) != nil {
		s.connGone(conn, 0)
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			code := 0
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				code = ce.Code
			}
			s.connGone(conn, code)
			return
		}
		if !s.handleClientFrame(conn, query, data) {
			s.connGone(conn, 0)
			return
		}
	}
}

// handleClientFrame acts on one payload from the bot; false ends the connection.
func (s *Server) handleClientFrame(conn *gatewayConn, query url.Values, data []byte) bool {
	var p gatewayPayload
	if err := json.Unmarshal(data, &p); err != nil {
		conn.closeWith(4002, "Decode error")
		return false
	}
	s.mu.Lock()
	sess := conn.session
	s.mu.Unlock()
	shard := -1
	if sess != nil {
		shard = sess.shard[0]
	}
	s.logFrame(conn, shard, true, data)
	switch p.Op {
	case opHeartbeat:
		ack, _ := json.Marshal(map[string]any{"op": opHeartbeatAck, "d": nil, "s": nil, "t": nil})
		s.logFrame(conn, shard, false, ack)
		return conn.write(ack) == nil
	case opIdentify:
		if sess != nil {
			conn.closeWith(4005, "Already authenticated")
			return false
		}
		return s.identify(conn, query, p.Data)
	case opResume:
		return s.resume(conn, p.Data)
	case opPresenceUpdate, opRequestMembers:
		if sess == nil {
			conn.closeWith(4003, "Not authenticated")
			return false
		}
		return true
	default:
		conn.closeWith(4001, fmt.Sprintf("Unknown opcode %d", p.Op))
		return false
	}
}

func (s *Server) identify(conn *gatewayConn, query url.Values, raw json.RawMessage) bool {
	var d struct {
		Token          string         `json:"token"`
		Intents        *int           `json:"intents"`
		Shard          *[2]int        `json:"shard"`
		Compress       bool           `json:"compress"`
		LargeThreshold int            `json:"large_threshold"`
		Properties     map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		conn.closeWith(4002, "Decode error")
		return false
	}
	if strings.TrimPrefix(d.Token, "Bot ") != s.opts.Token || s.tokenReset.Load() {
		conn.closeWith(4004, "Authentication failed.")
		return false
	}
	if d.Intents == nil {
		conn.closeWith(4013, "Invalid intent(s).")
		return false
	}
	shard := [2]int{0, 1}
	if d.Shard != nil {
		shard = *d.Shard
		if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
			conn.closeWith(4010, "Invalid shard.")
			return false
		}
	}
	if ok, keep := s.admitIdentify(conn, shard); !ok {
		return keep
	}
	sess := &gatewaySession{id: randomToken(16), shard: shard, intents: *d.Intents, compress: d.Compress, token: d.Token}
	// Hold the session's lock while it is published, so no dispatch can overtake READY.
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.conn = conn
	conn.writeMu.Lock()
	conn.compress = d.Compress
	conn.writeMu.Unlock()

	s.mu.Lock()
	conn.session = sess
	s.sessions[sess.id] = sess
	s.shardOwner[shard[0]] = sess
	var guildStubs []any
	var guildIDs []string
	var guildCreates []map[string]any
	for _, gid := range s.guildOrder {
		if ShardFor(gid, shard[1]) != shard[0] {
			continue
		}
		guildIDs = append(guildIDs, gid)
		guildStubs = append(guildStubs, map[string]any{"id": gid, "unavailable": true})
		if sess.intents&intentGuilds != 0 {
			guildCreates = append(guildCreates, s.guildCreateJSONLocked(s.guilds[gid]))
		}
	}
	if guildStubs == nil {
		guildStubs = []any{}
	}
	ready := map[string]any{
		"v": 10, "user": userJSON(&s.bot), "guilds": guildStubs, "session_id": sess.id,
		"resume_gateway_url": s.ResumeGatewayURL(), "shard": shard, "session_type": "normal",
		"application": map[string]any{"id": s.bot.ID, "flags": 0}, "private_channels": []any{},
		"relationships": []any{}, "presences": []any{}, "guild_join_requests": []any{},
		"user_settings": map[string]any{}, "geo_ordered_rtc_regions": []any{}, "_trace": []any{"fakediscord"},
	}
	// Recorded before READY goes out, so that a client that has seen READY
	// always finds its IDENTIFY in the record.
	s.identifies = append(s.identifies, IdentifyRecord{
		SessionID: sess.id, Shard: shard, ShardSent: d.Shard != nil, Bucket: s.bucketOf(shard[0]), Intents: *d.Intents,
		Compress: d.Compress, LargeThreshold: d.LargeThreshold, Properties: d.Properties,
		Token: d.Token, Query: query, Guilds: guildIDs, Time: time.Now(),
	})
	s.changedLocked()
	s.mu.Unlock()

	if s.dispatchLocked(sess, "READY", ready) != nil {
		return false
	}
	for _, g := range guildCreates {
		if s.dispatchLocked(sess, "GUILD_CREATE", g) != nil {
			return false
		}
	}
	return true
}

func (s *Server) resume(conn *gatewayConn, raw json.RawMessage) bool {
	var d struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		conn.closeWith(4002, "Decode error")
		return false
	}
	s.mu.Lock()
	sess := s.sessions[d.SessionID]
	ok := sess != nil && !sess.invalid && strings.TrimPrefix(d.Token, "Bot ") == s.opts.Token && !s.tokenReset.Load()
	if sess != nil && !conn.resumeURL {
		s.gatewayFaultLocked(conn, sess.shard[0], "RESUME on the gateway's first URL, not READY's resume_gateway_url (Discord then disconnects the session more often)")
	}
	s.mu.Unlock()
	rec := ResumeRecord{SessionID: d.SessionID, Seq: d.Seq, Shard: -1, Accepted: ok, OnResumeURL: conn.resumeURL, Time: time.Now()}
	if !ok {
		invalid, _ := json.Marshal(map[string]any{"op": opInvalidSession, "d": false, "s": nil, "t": nil})
		s.logFrame(conn, -1, false, invalid)
		s.addResume(rec)
		return conn.write(invalid) == nil
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if old := sess.conn; old != nil && old != conn {
		old.drop()
	}
	sess.conn = conn
	conn.writeMu.Lock()
	conn.compress = sess.compress
	conn.writeMu.Unlock()
	s.mu.Lock()
	conn.session = sess
	s.mu.Unlock()
	rec.Shard = sess.shard[0]
	for _, e := range sess.events {
		if e.seq > d.Seq {
			rec.Replayed++
		}
	}
	// Recorded before anything is sent back: a client that has read the
	// first event replayed (an earlier RESUMED, say) or RESUMED finds its
	// resume among Resumes.
	s.addResume(rec)
	for _, e := range sess.events {
		if e.seq <= d.Seq {
			continue
		}
		s.logFrame(conn, sess.shard[0], false, e.payload)
		if conn.write(e.payload) != nil {
			return false
		}
	}
	return s.dispatchLocked(sess, "RESUMED", map[string]any{"_trace": []any{"fakediscord"}}) == nil
}

func (s *Server) addResume(r ResumeRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resumes = append(s.resumes, r)
	s.changedLocked()
}

// connGone forgets a finished connection. A client close with 1000 or 1001 ends the session
// for good, as on Discord; any other end leaves it resumable.
func (s *Server) connGone(conn *gatewayConn, clientCloseCode int) {
	conn.drop()
	s.mu.Lock()
	delete(s.conns, conn)
	sess := conn.session
	if sess != nil && (clientCloseCode == websocket.CloseNormalClosure || clientCloseCode == websocket.CloseGoingAway) {
		sess.invalid = true
		if s.shardOwner[sess.shard[0]] == sess {
			delete(s.shardOwner, sess.shard[0])
		}
	}
	s.changedLocked()
	s.mu.Unlock()
	if sess != nil {
		sess.mu.Lock()
		if sess.conn == conn {
			sess.conn = nil
		}
		sess.mu.Unlock()
		// Waiters for the drop look again now that the session has no
		// connection (Connected reads sess.conn).
		s.mu.Lock()
		s.changedLocked()
		s.mu.Unlock()
	}
}

// dispatchLocked sends (or, while disconnected, keeps for RESUME) one dispatch. The caller
// holds sess.mu.
func (s *Server) dispatchLocked(sess *gatewaySession, eventType string, d any) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	sess.seq++
	payload, _ := json.Marshal(map[string]any{"op": opDispatch, "t": eventType, "s": sess.seq, "d": json.RawMessage(data)})
	sess.events = append(sess.events, gatewayEvent{seq: sess.seq, payload: payload})
	conn := sess.conn
	if conn == nil {
		return nil
	}
	s.logFrame(conn, sess.shard[0], false, payload)
	if err := conn.write(payload); err != nil {
		conn.drop()
		return err
	}
	return nil
}

// dispatch sends an event on a session, in order with every other event of that session.
func (s *Server) dispatch(sess *gatewaySession, eventType string, d any) error {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return s.dispatchLocked(sess, eventType, d)
}

// sessionForGuildLocked is the live session whose shard receives the guild's events; DMs
// (guildID "") go to shard 0.
func (s *Server) sessionForGuildLocked(guildID string) *gatewaySession {
	for shardID, sess := range s.shardOwner {
		if sess.invalid {
			continue
		}
		if guildID == "" && shardID == 0 {
			return sess
		}
		if guildID != "" && ShardFor(guildID, sess.shard[1]) == shardID {
			return sess
		}
	}
	return nil
}

// dispatchGuildEvent sends an event to the guild's shard if a session owns it and asked for
// the intent. Without a session the event is lost, as for a bot that is offline.
func (s *Server) dispatchGuildEvent(guildID, eventType string, d any, intent int) {
	s.mu.Lock()
	sess := s.sessionForGuildLocked(guildID)
	s.mu.Unlock()
	if sess != nil && sess.intents&intent != 0 {
		s.dispatch(sess, eventType, d)
	}
}

func (s *Server) dispatchMessageEvent(guildID, eventType string, d any) {
	intent := intentGuildMessages
	if guildID == "" {
		intent = intentDirectMessages
	}
	s.dispatchGuildEvent(guildID, eventType, d, intent)
}

// DispatchEvent sends any dispatch event to the shard that owns guildID ("" for shard 0).
func (s *Server) DispatchEvent(guildID, eventType string, d any) error {
	s.mu.Lock()
	sess := s.sessionForGuildLocked(guildID)
	s.mu.Unlock()
	if sess == nil {
		return fmt.Errorf("fakediscord: no gateway session owns the shard of guild %q", guildID)
	}
	return s.dispatch(sess, eventType, d)
}

func (s *Server) logFrame(conn *gatewayConn, shard int, fromClient bool, raw []byte) {
	var p gatewayPayload
	json.Unmarshal(raw, &p)
	f := GatewayFrame{Time: time.Now(), Conn: conn.id, Shard: shard, FromClient: fromClient, Op: p.Op, Data: append(json.RawMessage(nil), p.Data...)}
	if p.Type != nil {
		f.Type = *p.Type
	}
	if p.Seq != nil {
		f.Seq = *p.Seq
	}
	s.mu.Lock()
	s.gatewayLog = append(s.gatewayLog, f)
	s.changedLocked()
	s.mu.Unlock()
}

// shardConn is the current connection of the session that owns a shard.
func (s *Server) shardConn(shard int) (*gatewaySession, *gatewayConn, error) {
	s.mu.Lock()
	sess := s.shardOwner[shard]
	s.mu.Unlock()
	if sess == nil {
		return nil, nil, fmt.Errorf("fakediscord: no gateway session for shard %d", shard)
	}
	sess.mu.Lock()
	conn := sess.conn
	sess.mu.Unlock()
	if conn == nil {
		return sess, nil, fmt.Errorf("fakediscord: shard %d is not connected", shard)
	}
	return sess, conn, nil
}

// DropConnection cuts a shard's connection without a close frame, like a network failure.
// The session stays resumable: the bot should reconnect and RESUME.
func (s *Server) DropConnection(shard int) error {
	_, conn, err := s.shardConn(shard)
	if err != nil {
		return err
	}
	conn.drop()
	return nil
}

// HoldGateway makes new gateway connections wait until the returned release is called (the
// connections already open go on): a bot that lost its connection stays away meanwhile, and
// what is dispatched to it is kept for its RESUME.
func (s *Server) HoldGateway() (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.gatewayHeld = ch
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.gatewayHeld = nil
			s.mu.Unlock()
			close(ch)
		})
	}
}

// SendReconnect sends op 7 RECONNECT: the bot should reconnect and RESUME.
func (s *Server) SendReconnect(shard int) error {
	_, conn, err := s.shardConn(shard)
	if err != nil {
		return err
	}
	msg, _ := json.Marshal(map[string]any{"op": opReconnect, "d": nil, "s": nil, "t": nil})
	s.logFrame(conn, shard, false, msg)
	return conn.write(msg)
}

// InvalidateSession sends op 9 INVALID_SESSION (not resumable) and forgets the session: the
// bot must IDENTIFY again.
func (s *Server) InvalidateSession(shard int) error { return s.InvalidSession(shard, false) }

// InvalidSession sends op 9 INVALID_SESSION with d = resumable on a shard's connection. Not
// resumable, the session is forgotten and the bot must IDENTIFY again; resumable, the session
// stays and the bot may reconnect and RESUME it.
func (s *Server) InvalidSession(shard int, resumable bool) error {
	sess, conn, err := s.shardConn(shard)
	if err != nil {
		return err
	}
	if !resumable {
		s.mu.Lock()
		sess.invalid = true
		delete(s.shardOwner, shard)
		conn.session = nil
		s.mu.Unlock()
	}
	msg, _ := json.Marshal(map[string]any{"op": opInvalidSession, "d": resumable, "s": nil, "t": nil})
	s.logFrame(conn, shard, false, msg)
	return conn.write(msg)
}

// Identifies lists the accepted IDENTIFYs, oldest first.
func (s *Server) Identifies() []IdentifyRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]IdentifyRecord(nil), s.identifies...)
}

// Resumes lists the RESUMEs, oldest first.
func (s *Server) Resumes() []ResumeRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ResumeRecord(nil), s.resumes...)
}

// GatewayFrames lists every gateway payload both ways, oldest first.
func (s *Server) GatewayFrames() []GatewayFrame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]GatewayFrame(nil), s.gatewayLog...)
}

// Heartbeats counts the heartbeats the bot sent on a shard's connections.
func (s *Server) Heartbeats(shard int) int {
	n := 0
	for _, f := range s.GatewayFrames() {
		if f.FromClient && f.Op == opHeartbeat && f.Shard == shard {
			n++
		}
	}
	return n
}

// WaitReady waits until a shard has identified and been sent READY, and returns the newest
// IDENTIFY of that shard.
func (s *Server) WaitReady(shard int) (IdentifyRecord, error) {
	var rec IdentifyRecord
	err := s.WaitFor(fmt.Sprintf("READY on shard %d", shard), func() bool {
		for _, r := range s.Identifies() {
			if r.Shard[0] == shard {
				rec = r
			}
		}
		return rec.SessionID != ""
	})
	return rec, err
}

// WaitResumes waits until at least n RESUMEs were accepted and returns them all.
func (s *Server) WaitResumes(n int) ([]ResumeRecord, error) {
	var accepted []ResumeRecord
	err := s.WaitFor(fmt.Sprintf("%d accepted RESUME(s)", n), func() bool {
		accepted = accepted[:0]
		for _, r := range s.Resumes() {
			if r.Accepted {
				accepted = append(accepted, r)
			}
		}
		return len(accepted) >= n
	})
	return accepted, err
}

// Connected reports whether the session owning a shard has a live connection.
func (s *Server) Connected(shard int) bool {
	_, _, err := s.shardConn(shard)
	return err == nil
}
