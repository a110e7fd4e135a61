package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"conductor/commands"
)

// Live updates: each open page holds a WebSocket (the one real-time
// transport Discord's proxy documents). A change of a table wakes its
// room; the room builds each reader's frame (one per seated reader, one
// per language for spectators) and leaves it in the connection's one-slot
// mailbox. A connection's own writer sends it: a reader that never reads
// only ever holds its latest frame, and delays no move and no other page.

// WebSocket close codes the page understands.
const (
	closeNoHello   = 4001 // no hello in time, or a bad one
	closeOver      = 4003 // the game is over or gone
	closeForgotten = 4004 // the session ended (the server's games were forgotten, or it expired)
	closeTooMany   = 4008 // too many pages open
)

const (
	helloWithin  = 5 * time.Second
	writeWithin  = 10 * time.Second
	pingEvery    = 25 * time.Second // Discord's proxy is Cloudflare's: its idle limits are not documented
	readIdle     = 70 * time.Second
	maxWSMessage = 4096
)

// Socket budgets. A user holds at most maxPerUser pages open on the whole
// server, and a game at most maxPerGame; of a game's, seats × maxPerUser
// are kept for its seated players, so spectators, however many accounts
// they bring, never take a player's place. A page refused (4008) falls
// back to polling /api/state.
const (
	maxPerGame = 256
	maxPerUser = 8
)

// spectatorRoom is how many of a game's pages spectators may hold.
func spectatorRoom(seats int) int { return maxPerGame - seats*maxPerUser }

var upgrader = websocket.Upgrader{
	ReadBufferSize:  1024,
	WriteBufferSize: 4096,
	// Discord's proxy serves the page and the socket from the same
	// origin; a page elsewhere has no session to send anyway.
	CheckOrigin: func(r *http.Request) bool { return true },
}

type hub struct {
	s *Server

	mu     sync.Mutex
	rooms  map[string]*room // by channel
	users  map[string]int   // open connections per user
	waits  signals          // the long polls, woken at a table's change
	closed bool
}

func newHub(s *Server) *hub {
	return &hub{s: s, rooms: map[string]*room{}, users: map[string]int{}}
}

// room is the open pages of one game's channel.
type room struct {
	channel    string
	wake       chan struct{} // one slot: a change is waiting to be sent
	conns      map[*conn]struct{}
	spectators int // of conns, the pages of readers without a seat
}

// conn is one open page.
type conn struct {
	ws     *websocket.Conn
	srv    *Server
	sess   *session
	seated bool // its reader held a seat when it joined
	room   *room
	// key names the page in the database's count of open pages
	// (fleet.go); "" on bbolt.
	key string

	mu      sync.Mutex
	next    []byte // the latest frame not yet written
	sent    uint64 // the version of the last frame queued
	closing *closeMsg
	ready   chan struct{} // one slot: something to write
	done    chan struct{}
	once    sync.Once
}

type closeMsg struct {
	code int
	text string
}

// changed is told by the service, outside any lock, that a table
// changed: wake the room of that channel, and the long polls.
func (h *hub) changed(channel string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.waits.fire(channel)
	if r := h.rooms[channel]; r != nil {
		// Under the lock: leave closes wake under it too.
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
}

// waitChange returns a channel closed at the next change of a table.
func (h *hub) waitChange(channel string) <-chan struct{} {
	return h.waits.next(channel)
}

// serveWS upgrades a page's connection; the page then says hello with its
// session within helloWithin.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	ws.SetReadLimit(maxWSMessage)
	ws.SetReadDeadline(time.Now().Add(helloWithin))
	var hello struct {
		Hello string `json:"hello"`
	}
	_, msg, err := ws.ReadMessage()
	if err == nil {
		err = json.Unmarshal(msg, &hello)
	}
	sess := s.sessionOf(hello.Hello)
	if err != nil || sess == nil {
		closeWS(ws, closeNoHello, "no session")
		return
	}
	channel, game := sess.bound()
	if channel == "" {
		closeWS(ws, closeNoHello, "no game picked")
		return
	}
	seated, seats, err := s.checkReader(r.Context(), sess)
	c := &conn{ws: ws, srv: s, sess: sess, seated: seated, ready: make(chan struct{}, 1), done: make(chan struct{})}
	switch {
	case errors.Is(err, errGameOver):
		f := overFrame{Type: "over", Text: s.textOver(sess.lang), Replay: s.replayPath(sess.guild, game)}
		data, _ := json.Marshal(f)
		ws.SetWriteDeadline(time.Now().Add(writeWithin))
		ws.WriteMessage(websocket.TextMessage, data)
		closeWS(ws, closeOver, "game over")
		return
	case errors.Is(err, errNotInInstance):
		s.dropSession(sess)
		closeWS(ws, closeNoHello, "not in the activity")
		return
	case err != nil:
		s.log.Error("checking a page's reader", "err", err)
		closeWS(ws, websocket.CloseInternalServerErr, "try again")
		return
	}
	// The budgets hold across processes (fleet.go), then here.
	if !s.joinShared(c, channel, seats) {
		closeWS(ws, closeTooMany, errTooMany.Error())
		return
	}
	defer s.leaveShared(c)
	if err := s.hub.join(c, channel, seats); err != nil {
		closeWS(ws, closeTooMany, err.Error())
		return
	}
	s.goSafe("writing to a page", c.writeLoop, c.stop)
	s.hub.sendFirst(c)
	c.readLoop()
	s.hub.leave(c)
}

func closeWS(ws *websocket.Conn, code int, text string) {
	ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	ws.Close()
}

var errTooMany = errors.New("too many pages open")

// join puts a connection in its game's room, starting the room's worker,
// within the budgets of its user and of its game (of seats seats).
func (h *hub) join(c *conn, channel string, seats int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return errors.New("stopping")
	}
	r := h.rooms[channel]
	if r == nil {
		r = &room{channel: channel, wake: make(chan struct{}, 1), conns: map[*conn]struct{}{}}
		h.rooms[channel] = r
		h.s.goSafe("a room's worker", func() { h.run(r) }, nil)
	}
	full := len(r.conns) >= maxPerGame
	if !c.seated {
		full = full || r.spectators >= spectatorRoom(seats)
	}
	if full || h.users[c.sess.user] >= maxPerUser {
		if len(r.conns) == 0 {
			delete(h.rooms, channel)
			close(r.wake)
		}
		return errTooMany
	}
	r.conns[c] = struct{}{}
	if !c.seated {
		r.spectators++
	}
	h.users[c.sess.user]++
	c.room = r
	return nil
}

// leave takes a connection out; the last one out stops the room.
func (h *hub) leave(c *conn) {
	c.stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	r := c.room
	if r == nil {
		return
	}
	if _, ok := r.conns[c]; !ok {
		return
	}
	delete(r.conns, c)
	if !c.seated {
		r.spectators--
	}
	if h.users[c.sess.user]--; h.users[c.sess.user] <= 0 {
		delete(h.users, c.sess.user)
	}
	if len(r.conns) == 0 && h.rooms[r.channel] == r {
		delete(h.rooms, r.channel)
		close(r.wake)
	}
}

// run is a room's worker: each wake sends every page its frame. A panic
// in one broadcast is logged and the worker goes on.
func (h *hub) run(r *room) {
	for range r.wake {
		h.broadcastSafely(r)
	}
}

func (h *hub) broadcastSafely(r *room) {
	defer func() {
		if v := recover(); v != nil {
			h.s.logPanic("sending a room its frames", v)
		}
	}()
	h.broadcast(r)
}

// members lists a room's connections.
func (h *hub) members(r *room) []*conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*conn, 0, len(r.conns))
	for c := range r.conns {
		out = append(out, c)
	}
	return out
}

// frameKey says which readers share a frame: a seated reader has one of
// their own; spectators of one language share theirs.
type frameKey struct{ user, lang string }

// broadcast builds and queues the frame of every page of a room.
func (h *hub) broadcast(r *room) {
	conns := h.members(r)
	if len(conns) == 0 {
		return
	}
	built := map[frameKey][]byte{}
	versions := map[frameKey]uint64{}
	var seats map[string]bool
	var game string
	now := h.s.opts.Now()
	for _, c := range conns {
		if !c.sess.live(now) {
			c.finish(closeNoHello, "session expired")
			continue
		}
		if seats == nil {
			v, err := h.s.svc.View(r.channel, "", c.sess.lang)
			if err != nil {
				h.gameGone(conns, err)
				return
			}
			seats, game = map[string]bool{}, v.Game
			for _, st := range v.Seats {
				if st.User != "" {
					seats[st.User] = true
				}
			}
		}
		if _, mine := c.sess.bound(); mine != game {
			// A new game in the channel: this page's game is over.
			h.gameGone([]*conn{c}, commands.ErrNoGame)
			continue
		}
		key := frameKey{lang: c.sess.lang}
		if seats[c.sess.user] {
			key.user = c.sess.user
		}
		data, ok := built[key]
		if !ok {
			f, err := h.s.frameFor(r.channel, key.user, key.lang)
			if err != nil {
				h.gameGone(conns, err)
				return
			}
			if data, err = json.Marshal(f); err != nil {
				h.s.log.Error("encoding a frame", "err", err)
				return
			}
			built[key], versions[key] = data, f.Version
		}
		c.offer(data, versions[key], false)
	}
}

// frameFor builds a reader's frame of a channel's game.
func (s *Server) frameFor(channel, user, lang string) (*stateFrame, error) {
	v, err := s.svc.View(channel, user, lang)
	if err != nil {
		return nil, err
	}
	f := buildFrame(v, lang, user, svgURL(v.Board, v.Variant, lang))
	f.Origin = s.proc
	return f, nil
}

// gameGone tells every page of a room that its game is over (or gone)
// and closes them.
func (h *hub) gameGone(conns []*conn, err error) {
	if !errors.Is(err, commands.ErrNoGame) {
		h.s.log.Error("building a page's frame", "err", err)
		return
	}
	for _, c := range conns {
		_, game := c.sess.bound()
		f := overFrame{Type: "over", Text: h.s.textOver(c.sess.lang), Replay: h.s.replayPath(c.sess.guild, game)}
		data, _ := json.Marshal(f)
		c.offer(data, 0, true)
		c.finish(closeOver, "game over")
	}
}

// sendFirst queues a new page's first frame.
func (h *hub) sendFirst(c *conn) {
	channel, _ := c.sess.bound()
	f, err := h.s.frameFor(channel, c.sess.user, c.sess.lang)
	if _, game := c.sess.bound(); err == nil && f.Game != game {
		err = commands.ErrNoGame
	}
	if err != nil {
		h.gameGone([]*conn{c}, err)
		return
	}
	data, err := json.Marshal(f)
	if err == nil {
		// Not forced: a newer frame a change queued meanwhile stays.
		c.offer(data, f.Version, false)
	}
}

// endSession closes the pages of a session.
func (h *hub) endSession(sess *session, code int, text string) {
	h.mu.Lock()
	var mine []*conn
	for _, r := range h.rooms {
		for c := range r.conns {
			if c.sess == sess {
				mine = append(mine, c)
			}
		}
	}
	h.mu.Unlock()
	for _, c := range mine {
		c.finish(code, text)
	}
}

// closeAll closes every page (the server stops).
func (h *hub) closeAll() {
	h.mu.Lock()
	h.closed = true
	var all []*conn
	for _, r := range h.rooms {
		for c := range r.conns {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	for _, c := range all {
		c.finish(websocket.CloseGoingAway, "restarting")
	}
}

// offer leaves a frame in the connection's mailbox, replacing one not yet
// written. Unless forced, a version the page was already given is not
// given again.
func (c *conn) offer(data []byte, version uint64, force bool) {
	c.mu.Lock()
	if !force && version <= c.sent {
		c.mu.Unlock()
		return
	}
	c.next = data
	c.sent = max(c.sent, version)
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// finish has the writer send what is queued, then close with code.
func (c *conn) finish(code int, text string) {
	c.mu.Lock()
	if c.closing == nil {
		c.closing = &closeMsg{code, text}
	}
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

func (c *conn) stop() { c.once.Do(func() { close(c.done) }) }

// writeLoop writes the connection's frames and pings, one at a time.
func (c *conn) writeLoop() {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	defer c.ws.Close()
	for {
		select {
		case <-c.done:
			return
		case <-ping.C:
			// An open page is a session in use; past its lifetime it ends.
			// A session ended by another process ends here within a ping.
			now := c.srv.opts.Now()
			if !c.sess.live(now) {
				c.finish(closeNoHello, "session expired")
				continue
			}
			if !c.srv.recheck(c.sess, now) {
				c.finish(closeForgotten, "session ended")
				continue
			}
			c.sess.touch(now)
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWithin)); err != nil {
				c.stop()
				return
			}
		case <-c.ready:
			c.mu.Lock()
			data, closing := c.next, c.closing
			c.next = nil
			c.mu.Unlock()
			if data != nil {
				c.ws.SetWriteDeadline(time.Now().Add(writeWithin))
				if err := c.ws.WriteMessage(websocket.TextMessage, data); err != nil {
					c.stop()
					return
				}
			}
			if closing != nil {
				c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closing.code, closing.text), time.Now().Add(time.Second))
				c.stop()
				return
			}
		}
	}
}

// readLoop reads (and ignores) what the page sends, to see pongs and the
// page going away.
func (c *conn) readLoop() {
	c.ws.SetReadDeadline(time.Now().Add(readIdle))
	c.ws.SetPongHandler(func(string) error {
		c.ws.SetReadDeadline(time.Now().Add(readIdle))
		return nil
	})
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			return
		}
		c.ws.SetReadDeadline(time.Now().Add(readIdle))
	}
}
