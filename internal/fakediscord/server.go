package fakediscord

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Token is the bot token the fake accepts, without the "Bot " prefix. Default "fake-bot-token".
	Token string
	// BotName is the bot user's username. Default "Conductor".
	BotName string
	// HeartbeatInterval is sent in HELLO. Default 500ms: short, so tests see heartbeats quickly.
	HeartbeatInterval time.Duration
	// RecommendedShards is the "shards" answer of GET /gateway/bot. Default 1.
	RecommendedShards int
	// MaxConcurrency is GET /gateway/bot's session_start_limit.max_concurrency: shards
	// identify in that many buckets (shard_id % MaxConcurrency). Default 1.
	MaxConcurrency int
	// IdentifyInterval is how often each bucket takes an IDENTIFY: Discord's 5 s by default;
	// a sooner one is answered op 9 and recorded as a GatewayFault (logins.go). Tests that
	// start many shards shorten it, for the bot as well. Negative: not enforced.
	IdentifyInterval time.Duration
	// SessionStarts is session_start_limit.total, the IDENTIFYs allowed a day: 1,000 by
	// default. Past it the fake ends every session and resets the token, as Discord does.
	SessionStarts int
	// MaxGuildsPerShard: an IDENTIFY whose shard would hold more guilds is closed with 4011
	// Sharding required. Default 2,500, Discord's.
	MaxGuildsPerShard int
	// CallbackDeadline, when positive, refuses interaction callbacks that come later than this
	// after the interaction was dispatched, as Discord does after 3 seconds (10062 Unknown
	// interaction). Zero accepts late callbacks; Callback.Latency records the delay anyway.
	CallbackDeadline time.Duration
	// WaitTimeout bounds the Wait* helpers that take no explicit timeout. Default 10s.
	WaitTimeout time.Duration
	// ClockOffset sets Discord's clock apart from the machine's (clock.go): -5s is a bot
	// whose clock runs five seconds ahead of Discord's.
	ClockOffset time.Duration
	// GlobalLimit, when positive, enforces Discord's global rate limit: at most this many
	// requests in any second (Discord's is 50 per bot), interaction endpoints exempt
	// (ratelimits.go). Zero enforces none.
	GlobalLimit int
	// RouteLimit, when positive, enforces per-route buckets of that many requests per
	// RouteWindow (default one second): a request past its bucket is answered 429. Zero
	// reports buckets of 50 a second in the headers without refusing anything, so that tests
	// sending bursts on purpose (limits, validation) are not slowed.
	RouteLimit  int
	RouteWindow time.Duration
	// ClientSecret is the application's OAuth2 client secret the code
	// exchange accepts. Default "fake-client-secret".
	ClientSecret string
}

func (o *Options) setDefaults() {
	if o.Token == "" {
		o.Token = "fake-bot-token"
	}
	if o.BotName == "" {
		o.BotName = "Conductor"
	}
	if o.HeartbeatInterval <= 0 {
		o.HeartbeatInterval = 500 * time.Millisecond
	}
	if o.RecommendedShards <= 0 {
		o.RecommendedShards = 1
	}
	if o.MaxConcurrency <= 0 {
		o.MaxConcurrency = 1
	}
	if o.IdentifyInterval == 0 {
		o.IdentifyInterval = 5 * time.Second
	}
	if o.SessionStarts <= 0 {
		o.SessionStarts = sessionStartsPerDay
	}
	if o.MaxGuildsPerShard <= 0 {
		o.MaxGuildsPerShard = 2500
	}
	if o.WaitTimeout <= 0 {
		o.WaitTimeout = 10 * time.Second
	}
	if o.RouteWindow <= 0 {
		o.RouteWindow = defaultRouteWindow
	}
	if o.ClientSecret == "" {
		o.ClientSecret = "fake-client-secret"
	}
}

// Server is a fake Discord: REST API, gateway and a record of everything the bot did.
// All methods are safe for concurrent use.
type Server struct {
	opts     Options
	spec     *Spec
	listener net.Listener
	http     *http.Server
	base     string // http://127.0.0.1:port
	ids      snowflakes
	// clockOffset is Discord's clock minus the machine's, in nanoseconds (clock.go).
	clockOffset atomic.Int64

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every change, to wake waiters
	closed  bool

	bot          User
	owner        User // owns every guild, so that the bot's permissions come from its roles
	users        map[string]*User
	guilds       map[string]*Guild
	guildOrder   []string
	channels     map[string]*Channel
	dmByUser     map[string]string // recipient user id -> DM channel id
	members      map[string]map[string]bool
	roles        map[string][]*Role  // guild id -> roles, @everyone first
	memberRoles  map[string][]string // guild id + "/" + user id -> role ids
	messages     map[string]*Message // by id
	channelMsgs  map[string][]string // channel id -> message ids in posting order
	publicLog    []Message           // every public version of every message
	commands     map[string][]Command
	interactions map[string]*interactionState // by id
	byToken      map[string]*interactionState

	// nonces: author id + "/" + nonce -> the message created with it.
	nonces map[string]string
	// threadMembers: thread id -> the ids of its members.
	threadMembers map[string]map[string]bool

	requests   []*RecordedRequest
	validation []ValidationFailure
	faults     []*faultRule
	limits     limitState
	dmFailures map[string]*apiError // recipient -> Discord's refusal of a DM to them
	gatewayLog []GatewayFrame
	identifies []IdentifyRecord
	resumes    []ResumeRecord
	// Logins (logins.go): the last IDENTIFY of each bucket, the session starts left until
	// startsReset, what clients did that Discord punishes, and whether the token was reset.
	identifyAt    map[int]time.Time
	startsLeft    int
	startsReset   time.Time
	gatewayFaults []GatewayFault
	tokenReset    atomic.Bool
	sessions      map[string]*gatewaySession
	shardOwner    map[int]*gatewaySession // shard id -> latest identified session
	conns         map[*gatewayConn]bool
	// gatewayHeld, when not nil, holds new gateway connections until closed (HoldGateway).
	gatewayHeld chan struct{}
	connCounter int

	// Activities (activity.go): codes, the users of access tokens, instances.
	grants    map[string]*oauthGrant
	bearers   map[string]string
	instances map[string]*ActivityInstance
	// activitiesOff: the application's Activities are turned off, and
	// LAUNCH_ACTIVITY is refused (TurnOffActivities).
	activitiesOff bool
	// launchNames is where a LAUNCH_ACTIVITY answer names the instance
	// (SetLaunchNames).
	launchNames LaunchNames

	// Application emojis (emojis.go): by application id, then emoji id; the
	// other applications by their bot token.
	appEmojis map[string]map[string]*AppEmoji
	otherApps map[string]*application
}

// Start runs a fake Discord on 127.0.0.1 with a random port.
func Start(opts Options) (*Server, error) {
	opts.setDefaults()
	spec, err := DiscordSpec()
	if err != nil {
		return nil, fmt.Errorf("fakediscord: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakediscord: listen: %w", err)
	}
	s := &Server{
		opts:         opts,
		spec:         spec,
		listener:     ln,
		base:         "http://" + ln.Addr().String(),
		changed:      make(chan struct{}),
		users:        map[string]*User{},
		guilds:       map[string]*Guild{},
		channels:     map[string]*Channel{},
		dmByUser:     map[string]string{},
		members:      map[string]map[string]bool{},
		roles:        map[string][]*Role{},
		memberRoles:  map[string][]string{},
		messages:     map[string]*Message{},
		channelMsgs:  map[string][]string{},
		commands:     map[string][]Command{},
		interactions: map[string]*interactionState{},
		byToken:      map[string]*interactionState{},
		dmFailures:   map[string]*apiError{},
		sessions:     map[string]*gatewaySession{},
		shardOwner:   map[int]*gatewaySession{},
		conns:        map[*gatewayConn]bool{},
		identifyAt:   map[int]time.Time{},
	}
	s.clockOffset.Store(int64(opts.ClockOffset))
	s.startsLeft, s.startsReset = opts.SessionStarts, s.Now().Add(24*time.Hour)
	s.ids.now = s.Now
	s.ids.init()
	s.nonces, s.threadMembers = map[string]string{}, map[string]map[string]bool{}
	s.bot = User{ID: s.ids.next(), Username: opts.BotName, Bot: true}
	s.users[s.bot.ID] = &s.bot
	s.owner = User{ID: s.ids.next(), Username: "owner", GlobalName: "owner", Locale: "en-US"}
	s.users[s.owner.ID] = &s.owner
	s.http = &http.Server{Handler: s.newMux(), ReadHeaderTimeout: 10 * time.Second}
	go s.http.Serve(ln)
	return s, nil
}

// New starts a fake Discord for a test and stops it when the test ends. Clean-ups run last
// registered first, so a bot session started after New is closed before the fake stops.
func New(tb testing.TB, opts ...Options) *Server {
	tb.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	s, err := Start(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Close stops the server: gateway connections first (they are hijacked, so the HTTP server
// does not track them), then HTTP.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	conns := make([]*gatewayConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.drop()
	}
	s.http.Close()
}

// BaseURL is the fake's address, what DISCORD_API_URL should be: "http://127.0.0.1:PORT/".
// The REST API is under BaseURL+"api/v10/".
func (s *Server) BaseURL() string { return s.base + "/" }

// APIURL is the REST root: BaseURL + "api/v10/".
func (s *Server) APIURL() string { return s.base + "/api/v10/" }

// GatewayURL is the websocket address that GET /gateway returns.
func (s *Server) GatewayURL() string { return "ws" + s.base[len("http"):] + "/ws" }

// ResumeGatewayURL is READY's resume_gateway_url: the same gateway under another address, on
// which a session should be resumed (a RESUME on GatewayURL is a GatewayFault).
func (s *Server) ResumeGatewayURL() string { return "ws" + s.base[len("http"):] + "/resume" }

// HTTPClient is a client for discordgo (Session.Client) that sends its requests for
// Discord's API (https://discord.com/api/v9/...) to the fake's /api/v10/, as the bot's
// transport does with DISCORD_API_URL.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: toFake{s}}
}

type toFake struct{ srv *Server }

func (t toFake) RoundTrip(r *http.Request) (*http.Response, error) {
	_, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/api/v"), "/")
	u, err := url.Parse(t.srv.APIURL() + rest)
	if err != nil {
		return nil, err
	}
	u.RawQuery = r.URL.RawQuery
	out := r.Clone(r.Context()) // a RoundTripper must not change the caller's request
	out.URL, out.Host = u, ""
	return http.DefaultTransport.RoundTrip(out)
}

// Token is the bot token to give discordgo: "Bot " + Options.Token.
func (s *Server) Token() string { return "Bot " + s.opts.Token }

// Bot is the bot's user; its ID is also the application ID.
func (s *Server) Bot() User { return s.bot }

// AppID is the application ID (equal to the bot user's ID, as for Discord bots).
func (s *Server) AppID() string { return s.bot.ID }

// Spec is the compiled OpenAPI description the server validates with.
func (s *Server) Spec() *Spec { return s.spec }

// changedLocked wakes every waiter. Callers hold s.mu.
func (s *Server) changedLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}
