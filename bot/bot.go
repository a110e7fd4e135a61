package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"conductor/commands"
	"conductor/present"
)

// Handler answers requests: commands.Service in production.
type Handler interface {
	Handle(ctx context.Context, req *commands.Request, resp commands.Responder)
}

// Config configures a Bot.
type Config struct {
	// Token is the bot token, with or without the "Bot " prefix.
	Token string
	// GuildID, when set, registers the commands on that server only (they
	// appear at once); otherwise they are global.
	GuildID string
	// APIBase is Discord's address (DISCORD_API_URL); default
	// DefaultAPIBase. Tests point it at a fake.
	APIBase string
	// Commands are registered on every READY.
	Commands []commands.CommandDef
	// DeferAfter is how long a handler may take before its interaction is
	// deferred; default 2s (Discord allows 3s).
	DeferAfter time.Duration
	// ReadyTimeout bounds Start's wait for READY and the command
	// registration; default 30s.
	ReadyTimeout time.Duration
	// HTTPTimeout bounds each REST request; default 30s.
	HTTPTimeout time.Duration
	// ShardCount is the number of gateway shards of the whole bot
	// (CONDUCTOR_SHARD_COUNT): Discord sends shard i the events of the
	// servers with (guild_id >> 22) % ShardCount == i, and DMs to shard 0.
	// 0: the count Discord recommends in GET /gateway/bot.
	ShardCount int
	// Shards are the shards this process runs (CONDUCTOR_SHARDS); nil: all
	// of them. Each has its own gateway connection; they share everything
	// else (the handler, the REST client, the global gate).
	Shards *ShardRange
	// IdentifyInterval is how often Discord lets a bucket of shards log in:
	// IdentifyInterval (5 s) by default. Tests shorten it, for the fake
	// Discord too.
	IdentifyInterval time.Duration
	// IdentifyGate paces the gateway logins (identify.go); nil: the
	// process's own, which knows its own logins only.
	IdentifyGate IdentifyGate
	// IdentifyPace, with the process's own gate, keeps the logins of
	// each bucket apart across the fleet's processes too (identify.go).
	IdentifyPace IdentifyPace
	// GlobalRate is how many REST requests a second this process may make
	// under Discord's global rate limit (CONDUCTOR_GLOBAL_RATE); default
	// DefaultGlobalRate times the share of the shards this process runs.
	// Negative paces nothing.
	GlobalRate float64
	// GlobalLimiter paces the requests under Discord's global limit
	// (global_limit.go); nil: the process's own, at GlobalRate.
	GlobalLimiter GlobalLimiter
	Logger        *slog.Logger
	// Activity: the live page (web/) is on; the Entry Point command is
	// then answered by the bot (entrypoint.go).
	Activity bool
	// Emojis are uploaded to the application at start (emojis.go) and
	// shown in place of their Unicode stand-ins; none: Unicode only.
	Emojis []present.AppEmoji
}

// Bot is a Discord bot serving a Handler over one or more gateway shards,
// with one REST client (discordgo's session). It implements
// commands.Poster.
type Bot struct {
	cfg Config
	s   *discordgo.Session // REST only: the gateway is the bot's own (gateway.go)
	log *slog.Logger

	handler Handler
	// ctx ends when the bot closes (the interactions in flight are then
	// answered); runCtx is Start's, the process's: it ends the
	// registration's retries at once on SIGTERM.
	ctx    context.Context
	cancel context.CancelFunc
	runCtx context.Context

	// accepting and inflight let Stop refuse new interactions and wait for
	// the ones being handled.
	mu        sync.Mutex
	accepting bool
	inflight  sync.WaitGroup

	// The gateway (shards.go): its URL from GET /gateway/bot, the shards
	// and the context that ends them, the logins' gate, the dialer.
	gatewayURL string
	shards     []*shardConn
	shardCount int
	gwCancel   context.CancelFunc
	gwCtx      context.Context
	identify   IdentifyGate
	dialer     *websocket.Dialer
	// firstLogin is closed when the first shard may log in.
	firstLogin     chan struct{}
	firstLoginOnce sync.Once

	ready     chan error // the first registration's result, or a shard's refusal
	readyOnce sync.Once
	// regMu serialises the registration (once per process, on the first
	// READY of any shard); registered: it succeeded.
	regMu      sync.Mutex
	registered bool
	appID      atomic.Value // string

	dmChannels sync.Map // user id -> DM channel id

	health    health
	deferrals atomic.Int64
	// restFailures counts REST failures in a row (see counted).
	restFailures atomic.Int64
	// clock estimates Discord's time from its answers (clock.go).
	clock *discordClock
	// dropped counts the interactions dropped as too old to answer, and
	// droppedInARow those since one was last accepted.
	dropped, droppedInARow atomic.Int64
	// refused are the channels whose posts Discord refuses (channel id ->
	// refusedChannel).
	refused sync.Map
	// gate paces the requests under Discord's global limit (global_limit.go).
	gate *globalGate
	// answers follows interactions' answers, for their follow-ups (via.go).
	answers answers
	// emojis are the application's emojis (emojis.go).
	emojis appEmojis
	// layouts remembers how to take the buttons off the boards posted as
	// components v2 (controls.go).
	layouts layoutBook
	// unreadable are the channels where reading a board was refused (channel
	// id -> true): not asked again (poster.go).
	unreadable sync.Map
	// plain remembers that Discord refused a board's components v2 layout (layout.go).
	plain plainBoards
}

// New makes a Bot; nothing is sent before Start. Its REST requests go to
// cfg.APIBase.
func New(cfg Config) (*Bot, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("bot: no token")
	}
	if cfg.DeferAfter == 0 {
		cfg.DeferAfter = 2 * time.Second
	}
	if cfg.ReadyTimeout == 0 {
		cfg.ReadyTimeout = 30 * time.Second
	}
	if cfg.HTTPTimeout == 0 {
		cfg.HTTPTimeout = 30 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	token := strings.TrimSpace(cfg.Token)
	if !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	transport, err := newAPITransport(cfg.APIBase, nil)
	if err != nil {
		return nil, err
	}
	if cfg.IdentifyInterval <= 0 {
		cfg.IdentifyInterval = IdentifyInterval
	}
	if cfg.ShardCount < 0 {
		return nil, fmt.Errorf("shard count %d: give a positive count, or 0 for Discord's recommendation", cfg.ShardCount)
	}
	if r := cfg.Shards; r != nil && (r.From < 0 || r.To < r.From || cfg.ShardCount > 0 && r.To >= cfg.ShardCount) {
		return nil, fmt.Errorf("shards %v of %d: give shards from 0 to the count minus one, the first no greater than the last", *r, cfg.ShardCount)
	}
	routeDiscordgoLogs(cfg.Logger)
	s, err := discordgo.New(token)
	if err != nil {
		return nil, err
	}
	// The gate waits before a request is sent; the clock times the request
	// itself, so a wait at the gate never widens its bounds. Until Start
	// knows the shards, the gate allows the process's share of a single
	// shard's bot (the doctor's requests).
	clock := &discordClock{}
	gate := newGlobalGate(cfg.GlobalLimiter, cfg.GlobalRate)
	s.Client = &http.Client{Timeout: cfg.HTTPTimeout, Transport: gate.wrap(&clockedTransport{next: transport, clock: clock})}
	s.StateEnabled = false // Conductor reads nothing from the cache
	s.LogLevel = discordgo.LogWarning
	b := &Bot{cfg: cfg, s: s, log: cfg.Logger, ready: make(chan error, 1), clock: clock, gate: gate,
		dialer: &websocket.Dialer{Proxy: http.ProxyFromEnvironment, HandshakeTimeout: gatewayDialTimeout}, firstLogin: make(chan struct{})}
	b.emojis.set, b.emojis.done = cfg.Emojis, make(chan struct{})
	b.identify = cfg.IdentifyGate
	if b.identify == nil {
		g := newLocalIdentifyGate(systemClock{}, cfg.IdentifyInterval, b.sessionLimit, cfg.Logger)
		g.pace = cfg.IdentifyPace
		b.identify = g
	}
	b.health.init()
	return b, nil
}

// Session is the underlying discordgo session.
func (b *Bot) Session() *discordgo.Session { return b.s }

// Start checks the token with GET /gateway/bot, connects the shards
// (shards.go) and waits for the first READY and the registration of the
// commands. From then on every interaction is given to h in its own
// goroutine. The other shards go on logging in as Discord allows.
func (b *Bot) Start(ctx context.Context, h Handler) error {
	b.mu.Lock()
	b.handler = h
	b.ctx, b.cancel = context.WithCancel(context.Background())
	b.runCtx = ctx
	b.accepting = true
	b.mu.Unlock()
	gw, err := b.s.GatewayBot(discordgo.WithContext(ctx))
	if err != nil {
		if isUnauthorized(err) {
			//lint:ignore ST1005 the message starts with a name, Discord, which is capitalised
			return fmt.Errorf("Discord refused the token (401): check DISCORD_TOKEN: %w", err)
		}
		return fmt.Errorf("GET /gateway/bot: %w", err)
	}
	if err := b.startShards(gw); err != nil {
		return err
	}
	select {
	case <-b.firstLogin:
	case err := <-b.ready: // a shard refused before it could log in
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
	timer := time.NewTimer(b.cfg.ReadyTimeout)
	defer timer.Stop()
	select {
	case err := <-b.ready:
		return err
	case <-timer.C:
		return fmt.Errorf("no READY from the gateway within %v", b.cfg.ReadyTimeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func isUnauthorized(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized
}

// Stop refuses new interactions (they get a short "restarting" note) and
// waits, at most until ctx ends, for those being handled.
func (b *Bot) Stop(ctx context.Context) error {
	b.mu.Lock()
	b.accepting = false
	b.mu.Unlock()
	done := make(chan struct{})
	go func() {
		b.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("interactions still running: %w", ctx.Err())
	}
}

// AppID is the application id learnt from READY.
func (b *Bot) AppID() string {
	id, _ := b.appID.Load().(string)
	return id
}

// Deferrals counts the interactions that were deferred because their
// handler was slow.
func (b *Bot) Deferrals() int64 { return b.deferrals.Load() }

// onShardReady learns the application's id from a shard's READY and
// registers the commands, once for the process (they belong to the
// application, not to a shard).
func (b *Bot) onShardReady(c *shardConn, r *readyEvent) {
	appID := ""
	if r.Application != nil {
		appID = r.Application.ID
	}
	if appID == "" && r.User != nil {
		appID = r.User.ID
	}
	if appID != "" {
		b.appID.Store(appID)
	}
	go b.registerOnce(appID, r.User)
	b.syncEmojisOnce(appID)
}

func (b *Bot) registerOnce(appID string, user *discordgo.User) {
	b.regMu.Lock()
	defer b.regMu.Unlock()
	if b.registered {
		return
	}
	b.mu.Lock()
	ctx := b.runCtx
	b.mu.Unlock()
	if ctx == nil {
		ctx = context.Background()
	}
	err := b.register(ctx, appID)
	b.health.registered(err)
	if err != nil {
		b.log.Error("registering slash commands", "err", err)
		err = fmt.Errorf("registering the slash commands: %w", err)
	} else {
		b.registered = true
		b.log.Info("connected to Discord", "user", userName(user), "shards", len(b.shards), "of", b.shardCount, "commands", len(b.cfg.Commands))
	}
	b.readyOnce.Do(func() { b.ready <- err })
}

func userName(u *discordgo.User) string {
	if u == nil {
		return ""
	}
	return u.Username
}

// register bulk-overwrites the commands: on one server when GuildID is
// set, else globally. The ids Discord gives them go to the handler, whose
// texts then write commands as mentions. Closing the bot (ctx) ends the
// retries.
func (b *Bot) register(ctx context.Context, appID string) error {
	if appID == "" {
		return errors.New("READY named no application")
	}
	if !b.runsShard(0) {
		// Commands belong to the application, not to a shard: the process
		// of shard 0 registers them for all; the others read their ids.
		if got, err := b.s.ApplicationCommands(appID, b.cfg.GuildID, discordgo.WithContext(ctx)); err == nil {
			b.tellCommandIDs(got)
		} else {
			b.log.Warn("reading the slash commands' ids", "err", err)
		}
		return nil
	}
	cmds := ApplicationCommands(b.cfg.Commands, b.cfg.GuildID == "")
	put := func() ([]*discordgo.ApplicationCommand, error) {
		return b.s.ApplicationCommandBulkOverwrite(appID, b.cfg.GuildID, cmds, discordgo.WithContext(ctx))
	}
	if b.cfg.GuildID == "" {
		// Globally, Discord's Entry Point command must be kept.
		put = func() ([]*discordgo.ApplicationCommand, error) { return b.registerGlobal(ctx, appID, cmds) }
	}
	wait := registerRetry
	for attempt := 1; ; attempt++ {
		got, err := put()
		if err == nil {
			b.tellCommandIDs(got)
		}
		if err == nil || !retryable(err) || attempt == registerAttempts {
			return err
		}
		// A hiccup of Discord's (5xx, a rate limit, the network) must not
		// stop the bot: try again a few times before giving up.
		b.log.Warn("registering slash commands failed; retrying", "attempt", attempt, "in", wait, "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("registering slash commands: %w (last error: %v)", ctx.Err(), err)
		}
		wait *= 2
	}
}

// CommandIDsSetter is a Handler that writes commands as mentions once it
// knows their ids (commands.Service).
type CommandIDsSetter interface {
	SetCommandIDs(ids map[string]string)
}

// tellCommandIDs gives the registered commands' ids, by name, to the
// handler when it takes them.
func (b *Bot) tellCommandIDs(cmds []*discordgo.ApplicationCommand) {
	b.mu.Lock()
	h := b.handler
	b.mu.Unlock()
	setter, ok := h.(CommandIDsSetter)
	if !ok {
		return
	}
	ids := map[string]string{}
	for _, c := range cmds {
		if c != nil && c.ID != "" {
			ids[c.Name] = c.ID
		}
	}
	setter.SetCommandIDs(ids)
}

// Registration is tried registerAttempts times, waiting registerRetry and
// then twice as long each time (about half a minute in all).
var (
	registerAttempts = 5
	registerRetry    = 2 * time.Second
)

// retryable: a failure that may pass (Discord's 5xx, a rate limit, the
// network), not a refusal (a bad token, a refused body).
func retryable(err error) bool {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		c := re.Response.StatusCode
		return c >= 500 || c == http.StatusTooManyRequests || c == http.StatusRequestTimeout
	}
	var rl *discordgo.RateLimitError
	return errors.As(err, &rl) || !errors.As(err, &re)
}

// onInteraction runs in its own goroutine (gateway.go starts one for each);
// the Service serialises what happens in a channel.
func (b *Bot) onInteraction(ic *discordgo.InteractionCreate, raw []byte) {
	i := ic.Interaction
	req, focused, ok := toRequest(i)
	if !ok {
		return
	}
	req.ChannelKind = channelKind(raw)
	age, old := tooOld(i.ID, b.clock.now())
	if old {
		// Discord no longer takes an answer (a RESUME can replay such
		// interactions): applying it would play a move the player is told
		// failed, and may well make again. The age is judged on Discord's
		// clock (clock.go), not this machine's.
		b.dropped.Add(1)
		b.droppedInARow.Add(1)
		b.log.Warn("interaction too old to answer: dropped", "id", i.ID, "age", age.Round(time.Millisecond), "type", req.Type,
			"clock_offset", b.clock.offset().Round(time.Millisecond))
		return
	}
	b.droppedInARow.Store(0)
	b.mu.Lock()
	if !b.accepting {
		b.mu.Unlock()
		b.refuse(i, req)
		return
	}
	b.inflight.Add(1)
	h, ctx := b.handler, b.ctx
	b.mu.Unlock()
	defer b.inflight.Done()
	r := newResponder(ctx, b, i, req, focused)
	r.arm(deferIn(age, b.cfg.DeferAfter))
	defer r.disarm()
	var resp commands.Responder = r
	if req.Type != commands.AutocompleteRequest {
		// The board of a move goes through the interaction's webhook once
		// its answer is out (via.go).
		req.Via, req.ViaUntil = viaOf(i)
		w := b.answers.expect(i.ID)
		defer w.settle(false) // never answered: no follow-up waits for it
		resp = settling{r, w}
	}
	h.Handle(ctx, req, resp)
}

// answerWindow is how long after its creation Discord accepts the first
// answer to an interaction.
const answerWindow = 3 * time.Second

// tooOld reads an interaction id's snowflake time: one older than Discord's
// answer window at now (Discord's time) can no longer be answered.
func tooOld(id string, now time.Time) (time.Duration, bool) {
	created, err := discordgo.SnowflakeTimestamp(id)
	if err != nil {
		return 0, false
	}
	age := now.Sub(created)
	return age, age > answerWindow
}

// deferMargin is kept between a deferral and the end of Discord's answer
// window, for the callback's own trip.
const deferMargin = 500 * time.Millisecond

// deferIn is when to defer an interaction of this age: after the
// configured delay, but soon enough to land inside Discord's window when
// the interaction reached us late (a slow gateway, a RESUME's replay).
func deferIn(age, after time.Duration) time.Duration {
	return max(min(after, answerWindow-deferMargin-age), time.Millisecond)
}

// refuse answers an interaction that arrives while the bot shuts down.
func (b *Bot) refuse(i *discordgo.Interaction, req *commands.Request) {
	r := newResponder(context.Background(), b, i, req, 0)
	var err error
	if req.Type == commands.AutocompleteRequest {
		err = r.Choices(nil)
	} else {
		err = r.Reply(commands.Message{Ephemeral: true, Content: present.T(req.Locale, "bot.restarting")})
	}
	if err != nil {
		b.log.Debug("refusing an interaction while stopping", "err", err)
	}
}
