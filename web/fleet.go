package web

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"conductor/commands"
	"conductor/store"
)

// Several processes on one PostgreSQL database (docs/scale.md). Discord
// maps the Activity to one address, in front of which any process may
// answer a page's request; each game's table is owned by one process
// (commands.Service.Owns). So:
//
//   - the launches and the sessions are in the database (store/shared.go:
//     a session by a hash of its token, never the token), each process
//     keeping the ones it used in memory and reading them again at most
//     sessionRecheck later, so that a session ended anywhere ends here;
//   - a page's move for a game another process owns is posted to the
//     database, which announces it (LISTEN/NOTIFY): the owner takes it,
//     plays it once (its id is the page's nonce) and posts the answer,
//     announced the same way; the page waits for it up to forwardWait;
//   - every change of a game is announced to every process: a process
//     reads the game again (commands.Service.Refresh) and its open pages
//     get their frames.
//
// On bbolt (one process) all of this stays in memory as before.

const (
	// sessionRecheck: how long a process trusts its memory of a session
	// before reading the database again.
	sessionRecheck = 5 * time.Second
	// seenWritten: how stale the last use written to the database may be.
	seenWritten = time.Minute
	// forwardWait: how long a page's move waits for the owner's answer;
	// answerKept how long the answer is kept for a repeated request.
	forwardWait = 8 * time.Second
	answerKept  = 10 * time.Minute
	// sweepEvery: how often a process looks for moves posted for its
	// tables whose announcement it missed, and removes expired records.
	sweepEvery  = 2 * time.Second
	expireEvery = time.Minute
)

// sharedSession is a session as the database keeps it.
type sharedSession struct {
	ID         string    `json:"id"`
	User       string    `json:"user"`
	Name       string    `json:"name"`
	Lang       string    `json:"lang"`
	Guild      string    `json:"guild"`
	Instance   string    `json:"instance"`
	Location   string    `json:"location"`
	InInstance bool      `json:"in_instance"`
	Created    time.Time `json:"created"`
	Seen       time.Time `json:"seen"`
	Channel    string    `json:"channel"`
	Game       string    `json:"game"`
}

// shared is the database the records are kept in, nil on bbolt.
func (s *Server) shared() *store.Store {
	if s.opts.Store.Backend() == "postgres" {
		return s.opts.Store
	}
	return nil
}

func storedOf(sess *session) sharedSession {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sharedSession{ID: sess.id, User: sess.user, Name: sess.name, Lang: sess.lang, Guild: sess.guild,
		Instance: sess.instance, Location: sess.location, InInstance: sess.inInstance, Created: sess.created,
		Seen: sess.seen, Channel: sess.channel, Game: sess.game}
}

// hashKey is the key of a session in the database: the hash of its token.
func hashKey(tokKey string) string { return hexOf(tokKey) }

// storeSession keeps a new session in the database and ends the ones the
// database's bounds make room from (those held here).
func (s *Server) storeSession(sess *session) {
	db := s.shared()
	if db == nil {
		return
	}
	data, _ := json.Marshal(storedOf(sess))
	now := s.opts.Now()
	ended, err := db.PutSession(hashKey(tokenKey(sess.token)), sess.user, sess.guild, data, sess.created.Add(sessionLifetime),
		store.SessionLimits{PerUser: maxSessionsPerUser, Max: maxSessions}, now)
	if err != nil {
		s.log.Error("keeping a session in the database", "err", err)
		return
	}
	for _, k := range ended {
		if old := s.sessions.byKey(k); old != nil {
			s.sessions.drop(old)
			s.hub.endSession(old, closeForgotten, "session ended")
		}
	}
	sess.mu.Lock()
	sess.stored, sess.checked = now, now
	sess.mu.Unlock()
}

// recheck reads a session again from the database when it was last read
// over sessionRecheck ago; false when the database no longer keeps it
// (then it ended here too). It writes the session's last use when the
// database's is over seenWritten old.
func (s *Server) recheck(sess *session, now time.Time) bool {
	db := s.shared()
	if db == nil {
		return true
	}
	sess.mu.Lock()
	due := now.Sub(sess.checked) >= sessionRecheck
	write := sess.seen.Sub(sess.stored) >= seenWritten
	sess.mu.Unlock()
	if !due && !write {
		return true
	}
	key := hashKey(tokenKey(sess.token))
	r, err := db.Session(key, now)
	if errors.Is(err, store.ErrNotFound) {
		s.sessions.drop(sess)
		return false
	}
	if err != nil {
		s.log.Warn("reading a session again", "err", err)
		return true // the database is away: the session as known
	}
	var st sharedSession
	if json.Unmarshal(r.Value, &st) != nil {
		return true
	}
	sess.mu.Lock()
	sess.checked = now
	sess.channel, sess.game = st.Channel, st.Game
	if st.Seen.After(sess.seen) {
		sess.seen = st.Seen
	}
	write = sess.seen.Sub(st.Seen) >= seenWritten
	sess.mu.Unlock()
	if write {
		data, _ := json.Marshal(storedOf(sess))
		if _, err := db.UpdateSession(key, data); err == nil {
			sess.mu.Lock()
			sess.stored = sess.seen
			sess.mu.Unlock()
		}
	}
	return true
}

// loadSession finds a session another process opened.
func (s *Server) loadSession(tok string, now time.Time) *session {
	db := s.shared()
	if db == nil {
		return nil
	}
	r, err := db.Session(hashKey(tokenKey(tok)), now)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("reading a session", "err", err)
		}
		return nil
	}
	var st sharedSession
	if json.Unmarshal(r.Value, &st) != nil {
		return nil
	}
	sess := &session{token: tok, id: st.ID, user: st.User, name: st.Name, lang: st.Lang, guild: st.Guild,
		instance: st.Instance, location: st.Location, inInstance: st.InInstance, created: st.Created,
		seen: st.Seen, stored: st.Seen, checked: now, channel: st.Channel, game: st.Game}
	return s.sessions.keep(sess)
}

// storeBinding writes the game a session was bound to.
func (s *Server) storeBinding(sess *session) {
	db := s.shared()
	if db == nil {
		return
	}
	data, _ := json.Marshal(storedOf(sess))
	if _, err := db.UpdateSession(hashKey(tokenKey(sess.token)), data); err != nil {
		s.log.Warn("keeping a session's game", "err", err)
	}
}

// storeLaunch keeps a launch for every process.
func (s *Server) storeLaunch(l commands.Launch, now time.Time) {
	db := s.shared()
	if db == nil {
		return
	}
	data, _ := json.Marshal(l)
	if err := db.PutLaunch(l.Instance, l.Guild, data, now.Add(launchKept)); err != nil {
		s.log.Warn("keeping a launch", "instance", l.Instance, "err", err)
	}
}

// launchOf finds an instance's launch: in memory, else in the database
// (another process launched it).
func (s *Server) launchOf(instance string, now time.Time) (commands.Launch, bool) {
	if l, ok := s.launches.get(instance, now); ok {
		return l, true
	}
	db := s.shared()
	if db == nil {
		return commands.Launch{}, false
	}
	r, err := db.Launch(instance, now)
	if err != nil {
		return commands.Launch{}, false
	}
	var l commands.Launch
	if json.Unmarshal(r.Value, &l) != nil || l.Instance != instance {
		return commands.Launch{}, false
	}
	s.launches.put(l, now)
	if r.Expires.Sub(now) < launchKept/2 {
		s.storeLaunch(l, now) // in use: kept launchKept from now
	}
	return l, true
}

// allowEveryone counts one event of a limit that is the whole bot's, not
// an address's (the code exchanges and instance look-ups asked of
// Discord, a user's sign-ins): on PostgreSQL in the database, in the
// minute every process counts alike; on bbolt, or when the database
// cannot be asked, in this process's memory. The limits of an address
// stay each process's: they are checked before anything costs, and a
// database write for each request of a flood would cost more than the
// flood.
func (s *Server) allowEveryone(key string, limit int, now time.Time) bool {
	db := s.shared()
	if db == nil {
		return s.limits.allow(key, limit, now)
	}
	window := now.Truncate(time.Minute)
	ok, err := db.CountIn(key, limit, window, window.Add(2*time.Minute))
	if err != nil {
		s.log.Warn("counting a limit in the database", "limit", key, "err", err)
		return s.limits.allow(key, limit, now)
	}
	return ok
}

// socketsKept: how long the database counts a page of a process that
// stopped renewing it (it died): three pings.
const socketsKept = 3 * pingEvery

// joinShared counts a page in the database's budgets of its user and its
// game (hub.go has the budgets); false when one is spent. When the
// database cannot be asked, the page is let in on this process's budgets.
func (s *Server) joinShared(c *conn, channel string, seats int) bool {
	db := s.shared()
	if db == nil {
		return true
	}
	c.key = s.proc + ":" + strconv.FormatUint(s.sockets.Add(1), 10)
	now := s.opts.Now()
	ok, err := db.JoinSocket(store.Socket{Key: c.key, User: c.sess.user, Channel: channel, Seated: c.seated},
		store.SocketLimits{PerUser: maxPerUser, PerGame: maxPerGame, Spectators: spectatorRoom(seats)}, now.Add(socketsKept), now)
	if err != nil {
		s.log.Warn("counting an open page in the database", "err", err)
		c.key = ""
		return true
	}
	if !ok {
		c.key = ""
	}
	return ok
}

func (s *Server) leaveShared(c *conn) {
	if c.key == "" {
		return
	}
	if err := s.opts.Store.LeaveSocket(c.key); err != nil {
		s.log.Warn("counting an open page out of the database", "err", err)
	}
}

// renewSockets keeps this process's open pages counted in the database.
func (s *Server) renewSockets() {
	var ks []store.Socket
	s.hub.mu.Lock()
	for _, r := range s.hub.rooms {
		for c := range r.conns {
			if c.key != "" {
				ks = append(ks, store.Socket{Key: c.key, User: c.sess.user, Channel: r.channel, Seated: c.seated})
			}
		}
	}
	s.hub.mu.Unlock()
	if err := s.opts.Store.RenewSockets(ks, s.opts.Now().Add(socketsKept)); err != nil {
		s.log.Warn("renewing the open pages in the database", "err", err)
	}
}

// follower turns the database's announcements into this process's work.
type follower struct {
	sub *store.Subscription
	// answers wakes the moves waiting for the next answer in a channel.
	answers signals
	// mu guards taking (the channels whose moves are being played here;
	// again: announced meanwhile).
	mu     sync.Mutex
	taking map[string]bool
	again  map[string]bool
}

// follow subscribes to the database's announcements, on PostgreSQL: it
// returns once they are heard, and runs until the server closes.
func (s *Server) follow() error {
	db := s.shared()
	if db == nil {
		return nil
	}
	sub, err := db.Subscribe()
	if err != nil {
		return err
	}
	f := &follower{sub: sub, taking: map[string]bool{}, again: map[string]bool{}}
	s.follower = f
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-s.closed
		cancel()
		sub.Close()
	}()
	s.goSafe("following the database", func() { s.followLoop(ctx, f) }, nil)
	s.goSafe("sweeping the database", func() { s.sweepLoop(ctx, f) }, nil)
	return nil
}

func (s *Server) followLoop(ctx context.Context, f *follower) {
	for {
		ch, err := f.sub.Next(ctx)
		if err != nil {
			return
		}
		switch {
		case ch.Forgotten:
			s.forgetHere(ch.Guild)
		case ch.Missed:
			s.svc.Refresh("", true)
			f.answers.fireAll()
			s.sweep(f)
		case ch.Moves:
			if s.svc.Owns(ch.Guild) {
				s.take(f, ch.Channel)
			}
		case ch.Answers:
			f.answers.fire(ch.Channel)
		default:
			s.svc.Refresh(ch.Channel, false)
		}
	}
}

// sweepLoop takes the moves whose announcement was missed, and removes
// what expired.
func (s *Server) sweepLoop(ctx context.Context, f *follower) {
	tick := time.NewTicker(sweepEvery)
	defer tick.Stop()
	last, lastRenew := time.Time{}, s.opts.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s.sweep(f)
		if now := s.opts.Now(); now.Sub(lastRenew) >= pingEvery {
			lastRenew = now
			s.renewSockets()
		}
		if now := s.opts.Now(); now.Sub(last) >= expireEvery {
			last = now
			if _, err := s.opts.Store.ExpireShared(now, 1000); err != nil {
				s.log.Warn("removing expired sessions and moves", "err", err)
			}
		}
	}
}

func (s *Server) sweep(f *follower) {
	waiting, err := s.opts.Store.MovesWaiting(s.opts.Now())
	if err != nil {
		s.log.Warn("listing forwarded moves", "err", err)
		return
	}
	for _, w := range waiting {
		if s.svc.Owns(w[0]) {
			s.take(f, w[1])
		}
	}
}

// take plays the moves posted for a channel's table, owned here, one
// channel's at a time, in a goroutine of its own.
func (s *Server) take(f *follower, channel string) {
	f.mu.Lock()
	if f.taking[channel] {
		f.again[channel] = true
		f.mu.Unlock()
		return
	}
	f.taking[channel] = true
	f.mu.Unlock()
	s.goSafe("playing forwarded moves", func() {
		defer func() {
			f.mu.Lock()
			delete(f.taking, channel)
			delete(f.again, channel)
			f.mu.Unlock()
		}()
		for {
			s.takeOnce(channel)
			f.mu.Lock()
			again := f.again[channel]
			delete(f.again, channel)
			f.mu.Unlock()
			if !again {
				return
			}
		}
	}, nil)
}

func (s *Server) takeOnce(channel string) {
	moves, err := s.opts.Store.TakeMoves(channel, s.opts.Now())
	if err != nil {
		s.log.Warn("taking forwarded moves", "channel", channel, "err", err)
		return
	}
	for _, fm := range moves {
		var m commands.PageMove
		if err := json.Unmarshal(fm.Data, &m); err != nil || m.ID != fm.ID || m.Channel != channel {
			s.log.Warn("a forwarded move unreadable", "channel", channel)
			continue
		}
		names, _ := s.seatNames(channel)
		replies := []messageJSON{}
		for _, msg := range s.move(context.Background(), m) {
			replies = append(replies, messageOf(msg, names))
		}
		data, _ := json.Marshal(replies)
		if err := s.opts.Store.AnswerMove(fm.ID, data, s.opts.Now().Add(answerKept)); err != nil {
			s.log.Warn("answering a forwarded move", "channel", channel, "err", err)
		}
	}
}

// errNoAnswer: the table's owner did not answer a move in time.
var errNoAnswer = errors.New("the table's process did not answer in time")

// forward posts a page's move for the process owning its table and waits
// for its answer, up to forwardWait. A move posted before (a repeated
// request) is not posted again: its answer is awaited.
func (s *Server) forward(ctx context.Context, m commands.PageMove) ([]messageJSON, error) {
	f := s.follower
	if f == nil {
		return nil, errors.New("not following the database")
	}
	db := s.opts.Store
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	now := s.opts.Now()
	deadline := time.NewTimer(forwardWait)
	defer deadline.Stop()
	wake := f.answers.next(m.Channel)
	if err := db.PostMove(m.ID, m.Guild, m.Channel, data, now.Add(forwardWait)); err != nil && !errors.Is(err, store.ErrMoveExists) {
		return nil, err
	}
	poll := time.NewTicker(250 * time.Millisecond) // an announcement may be lost
	defer poll.Stop()
	for {
		ans, answered, err := db.MoveAnswer(m.ID, s.opts.Now())
		if errors.Is(err, store.ErrNotFound) {
			return nil, errNoAnswer // expired before the owner took it
		}
		if err != nil {
			return nil, err
		}
		if answered {
			var replies []messageJSON
			if err := json.Unmarshal(ans, &replies); err != nil {
				return nil, err
			}
			// The game as the owner left it, before the page is redrawn.
			s.svc.Refresh(m.Channel, false)
			return replies, nil
		}
		select {
		case <-wake:
			wake = f.answers.next(m.Channel)
		case <-poll.C:
		case <-deadline.C:
			return nil, errNoAnswer
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.closed:
			return nil, errNoAnswer
		}
	}
}

// forgetHere ends this process's sessions and replays of a server whose
// games were forgotten (through any process).
func (s *Server) forgetHere(guild string) {
	for _, sess := range s.sessions.dropGuild(guild) {
		s.hub.endSession(sess, closeForgotten, "forgotten")
	}
	s.replays.forget(guild)
}

func hexOf(s string) string { return hex.EncodeToString([]byte(s)) }
