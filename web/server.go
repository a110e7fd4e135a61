// Package web is the third transport beside bot/ and local/: the board as
// a live page. Inside Discord it is an Activity (Discord's Embedded App
// SDK): each reader sees the game's board as SVG, clicks a track to claim
// it, draws and chooses tickets, and every open page follows every move
// within a second, whoever made it and from wherever. Outside Discord it
// serves the public replay page of a finished game.
//
// Moves go through commands.Service.Handle like slash commands and
// buttons: every rule, refusal, translation, narration, bot move and
// thread post is the commands layer's. Nothing here decides what a move
// does.
//
// What a reader sees is built for that reader (commands.View): a hand
// and its tickets reach only their owner. The board comes from the same
// imaging.Scene as the PNG: public by construction.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"conductor/commands"
	"conductor/imaging"
	"conductor/store"
)

// Discord is what the transport asks Discord with the bot token.
type Discord interface {
	// ActivityInstance describes a live activity instance; it returns
	// commands.ErrUnknownInstance when Discord knows none by that id.
	ActivityInstance(ctx context.Context, id string) (commands.ActivityInstance, error)
}

// Options configure a Server.
type Options struct {
	// AppID is the application's id, which is the OAuth client id; it is
	// known once the bot is connected.
	AppID func() string
	// ClientSecret is the application's OAuth client secret
	// (DISCORD_CLIENT_SECRET): the code exchange needs it.
	ClientSecret string
	// APIBase is Discord's address (DISCORD_API_URL); default
	// https://discord.com/.
	APIBase string
	// PublicURL is where the public listener is reached from outside
	// (CONDUCTOR_PUBLIC_URL), for the replay pages' links; "" for none.
	PublicURL string
	Discord   Discord
	Store     *store.Store
	Renderer  *imaging.Renderer
	Logger    *slog.Logger
	// HTTPClient makes the OAuth requests; default one with a 10 s timeout.
	HTTPClient *http.Client
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Timeouts bound the connections of HTTPServer.
	Timeouts Timeouts
	// ClientIPHeader names the header a proxy in front of the server
	// writes the client's address in (CONDUCTOR_CLIENT_IP_HEADER, for
	// example Fly-Client-IP); it is believed only from TrustedProxies
	// (CONDUCTOR_TRUSTED_PROXIES; default: loopback and private
	// addresses). "" counts every request by its connection's peer.
	ClientIPHeader string
	TrustedProxies []netip.Prefix
}

// Server is the web transport. It implements commands.Activity.
type Server struct {
	opts Options
	log  *slog.Logger
	api  *url.URL
	svc  *commands.Service
	// move applies a page's move: svc.Move (a test puts another).
	move func(context.Context, commands.PageMove) []commands.Message

	sessions  sessions
	launches  launches
	instances instances
	hub       *hub
	boards    boardCache
	replays   replayCache
	limits    rateLimits
	// exchanging counts the codes being exchanged per address.
	exchanging inFlight
	// follower hears the other processes through the database (fleet.go);
	// nil on bbolt.
	follower *follower
	// proc names this process in the database's count of open pages;
	// sockets numbers its pages.
	proc    string
	sockets atomic.Uint64

	// hsts: the public address is HTTPS, so browsers are told to keep to it.
	hsts bool

	closeOnce sync.Once
	closed    chan struct{}
}

var _ commands.Activity = (*Server)(nil)

// New makes a Server; Attach gives it the service before it serves.
func New(opts Options) (*Server, error) {
	if strings.TrimSpace(opts.ClientSecret) == "" {
		return nil, errors.New("web: no client secret (DISCORD_CLIENT_SECRET)")
	}
	if opts.AppID == nil {
		return nil, errors.New("web: no application id")
	}
	if opts.Discord == nil || opts.Store == nil || opts.Renderer == nil {
		return nil, errors.New("web: Discord, Store and Renderer are required")
	}
	base := opts.APIBase
	if base == "" {
		base = "https://discord.com/"
	}
	api, err := url.Parse(base)
	if err != nil || (api.Scheme != "http" && api.Scheme != "https") || api.Host == "" {
		return nil, fmt.Errorf("web: DISCORD_API_URL %q: want an http(s) address", base)
	}
	api.Path = strings.TrimSuffix(api.Path, "/") + "/api/v10/"
	publicHTTPS := false
	if opts.PublicURL != "" {
		u, err := url.Parse(opts.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("web: CONDUCTOR_PUBLIC_URL %q: want an address like https://conductor.example.org", opts.PublicURL)
		}
		opts.PublicURL = strings.TrimSuffix(opts.PublicURL, "/")
		publicHTTPS = u.Scheme == "https"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Timeouts = opts.Timeouts.withDefaults()
	s := &Server{opts: opts, log: opts.Logger, api: api, closed: make(chan struct{}), hsts: publicHTTPS, proc: randomString(9)}
	s.sessions.init()
	s.launches.init()
	s.boards.init()
	s.hub = newHub(s)
	return s, nil
}

// Attach gives the server the service the pages play through. On
// PostgreSQL it starts following the other processes (fleet.go): the
// changes of their games, the moves posted for this one's tables.
func (s *Server) Attach(svc *commands.Service) {
	s.svc = svc
	s.move = svc.Move
	if err := s.follow(); err != nil {
		// Pages then follow this process's games only; the store's own
		// listener retries its connection, but its first LISTEN failed.
		s.log.Error("the live board cannot hear the other processes", "err", err)
	}
}

// Close ends every live connection.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.hub.closeAll()
	})
}

// Handler serves the page, its files, the board, the API, the live
// updates and the replay pages. Every route also answers under /.proxy,
// the prefix Discord's proxy has used for an Activity's own requests.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.servePage)
	mux.HandleFunc("GET /s/{hash}/{file...}", s.serveStatic)
	mux.HandleFunc("GET /art/{name}", s.serveArt)
	mux.HandleFunc("GET /board/{name}", s.serveBoardSVG)
	mux.HandleFunc("POST /api/session", s.serveSession)
	mux.HandleFunc("POST /api/pick", s.servePick)
	mux.HandleFunc("POST /api/new", s.serveNew)
	mux.HandleFunc("GET /api/games", s.serveGames)
	mux.HandleFunc("GET /api/state", s.serveState)
	mux.HandleFunc("POST /api/act", s.serveAct)
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /r/{token}", s.serveReplayPage)
	mux.HandleFunc("GET /r/{token}/data.json", s.serveReplayData)
	mux.HandleFunc("GET /r/{token}/turn/{file}", s.serveReplayTurn)
	return s.recovering(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/.proxy"); ok && (rest == "" || rest[0] == '/') {
			r2 := r.Clone(r.Context())
			if rest == "" {
				rest = "/"
			}
			r2.URL.Path, r2.URL.RawPath = rest, ""
			r = r2
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if s.hsts {
			w.Header().Set("Strict-Transport-Security", hstsPolicy)
		}
		mux.ServeHTTP(w, r)
	}))
}

// hstsPolicy keeps browsers on HTTPS for a year once they saw it.
const hstsPolicy = "max-age=31536000"

// Launched records an instance opened from a channel (commands.Activity).
func (s *Server) Launched(l commands.Launch) {
	s.launches.put(l, s.opts.Now())
	s.storeLaunch(l, s.opts.Now())
	s.log.Debug("activity launched", "instance", l.Instance, "channel", l.Channel, "game", l.Game)
}

// Changed wakes the pages of a channel's game (commands.Activity).
func (s *Server) Changed(channel string) { s.hub.changed(channel) }

// Forgotten ends the sessions of a server whose games were forgotten
// (commands.Activity).
func (s *Server) Forgotten(guild string) {
	s.forgetHere(guild)
	if db := s.shared(); db != nil {
		if _, err := db.DropGuildSessions(guild); err != nil {
			s.log.Error("ending a forgotten server's sessions in the database", "err", err)
		}
		// Every other process ends its pages and replays of the server.
		if err := db.NotifyForgotten(guild); err != nil {
			s.log.Error("telling the other processes a server was forgotten", "err", err)
		}
	}
}

// ReplayURL is the public replay page of a game (commands.Activity).
func (s *Server) ReplayURL(guild, game string) string {
	if s.opts.PublicURL == "" {
		return ""
	}
	tok, err := s.replayToken(guild, game)
	if err != nil {
		s.log.Error("replay link", "err", err)
		return ""
	}
	return s.opts.PublicURL + "/r/" + tok
}

// clientID is the OAuth client id, the application's id.
func (s *Server) clientID() string { return s.opts.AppID() }
