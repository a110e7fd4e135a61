package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"conductor/commands"
	"conductor/present"
)

// A session is one reader's page, bound to (user, guild, instance, game).
// The server resolves the game: the page never names one, except by
// picking among the live games of the channel Discord says the instance
// is in. On bbolt sessions live in memory, and after a restart the page
// authorises again (silently, once the user consented); on PostgreSQL
// they are in the database too, by a hash of their token (fleet.go).

// sessionIdle is how long an unused session lives (a page with its
// WebSocket open is in use).
const sessionIdle = 2 * time.Hour

// sessionLifetime is how long a session lives however much it is used:
// then the page authorises again, and Discord says again who may read.
const sessionLifetime = 12 * time.Hour

// maxSessions bounds the sessions kept; maxSessionsPerUser bounds one
// user's: a user's new session past it ends that user's oldest, and at
// maxSessions the oldest session of the user holding the most goes (never
// another user's for one user's sessions).
const (
	maxSessions        = 20000
	maxSessionsPerUser = 16
)

type session struct {
	token string // the bearer the page sends; never logged
	id    string // a public name for the session, in interaction ids
	user  string
	name  string
	lang  string
	guild string
	// instance is the activity instance, location the channel it runs in,
	// inInstance whether Discord listed the user in it.
	instance, location string
	inInstance         bool
	created            time.Time
	ended              atomic.Bool // dropped: evicted, forgotten, refused

	mu      sync.Mutex // guards channel, game, seen, stored and checked
	channel string     // the game's channel; "" until one is picked
	game    string
	seen    time.Time
	// stored is the last use the database holds, checked when it was last
	// read (PostgreSQL: fleet.go).
	stored, checked time.Time

	// acts applies the session's moves one at a time; it guards replies,
	// the answers to recent moves by the page's nonce.
	acts    sync.Mutex
	replies map[string][]byte
	order   []string
}

// bound returns the session's game channel and id.
func (s *session) bound() (channel, game string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.channel, s.game
}

func (s *session) bind(channel, game string) {
	s.mu.Lock()
	s.channel, s.game = channel, game
	s.mu.Unlock()
}

// live says whether the session may still be used at now.
func (s *session) live(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.ended.Load() && now.Sub(s.seen) <= sessionIdle && now.Sub(s.created) <= sessionLifetime
}

// touch marks the session used at now.
func (s *session) touch(now time.Time) {
	s.mu.Lock()
	if now.After(s.seen) {
		s.seen = now
	}
	s.mu.Unlock()
}

type sessions struct {
	mu     sync.Mutex
	byTok  map[string]*session
	byUser map[string][]*session // oldest first
}

func (ss *sessions) init() {
	ss.byTok = map[string]*session{}
	ss.byUser = map[string][]*session{}
}

// tokenKey is what the map is keyed by: a hash, so that the lookup's
// timing says nothing useful about a token.
func tokenKey(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return string(h[:])
}

func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// add keeps a new session and returns the sessions it ended to make room
// (their pages are to be closed).
func (ss *sessions) add(s *session, now time.Time) []*session {
	s.token = randomString(32)
	var id [8]byte
	rand.Read(id[:])
	s.id = hex.EncodeToString(id[:])
	s.created, s.seen = now, now
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var ended []*session
	if mine := ss.byUser[s.user]; len(mine) >= maxSessionsPerUser {
		ended = append(ended, ss.dropLocked(mine[0]))
	}
	if len(ss.byTok) >= maxSessions {
		ended = append(ended, ss.evictLocked(now)...)
	}
	ss.byTok[tokenKey(s.token)] = s
	ss.byUser[s.user] = append(ss.byUser[s.user], s)
	return ended
}

// dropLocked takes a session out and ends it.
func (ss *sessions) dropLocked(s *session) *session {
	s.ended.Store(true)
	delete(ss.byTok, tokenKey(s.token))
	mine := slices.DeleteFunc(ss.byUser[s.user], func(x *session) bool { return x == s })
	if len(mine) == 0 {
		delete(ss.byUser, s.user)
	} else {
		ss.byUser[s.user] = mine
	}
	return s
}

// evictLocked drops the sessions no longer live and, when none was, the
// oldest session of the user holding the most.
func (ss *sessions) evictLocked(now time.Time) []*session {
	var ended []*session
	var heaviest []*session
	for _, mine := range ss.byUser {
		for _, s := range mine {
			if !s.live(now) {
				ended = append(ended, s)
			}
		}
		if len(mine) > len(heaviest) {
			heaviest = mine
		}
	}
	for _, s := range ended {
		ss.dropLocked(s)
	}
	if len(ended) == 0 && len(heaviest) > 0 {
		ended = append(ended, ss.dropLocked(heaviest[0]))
	}
	return ended
}

// byKey finds a session held here by its token's key, live or not.
func (ss *sessions) byKey(hashed string) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for k, s := range ss.byTok {
		if hashKey(k) == hashed {
			return s
		}
	}
	return nil
}

// keep holds a session another process opened, read from the database;
// when one of its token is held already, that one is brought up to date
// and returned (pages hold it).
func (ss *sessions) keep(s *session) *session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	k := tokenKey(s.token)
	if old := ss.byTok[k]; old != nil {
		old.mu.Lock()
		old.channel, old.game, old.checked = s.channel, s.game, s.checked
		if s.seen.After(old.seen) {
			old.seen, old.stored = s.seen, s.seen
		}
		old.mu.Unlock()
		return old
	}
	if mine := ss.byUser[s.user]; len(mine) >= maxSessionsPerUser {
		ss.dropLocked(mine[0]) // the database's bounds are the ones that hold
	}
	ss.byTok[k] = s
	ss.byUser[s.user] = append(ss.byUser[s.user], s)
	return s
}

// get finds a live session by its token, and marks it used.
func (ss *sessions) get(tok string, now time.Time) *session {
	if tok == "" {
		return nil
	}
	ss.mu.Lock()
	s := ss.byTok[tokenKey(tok)]
	ss.mu.Unlock()
	if s == nil || !s.live(now) {
		return nil
	}
	s.touch(now)
	return s
}

// drop ends a session.
func (ss *sessions) drop(s *session) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.byTok[tokenKey(s.token)] == s {
		ss.dropLocked(s)
	}
	s.ended.Store(true)
}

// dropGuild ends every session of a guild and returns them.
func (ss *sessions) dropGuild(guild string) []*session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	var out []*session
	for _, s := range ss.byTok {
		if s.guild == guild {
			out = append(out, s)
		}
	}
	for _, s := range out {
		ss.dropLocked(s)
	}
	return out
}

// bearer is the session a request authenticates with
// (Authorization: Bearer <session>).
func (s *Server) bearer(r *http.Request) *session {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil
	}
	return s.sessionOf(strings.TrimSpace(tok))
}

// sessionOf finds a live session by its token and marks it used: held
// here (and, on PostgreSQL, still in the database), else opened by
// another process.
func (s *Server) sessionOf(tok string) *session {
	if tok == "" {
		return nil
	}
	now := s.opts.Now()
	if sess := s.sessions.get(tok, now); sess != nil {
		if !s.recheck(sess, now) {
			s.hub.endSession(sess, closeForgotten, "session ended")
			return nil
		}
		return sess
	}
	sess := s.loadSession(tok, now)
	if sess == nil || !sess.live(now) {
		return nil
	}
	sess.touch(now)
	return sess
}

// dropSession ends a session here and in the database.
func (s *Server) dropSession(sess *session) {
	s.sessions.drop(sess)
	if db := s.shared(); db != nil {
		if err := db.DropSession(hashKey(tokenKey(sess.token))); err != nil {
			s.log.Warn("ending a session in the database", "err", err)
		}
	}
}

// apiError is an API refusal: a code the page knows and a sentence in
// the reader's language.
type apiError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) refuse(w http.ResponseWriter, status int, code, lang string) {
	writeJSON(w, status, apiError{Error: code, Message: present.T(lang, "web."+code)})
}

// sessionRequest is what the page posts after the SDK's authorize: the
// code, and what the Discord client says of where the page runs (claims,
// checked against Discord's own answer).
type sessionRequest struct {
	Code       string `json:"code"`
	InstanceID string `json:"instance_id"`
	GuildID    string `json:"guild_id"`
	ChannelID  string `json:"channel_id"`
}

// sessionAnswer opens the page: the session, the access token for the
// SDK's authenticate (given once, kept nowhere), the reader, the page's
// words, and the game or the games to pick from.
type sessionAnswer struct {
	Session     string            `json:"session"`
	AccessToken string            `json:"access_token"`
	Me          meJSON            `json:"me"`
	Lang        string            `json:"lang"`
	Texts       map[string]string `json:"texts"`
	Game        *gameRefJSON      `json:"game,omitempty"`
	Games       []pickJSON        `json:"games,omitempty"`
	// Setup is the form of a table to set up, when the channel holds no
	// game.
	Setup *setupJSON `json:"setup,omitempty"`
}

type meJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type gameRefJSON struct {
	ID      string `json:"id"`
	Channel string `json:"channel"`
}

type pickJSON struct {
	Channel string `json:"channel"`
	Label   string `json:"label"`
}

// Opening a session costs two requests to Discord with the client's code
// (the exchange, then the user) and one with the bot token (the instance,
// kept a while). A code nobody made costs as much as a real one, so a
// request meets every check that asks nothing of Discord first: its shape,
// then its address's limits, then whether Discord knows its instance (a
// launch the bot made, an answer kept, else asked under a limit of its
// own); only then is its code exchanged, under the limit for everyone.
// An address whose codes Discord refused, or whose instances it did not
// know, a few times in a minute is refused for the rest of the minute, and
// has a bounded number of codes being exchanged at once: a flood of
// made-up codes costs a handful of exchanges and never reaches the limit
// real users share. Limits a minute:
const (
	// sessionsPerAddress: sign-ins an address may try (behind Discord's
	// proxy, an address is the proxy's, shared: see address.go).
	sessionsPerAddress = 120
	// failuresPerAddress: codes refused and instances unknown to Discord
	// an address may send; exchangesInFlight: its codes being exchanged
	// at once (not a minute's), so that a burst cannot pass the failures'
	// check before the first of them fails.
	failuresPerAddress = 5
	exchangesInFlight  = 20
	// lookupsPerAddress, lookups: instances neither launched by the bot
	// nor known from a recent answer, asked of Discord for an address,
	// and for everyone.
	lookupsPerAddress = 10
	lookups           = 300
	// sessionsPerUser: sessions a Discord user may open.
	sessionsPerUser = 10
	// exchanges: codes exchanged with Discord, for everyone.
	exchanges = 1200
)

// The shapes of what a page posts: a code (Discord's are 30 letters and
// digits), an activity instance id (i-<launch>-gc-<guild>-<channel>, or
// -pc-<channel> outside a server) and the ids it claims.
var (
	codeRE      = regexp.MustCompile(`^[A-Za-z0-9_-]{8,128}$`)
	instanceRE  = regexp.MustCompile(`^i-[0-9]{1,20}-[a-z]{1,8}(-[0-9]{1,20}){1,3}$`)
	snowflakeRE = regexp.MustCompile(`^[0-9]{1,20}$`)
)

func (in sessionRequest) wellFormed() bool {
	return codeRE.MatchString(in.Code) && instanceRE.MatchString(in.InstanceID) &&
		(in.GuildID == "" || snowflakeRE.MatchString(in.GuildID)) && (in.ChannelID == "" || snowflakeRE.MatchString(in.ChannelID))
}

// serveSession is the identity flow: cheap checks, code → token → user,
// instance confirmed with the bot token, game resolved, session minted.
func (s *Server) serveSession(w http.ResponseWriter, r *http.Request) {
	lang := acceptLang(r)
	var in sessionRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&in); err != nil || !in.wellFormed() {
		s.refuse(w, http.StatusBadRequest, "auth_failed", lang)
		return
	}
	addr := s.clientAddr(r)
	now := s.opts.Now()
	limited := func() {
		w.Header().Set("Retry-After", "60")
		s.refuse(w, http.StatusTooManyRequests, "too_many", lang)
	}
	if !s.limits.allow("session:"+addr, sessionsPerAddress, now) || s.limits.over("failed:"+addr, failuresPerAddress, now) {
		limited()
		return
	}
	ctx := r.Context()
	// The instance, before any code is spent on it.
	if _, launched := s.launchOf(in.InstanceID, now); !launched {
		if _, known := s.instances.cached(in.InstanceID, instanceFresh, now); !known &&
			(!s.limits.allow("lookup:"+addr, lookupsPerAddress, now) || !s.allowEveryone("lookup", lookups, now)) {
			limited()
			return
		}
	}
	inst, err := s.lookupInstance(ctx, in.InstanceID, instanceFresh)
	if errors.Is(err, commands.ErrUnknownInstance) {
		s.limits.note("failed:"+addr, now)
		s.refuse(w, http.StatusNotFound, "unknown_instance", lang)
		return
	}
	if err != nil {
		s.log.Warn("reading an activity instance", "instance", in.InstanceID, "err", err)
		s.refuse(w, http.StatusBadGateway, "unknown_instance", lang)
		return
	}
	if !s.exchanging.acquire(addr, exchangesInFlight) {
		limited()
		return
	}
	defer s.exchanging.release(addr)
	if s.limits.over("failed:"+addr, failuresPerAddress, now) || !s.allowEveryone("exchange", exchanges, now) {
		limited()
		return
	}
	token, err := s.exchange(ctx, in.Code)
	if err == nil {
		var u discordUser
		if u, err = s.me(ctx, token); err == nil {
			if !s.allowEveryone("user:"+u.ID, sessionsPerUser, now) {
				limited()
				return
			}
			s.openSession(w, r, in, inst, u, token)
			return
		}
	}
	if errors.Is(err, errAuth) {
		s.limits.note("failed:"+addr, now)
		s.log.Info("activity authorisation refused", "err", err)
		s.refuse(w, http.StatusUnauthorized, "auth_failed", lang)
		return
	}
	s.log.Warn("activity authorisation failed", "err", err)
	s.refuse(w, http.StatusBadGateway, "auth_failed", lang)
}

// openSession checks the instance and the game for a confirmed user.
func (s *Server) openSession(w http.ResponseWriter, r *http.Request, in sessionRequest, inst commands.ActivityInstance, u discordUser, token string) {
	lang := present.Lang(u.Locale)
	launch, launched := s.launchOf(inst.ID, s.opts.Now())
	if inst.Guild == "" || (in.GuildID != "" && in.GuildID != inst.Guild) || (launched && launch.Guild != inst.Guild) {
		s.log.Info("activity session refused: another server", "instance", inst.ID, "instance_guild", inst.Guild, "claimed_guild", in.GuildID)
		s.refuse(w, http.StatusForbidden, "other_guild", lang)
		return
	}
	member, err := s.inInstance(r.Context(), inst.ID, u.ID, 0)
	if err != nil {
		s.log.Warn("reading an activity instance", "instance", inst.ID, "err", err)
		s.refuse(w, http.StatusBadGateway, "unknown_instance", lang)
		return
	}
	sess := &session{user: u.ID, name: u.name(), lang: lang, guild: inst.Guild, instance: inst.ID,
		location: inst.Channel, inInstance: member}
	if launched {
		sess.location = launch.Channel
	}
	// The game: the one the instance was launched for, else the one of
	// the channel it runs in, else one of that channel's games to pick.
	channel := sess.location
	if launched && launch.Game != "" {
		channel = launch.Channel
	}
	var games []commands.LiveGame
	v, err := s.svc.View(channel, u.ID, lang)
	switch {
	case err == nil && v.Guild == inst.Guild && (!launched || launch.Game == "" || launch.Game == v.Game):
		if !sess.inInstance && v.Seat < 0 {
			s.refuse(w, http.StatusForbidden, "not_in_instance", lang)
			return
		}
		sess.channel, sess.game = v.Channel, v.Game
	case err == nil && v.Guild != inst.Guild:
		s.refuse(w, http.StatusForbidden, "other_guild", lang)
		return
	default:
		if games, err = s.svc.LiveGames(inst.Guild, sess.location); err != nil {
			s.log.Error("listing a channel's games", "err", err)
			s.refuse(w, http.StatusInternalServerError, "no_game", lang)
			return
		}
		// Without a game the page sets one up in the channel, unless the
		// activity was opened for a game (now over) or the reader is not
		// in it.
		if len(games) == 0 && (!sess.inInstance || sess.location == "" || (launched && launch.Game != "")) {
			s.refuse(w, http.StatusNotFound, "no_game", lang)
			return
		}
		if !sess.inInstance && !seatedInAny(s, games, u.ID) {
			s.refuse(w, http.StatusForbidden, "not_in_instance", lang)
			return
		}
		if len(games) == 1 {
			sess.channel, sess.game = games[0].Channel, games[0].Game
			games = nil
		}
	}
	for _, old := range s.sessions.add(sess, s.opts.Now()) {
		s.hub.endSession(old, closeForgotten, "session ended")
	}
	s.storeSession(sess)
	s.log.Info("activity session opened", "user", u.ID, "guild", inst.Guild, "instance", inst.ID, "channel", sess.channel)
	ans := sessionAnswer{Session: sess.token, AccessToken: token, Me: meJSON{ID: u.ID, Name: u.name()}, Lang: lang, Texts: pageTexts(lang)}
	if sess.channel != "" {
		ans.Game = &gameRefJSON{ID: sess.game, Channel: sess.channel}
	}
	for _, g := range games {
		ans.Games = append(ans.Games, pickJSON{Channel: g.Channel, Label: s.pickLabel(g, lang)})
	}
	if sess.channel == "" && len(games) == 0 {
		ans.Setup = s.setupFor(lang)
	}
	writeJSON(w, http.StatusOK, ans)
}

// seatedInAny reports whether user holds a seat in one of games.
func seatedInAny(s *Server, games []commands.LiveGame, user string) bool {
	for _, g := range games {
		if v, err := s.svc.View(g.Channel, user, "en"); err == nil && v.Seat >= 0 {
			return true
		}
	}
	return false
}

// pickLabel names a game in the picker: its edition and its players.
func (s *Server) pickLabel(g commands.LiveGame, lang string) string {
	b, err := s.svc.Board(g.Map)
	name := g.Map
	if err == nil {
		name = present.EditionName(lang, b, g.Variant)
	}
	return name + " — " + strings.Join(g.Seats, ", ")
}

// servePick binds a session to one of its channel's live games.
func (s *Server) servePick(w http.ResponseWriter, r *http.Request) {
	sess := s.bearer(r)
	if sess == nil {
		s.refuse(w, http.StatusUnauthorized, "session_ended", acceptLang(r))
		return
	}
	var in struct {
		Channel string `json:"channel"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&in); err != nil {
		s.refuse(w, http.StatusBadRequest, "no_game", sess.lang)
		return
	}
	games, err := s.svc.LiveGames(sess.guild, sess.location)
	if err != nil {
		s.refuse(w, http.StatusInternalServerError, "no_game", sess.lang)
		return
	}
	i := slices.IndexFunc(games, func(g commands.LiveGame) bool { return g.Channel == in.Channel })
	if i < 0 {
		s.refuse(w, http.StatusForbidden, "no_game", sess.lang)
		return
	}
	if !sess.inInstance {
		if v, err := s.svc.View(in.Channel, sess.user, sess.lang); err != nil || v.Seat < 0 {
			s.refuse(w, http.StatusForbidden, "not_in_instance", sess.lang)
			return
		}
	}
	sess.bind(games[i].Channel, games[i].Game)
	s.storeBinding(sess)
	writeJSON(w, http.StatusOK, gameRefJSON{ID: games[i].Game, Channel: games[i].Channel})
}

// acceptLang is the language a request's Accept-Language asks for, for
// answers given before Discord said who the reader is.
func acceptLang(r *http.Request) string {
	al := r.Header.Get("Accept-Language")
	for _, part := range strings.Split(al, ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if l := present.Lang(tag); l != "en" || strings.HasPrefix(strings.ToLower(tag), "en") {
			return l
		}
	}
	return "en"
}

var (
	// errGameOver: the session's game is no longer its channel's (it
	// ended, and maybe another began there).
	errGameOver = errors.New("the session's game is over")
	// errNotInInstance: the reader is neither seated nor, Discord says,
	// in the activity any more.
	errNotInInstance = errors.New("the reader left the activity")
)

// checkReader checks a session again as its page (re)connects or asks its
// frame: its game is still its channel's, and its reader is seated there
// or still in the activity instance (Discord asked through the instances'
// cache). When Discord cannot be asked, the reader keeps reading. It says
// whether the reader is seated, and how many seats the game has.
func (s *Server) checkReader(ctx context.Context, sess *session) (seated bool, seats int, err error) {
	channel, game := sess.bound()
	v, err := s.svc.View(channel, sess.user, sess.lang)
	if errors.Is(err, commands.ErrNoGame) || (err == nil && v.Game != game) {
		return false, 0, errGameOver
	}
	if err != nil {
		return false, 0, err
	}
	if v.Seat >= 0 {
		return true, len(v.Seats), nil
	}
	in, err := s.inInstance(ctx, sess.instance, sess.user, instanceRecheck)
	if err != nil {
		s.log.Warn("reading an activity instance again", "instance", sess.instance, "err", err)
		return false, len(v.Seats), nil
	}
	if !in {
		s.log.Info("activity session ended: the reader left the instance", "user", sess.user, "instance", sess.instance)
		return false, 0, errNotInInstance
	}
	return false, len(v.Seats), nil
}
