package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// The bot keeps its own gateway client, one connection per shard, rather than discordgo's
// (Session.Open), which cannot be made to log in as Discord asks (discordgo v0.29, wsapi.go):
//
//   - after op 9 it sends IDENTIFY again at once, on the same connection, whatever d says: no
//     back-off, no resume when d is true, and no way to wait for the shard's bucket;
//   - it resumes on the URL it first dialled, never on READY's resume_gateway_url (it keeps
//     that URL in an unexported field);
//   - IDENTIFY is sent inside Open, under the session's lock, and again from its reconnect
//     loop: nothing outside can pace it by bucket or by the session starts left;
//   - after a missed heartbeat ACK it closes with 1000, which ends the session on Discord's
//     side, so the RESUME that follows fails and becomes an IDENTIFY.
//
// discordgo stays the REST client. What the bot needs of the gateway is small: HELLO,
// heartbeats, IDENTIFY or RESUME, READY, RESUMED, INTERACTION_CREATE, op 1, 7 and 9 and the
// close codes (Gateway; Opcodes and Status Codes).

// Gateway opcodes.
const (
	gwDispatch       = 0
	gwHeartbeat      = 1
	gwIdentify       = 2
	gwResume         = 6
	gwReconnect      = 7
	gwInvalidSession = 9
	gwHello          = 10
	gwHeartbeatACK   = 11
)

// gatewayQuery is asked of every connection: the API version and the encoding (a resume
// must ask the same as the first connection).
const gatewayQuery = "?v=" + APIVersion + "&encoding=json"

// Bounds of a connection: the dial and the HELLO, a message's size (READY lists every server
// of the shard: 2,500 at most).
const (
	gatewayDialTimeout = 30 * time.Second
	gatewayReadLimit   = 16 << 20
)

// closeResumable is the close code the bot sends when it means to resume: any but 1000 and
// 1001, which end the session.
const closeResumable = 4000

// gatewayPayload is the envelope of every gateway message.
type gatewayPayload struct {
	Op   int             `json:"op"`
	Data json.RawMessage `json:"d"`
	Seq  *int64          `json:"s,omitempty"`
	Type string          `json:"t,omitempty"`
}

// readyEvent is what the bot reads of READY.
type readyEvent struct {
	SessionID        string          `json:"session_id"`
	ResumeGatewayURL string          `json:"resume_gateway_url"`
	User             *discordgo.User `json:"user"`
	Application      *struct {
		ID string `json:"id"`
	} `json:"application"`
	Guilds []struct {
		ID string `json:"id"`
	} `json:"guilds"`
}

// gatewayFatal is a close code after which reconnecting cannot help: the bot's settings must
// change (Opcodes and Status Codes: "Reconnect: false").
func gatewayFatal(code int, shard, count int) error {
	switch code {
	case 4004:
		//lint:ignore ST1005 the message starts with a name, Discord, which is capitalised
		return errors.New("Discord refused the token on the gateway (4004 Authentication failed): check DISCORD_TOKEN")
	case 4010:
		return fmt.Errorf("shard [%d, %d] refused by Discord (4010 Invalid shard): the count must be the one GET /gateway/bot recommends (or a multiple of what Discord assigned a large bot); set CONDUCTOR_SHARD_COUNT=auto", shard, count)
	case 4011:
		return fmt.Errorf("more shards needed (4011 Sharding required): shard %d of %d would hold more than 2,500 servers; set CONDUCTOR_SHARD_COUNT=auto (or the count GET /gateway/bot recommends)", shard, count)
	case 4012:
		return errors.New("gateway version refused by Discord (4012 Invalid API version)")
	case 4013, 4014:
		return fmt.Errorf("gateway intents refused by Discord (%d)", code)
	}
	return nil
}

// shardState says what a shard is doing, for /healthz.
const (
	stateStarting   = "waiting for its turn to log in"
	stateLimit      = "waiting for Discord's gateway logins to renew"
	stateConnecting = "connecting"
	stateLoggingIn  = "logging in"
	stateResuming   = "resuming"
	stateConnected  = "connected"
	stateBackingOff = "reconnecting"
	stateStopped    = "stopped"
)

// shardConn is one shard's gateway connection, reconnected until the bot closes.
type shardConn struct {
	b         *Bot
	id, count int

	seq atomic.Int64 // the last dispatch's sequence number

	mu        sync.Mutex
	ws        *websocket.Conn
	writeMu   sync.Mutex // gorilla/websocket takes one writer at a time
	sessionID string
	resumeURL string
	state     string
	connected bool // READY or RESUMED seen on the current connection
	lastAck   time.Time
	ackWanted bool // a heartbeat sent and not acknowledged yet
	downSince time.Time
	err       error // why the shard stopped, or why its last connection failed
	closing   bool

	interactions, logins, resumes atomic.Int64
	done                          chan struct{} // closed when run returns
}

func newShardConn(b *Bot, id, count int) *shardConn {
	return &shardConn{b: b, id: id, count: count, state: stateStarting, done: make(chan struct{})}
}

func (c *shardConn) setState(s string) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
}

// run keeps the shard connected until ctx ends or Discord refuses it for good.
func (c *shardConn) run(ctx context.Context) {
	defer close(c.done)
	failures := 0
	for ctx.Err() == nil {
		out := c.connect(ctx)
		if ctx.Err() != nil {
			break
		}
		if out.fatal != nil {
			c.mu.Lock()
			c.state, c.err = stateStopped, out.fatal
			if c.downSince.IsZero() {
				c.downSince = time.Now()
			}
			c.mu.Unlock()
			c.b.log.Error("gateway shard stopped", "shard", c.id, "err", out.fatal)
			c.b.shardFailed(out.fatal)
			return
		}
		var wait time.Duration
		switch {
		case out.invalid:
			// Discord once asked for a random 1 to 5 s before a new IDENTIFY (the pace of
			// a bucket, 5 s): a fleet invalidated at once does not come back at once.
			wait = c.b.invalidSessionBackoff()
			failures = 0
		case out.established:
			failures = 0 // it worked: try again at once
		default:
			failures++
			wait = reconnectBackoff(failures)
			if out.unreachable && failures >= resumeDialTries {
				// "If you cannot reconnect or the reconnect fails, you should open a new
				// connection using the URL from the initial call" (Gateway → Handling a
				// Disconnect): the session is given up for a login.
				c.forgetSession()
			}
		}
		if wait > 0 {
			c.setState(stateBackingOff)
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
	}
	c.mu.Lock()
	c.state = stateStopped
	c.mu.Unlock()
}

// reconnectBackoff is the wait before the attempt after n failed ones in a row: 1 s doubling
// to a minute, drawn between half and all of it.
func reconnectBackoff(n int) time.Duration {
	d := time.Second << min(n-1, 6)
	d = min(d, time.Minute)
	return d/2 + rand.N(d/2+1)
}

// resumeDialTries failed dials of the resume URL in a row give the session up.
const resumeDialTries = 3

// outcome is how a connection ended.
type outcome struct {
	established bool  // READY or RESUMED came: reconnect at once
	invalid     bool  // op 9: back off before logging in (or resuming) again
	unreachable bool  // the dial failed
	fatal       error // stop the shard
}

// forgetSession drops the session: the next connection logs in.
func (c *shardConn) forgetSession() {
	c.mu.Lock()
	c.sessionID, c.resumeURL = "", ""
	c.mu.Unlock()
	c.seq.Store(0)
}

// connect makes one connection: it logs in (or resumes), then reads until the connection
// ends.
func (c *shardConn) connect(ctx context.Context) outcome {
	c.mu.Lock()
	resume, url := c.sessionID != "", c.b.gatewayURL
	if resume && c.resumeURL != "" {
		url = c.resumeURL
	}
	c.mu.Unlock()
	var release func(time.Time)
	if !resume {
		var err error
		c.setState(stateStarting)
		if release, err = c.b.acquireLogin(ctx, c); err != nil {
			return outcome{}
		}
		defer func() { release(time.Time{}) }() // no-op once the IDENTIFY was sent
	}
	c.setState(stateConnecting)
	ws, err := c.dial(ctx, url)
	if err != nil {
		if ctx.Err() != nil {
			return outcome{} // the bot closes
		}
		c.noteFailure(err)
		c.b.log.Warn("gateway connection failed", "shard", c.id, "err", err)
		return outcome{unreachable: true}
	}
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		ws.Close()
		return outcome{}
	}
	c.ws = ws
	c.mu.Unlock()
	defer c.disconnected(ws)

	ws.SetReadDeadline(time.Now().Add(gatewayDialTimeout))
	var hello struct {
		HeartbeatInterval int64 `json:"heartbeat_interval"`
	}
	p, err := readPayload(ws)
	if err == nil && (p.Op != gwHello || json.Unmarshal(p.Data, &hello) != nil || hello.HeartbeatInterval <= 0) {
		err = fmt.Errorf("expected HELLO, got op %d", p.Op)
	}
	if err != nil {
		c.noteFailure(err)
		c.b.log.Warn("gateway connection failed", "shard", c.id, "err", err)
		return c.closed(err, false)
	}
	ws.SetReadDeadline(time.Time{})
	interval := time.Duration(hello.HeartbeatInterval) * time.Millisecond

	replayed := 0
	if resume {
		c.setState(stateResuming)
		c.mu.Lock()
		d := map[string]any{"token": c.b.gatewayToken(), "session_id": c.sessionID, "seq": c.seq.Load()}
		c.mu.Unlock()
		err = c.write(ws, gwResume, d)
	} else {
		c.setState(stateLoggingIn)
		err = c.write(ws, gwIdentify, map[string]any{"token": c.b.gatewayToken(), "intents": 0, "shard": [2]int{c.id, c.count},
			"properties": map[string]string{"os": runtime.GOOS, "browser": "conductor", "device": "conductor"}})
		if err == nil {
			release(time.Now())
			c.logins.Add(1)
		}
	}
	if err != nil {
		return c.closed(err, false)
	}

	hbCtx, stopHeartbeats := context.WithCancel(ctx)
	defer stopHeartbeats()
	go c.heartbeat(hbCtx, ws, interval)

	established := false
	for {
		p, err := readPayload(ws)
		if err != nil {
			return c.closed(err, established)
		}
		switch p.Op {
		case gwDispatch:
			if p.Seq != nil {
				c.seq.Store(*p.Seq)
			}
			switch p.Type {
			case "READY":
				var r readyEvent
				if err := json.Unmarshal(p.Data, &r); err != nil || r.SessionID == "" {
					c.b.log.Warn("gateway READY unreadable", "shard", c.id, "err", err)
					c.closeWith(ws, closeResumable)
					return outcome{}
				}
				c.mu.Lock()
				c.sessionID, c.resumeURL = r.SessionID, r.ResumeGatewayURL
				c.connected, c.downSince, c.err, c.state, c.lastAck = true, time.Time{}, nil, stateConnected, time.Now()
				c.mu.Unlock()
				established = true
				c.b.log.Info("gateway shard ready", "shard", c.id, "of", c.count, "guilds", len(r.Guilds))
				c.b.onShardReady(c, &r)
			case "RESUMED":
				c.mu.Lock()
				c.connected, c.downSince, c.err, c.state, c.lastAck = true, time.Time{}, nil, stateConnected, time.Now()
				c.mu.Unlock()
				established = true
				c.resumes.Add(1)
				// The events a RESUME replays come before RESUMED; they are counted, never
				// logged (an interaction carries a player's choice).
				c.b.log.Info("gateway shard resumed", "shard", c.id, "replayed", replayed)
			case "INTERACTION_CREATE":
				if resume && !established {
					replayed++
				}
				c.interactions.Add(1)
				ic := &discordgo.InteractionCreate{}
				if err := json.Unmarshal(p.Data, ic); err != nil || ic.Interaction == nil {
					c.b.log.Warn("an interaction could not be read", "shard", c.id, "err", err)
					continue
				}
				go c.b.onInteraction(ic, p.Data)
			default:
				if resume && !established {
					replayed++
				}
			}
		case gwHeartbeat:
			if err := c.write(ws, gwHeartbeat, c.seqOrNil()); err != nil {
				return c.closed(err, established)
			}
		case gwHeartbeatACK:
			c.mu.Lock()
			c.lastAck, c.ackWanted = time.Now(), false
			c.mu.Unlock()
		case gwReconnect:
			c.b.log.Info("Discord asked the shard to reconnect (op 7): resuming", "shard", c.id)
			c.closeWith(ws, closeResumable)
			return outcome{established: true}
		case gwInvalidSession:
			var resumable bool
			json.Unmarshal(p.Data, &resumable)
			if !resumable {
				c.forgetSession()
			}
			c.b.log.Warn("Discord invalidated the gateway session (op 9): backing off before logging in again", "shard", c.id, "resumable", resumable)
			c.closeWith(ws, closeResumable)
			return outcome{invalid: true}
		}
	}
}

func (c *shardConn) seqOrNil() any {
	if s := c.seq.Load(); s > 0 {
		return s
	}
	return nil
}

func (c *shardConn) dial(ctx context.Context, url string) (*websocket.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, gatewayDialTimeout)
	defer cancel()
	ws, resp, err := c.b.dialer.DialContext(dctx, url+gatewayQuery, nil)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(gatewayReadLimit)
	return ws, nil
}

func readPayload(ws *websocket.Conn) (gatewayPayload, error) {
	var p gatewayPayload
	mt, data, err := ws.ReadMessage()
	if err != nil {
		return p, err
	}
	if mt != websocket.TextMessage {
		return p, errors.New("a binary gateway message (compression was not asked for)")
	}
	return p, json.Unmarshal(data, &p)
}

// write sends one payload.
func (c *shardConn) write(ws *websocket.Conn, op int, d any) error {
	b, err := json.Marshal(map[string]any{"op": op, "d": d})
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return ws.WriteMessage(websocket.TextMessage, b)
}

// closeWith writes a close frame and closes the socket.
func (c *shardConn) closeWith(ws *websocket.Conn, code int) {
	c.writeMu.Lock()
	ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
	c.writeMu.Unlock()
	ws.Close()
}

// heartbeat beats every interval, the first after a random part of it (Gateway → Sending
// Heartbeats). A beat whose predecessor Discord did not acknowledge means a dead ("zombied")
// connection: it is closed with a code that keeps the session, to be resumed.
func (c *shardConn) heartbeat(ctx context.Context, ws *websocket.Conn, interval time.Duration) {
	wait := rand.N(interval)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = interval
		c.mu.Lock()
		zombie := c.ackWanted
		c.ackWanted = true
		c.mu.Unlock()
		if zombie {
			c.b.log.Warn("gateway heartbeat not acknowledged: reconnecting", "shard", c.id)
			c.closeWith(ws, closeResumable)
			return
		}
		if c.write(ws, gwHeartbeat, c.seqOrNil()) != nil {
			ws.Close()
			return
		}
	}
}

// closed is the outcome of a connection that ended with err.
func (c *shardConn) closed(err error, established bool) outcome {
	var ce *websocket.CloseError
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if closing || !errors.As(err, &ce) {
		return outcome{established: established}
	}
	if fatal := gatewayFatal(ce.Code, c.id, c.count); fatal != nil {
		return outcome{fatal: fatal}
	}
	if ce.Code == websocket.CloseAbnormalClosure {
		c.b.log.Warn("gateway connection lost", "shard", c.id, "err", ce.Text)
	} else {
		c.b.log.Warn("Discord closed the gateway connection", "shard", c.id, "code", ce.Code, "reason", ce.Text)
	}
	if ce.Code == 4007 || ce.Code == 4009 {
		// Invalid seq, session timed out: the session is over; log in again.
		c.forgetSession()
	}
	return outcome{established: established}
}

// disconnected forgets a connection that ended.
func (c *shardConn) disconnected(ws *websocket.Conn) {
	ws.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ws == ws {
		c.ws = nil
	}
	if c.connected && !c.closing {
		c.downSince = time.Now()
		c.b.log.Warn("gateway disconnected", "shard", c.id)
	}
	c.connected, c.ackWanted = false, false
}

func (c *shardConn) noteFailure(err error) {
	c.mu.Lock()
	c.err = err
	if c.downSince.IsZero() && c.state != stateStarting {
		c.downSince = time.Now()
	}
	c.mu.Unlock()
}

// close ends the shard's connection with 1000, which ends its session (the process is
// stopping), and returns once the close frame is written.
func (c *shardConn) close() {
	c.mu.Lock()
	c.closing = true
	ws := c.ws
	c.mu.Unlock()
	if ws != nil {
		c.closeWith(ws, websocket.CloseNormalClosure)
	}
}
