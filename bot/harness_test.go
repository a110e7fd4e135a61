package bot_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/ai"
	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
	"conductor/internal/pgtest"
	"conductor/internal/testkit/sketch"
	"conductor/present"
	"conductor/store"
)

// TestMain stops the PostgreSQL cluster the tests on PostgreSQL started.
func TestMain(m *testing.M) { pgtest.Main(m) }

// env is a fake Discord with one guild and a running bot: the real
// discordgo client, the commands.Service and a bbolt store, wired as
// `conductor run` wires them.
type env struct {
	t      testing.TB
	srv    *fakediscord.Server
	guild  fakediscord.Guild
	dbPath string

	// The running bot; replaced by restart.
	st      *store.Store
	svc     *commands.Service
	b       *bot.Bot
	tracker *tracker
	running bool

	deferAfter time.Duration
	// identifyInterval is the fake's pace of logins, the bot's too.
	identifyInterval time.Duration
	bots             bool
	botDelay         time.Duration
	logs             io.Writer
	now              func() time.Time
	globalRate       float64
	// ahead moves the service's clock (a restart long after a crash).
	ahead time.Duration
	// newSeed deals the games' seeds (nil: at random).
	newSeed func() uint64
	// activity is the live page as the commands see it; nil when it is off.
	activity commands.Activity
	global   bool
	// pictures draws the boards, hands, score sheets and replays.
	pictures commands.Renderer
}

type envOptions struct {
	fake       fakediscord.Options
	deferAfter time.Duration
	// bots makes the ai package's bots available to /ttr addbot; botDelay
	// is their pause before moving (default 1ms).
	bots     bool
	botDelay time.Duration
	// logs, when set, receives the bot's log at the default level (info).
	logs io.Writer
	// now is the Service's clock (default the machine's).
	now func() time.Time
	// globalRate is the bot's pace under Discord's global limit (bot.Config).
	globalRate float64
	// newSeed deals each new game's seed (default: at random), for games
	// that play the same on every run.
	newSeed func() uint64
	// activity, when set, turns the live page on (activity_test.go).
	activity commands.Activity
	// global registers the commands for every server, not the env's alone.
	global bool
	// pictures draws the pictures (the benchmarks' real ones). Unset, they
	// are one-pixel sketches (internal/testkit/sketch): the bot carries
	// pictures as bytes, and drawing real ones was most of these tests'
	// time under the race detector; their pixels and sizes are the imaging
	// and present tests' business.
	pictures commands.Renderer
	// prepare changes the fake before the bot first starts (faults, the
	// application's emojis).
	prepare func(*fakediscord.Server)
	// postgres keeps the games in a PostgreSQL database of the env's own
	// (as does CONDUCTOR_TEST_POSTGRES=1 for every env: the suite on it).
	postgres bool
}

func newEnv(t testing.TB, opts ...envOptions) *env {
	t.Helper()
	var o envOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.fake.CallbackDeadline == 0 {
		// As on Discord: a callback later than 3 s is refused.
		o.fake.CallbackDeadline = 3 * time.Second
	}
	if o.fake.WaitTimeout == 0 {
		o.fake.WaitTimeout = 60 * time.Second
	}
	if o.fake.HeartbeatInterval == 0 {
		// discordgo gives a connection up after five missed ACKs: at the
		// fake's 500 ms a machine loaded by the race detector can starve it
		// that long. Two seconds keeps heartbeats frequent enough to test.
		o.fake.HeartbeatInterval = 2 * time.Second
	}
	if o.fake.IdentifyInterval == 0 {
		// A restart logs in again at once: far sooner than Discord's 5 s
		// after the first login. The bot is told the same pace.
		o.fake.IdentifyInterval = 10 * time.Millisecond
	}
	srv := fakediscord.New(t, o.fake)
	if o.botDelay == 0 {
		o.botDelay = time.Millisecond
	}
	if o.pictures == nil {
		o.pictures = &sketch.Renderer{}
	}
	dbPath := filepath.Join(t.TempDir(), "conductor.db")
	if o.postgres || os.Getenv("CONDUCTOR_TEST_POSTGRES") != "" {
		dbPath = pgtest.Database(t)
	}
	e := &env{t: t, srv: srv, guild: srv.CreateGuild("Rail Club"), dbPath: dbPath,
		deferAfter: o.deferAfter, identifyInterval: o.fake.IdentifyInterval, bots: o.bots, botDelay: o.botDelay, logs: o.logs, now: o.now, globalRate: o.globalRate, newSeed: o.newSeed,
		activity: o.activity, global: o.global, pictures: o.pictures}
	if o.prepare != nil {
		o.prepare(srv)
	}
	e.start()
	t.Cleanup(e.stop) // runs before the fake stops
	return e
}

// as is the env seen from another (sub)test: the same fake and bot, with
// failures reported to t. Parallel subtests each use their own.
func (e *env) as(t testing.TB) *env {
	c := *e
	c.t = t
	return &c
}

// logger is quiet unless CONDUCTOR_TEST_LOG is set.
func logger() *slog.Logger {
	if os.Getenv("CONDUCTOR_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// start opens the store and starts a bot, as a new process would.
func (e *env) start() {
	e.t.Helper()
	st, err := store.Open(e.dbPath, &store.Options{NoSync: true, Timeout: time.Second})
	if err != nil {
		e.t.Fatal(err)
	}
	cat := data.Embedded()
	log := logger()
	if e.logs != nil {
		log = slog.New(slog.NewTextHandler(e.logs, nil))
	}
	guildID := e.guild.ID
	if e.global {
		guildID = ""
	}
	b, err := bot.New(bot.Config{Token: e.srv.Token(), APIBase: e.srv.BaseURL(), GuildID: guildID,
		Commands: commands.Definitions(cat.IDs()), Logger: log, DeferAfter: e.deferAfter, ReadyTimeout: 20 * time.Second, GlobalRate: e.globalRate,
		// The fake times logins as it reads them, and under -race on a busy machine a
		// reader can lag a few milliseconds: the bot keeps half an interval more apart
		// (Discord's 5 s leave its margin of 0.5 s far above such lags).
		IdentifyInterval: e.identifyInterval * 3 / 2,
		Activity:         e.activity != nil, Emojis: present.AppEmojis()})
	if err != nil {
		e.t.Fatal(err)
	}
	cfg := commands.Config{Catalog: cat, Store: st, Renderer: e.pictures, Poster: b, Logger: log, BotDelay: e.botDelay, Now: e.now,
		Activity: e.activity, NewSeed: e.newSeed}
	if ahead := e.ahead; ahead != 0 {
		cfg.Now = func() time.Time { return time.Now().Add(ahead) }
	}
	if e.bots {
		cfg.Bots = func(level string, seed uint64) (commands.Bot, error) { return ai.NewWithContext(level, seed) }
		cfg.BotLevels = ai.Levels
	}
	svc := commands.New(cfg)
	if err := svc.Resume(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	e.st, e.svc, e.b, e.tracker = st, svc, b, newTracker(svc)
	if err := b.Start(context.Background(), e.tracker); err != nil {
		e.t.Fatal(err)
	}
	e.running = true
	// The application emojis are uploaded in the background: the tests
	// start from a settled bot, whose requests are then the moves' alone.
	select {
	case <-b.EmojisSettled():
	case <-time.After(60 * time.Second):
		e.t.Fatal("the application emojis were not settled within 60s")
	}
}

// stop shuts the bot down the way `conductor run` does on SIGTERM.
func (e *env) stop() {
	if !e.running {
		return
	}
	e.running = false
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.b.Stop(ctx); err != nil {
		e.t.Error(err)
	}
	e.svc.Close()
	if err := e.b.Close(); err != nil {
		e.t.Error(err)
	}
	if err := e.st.Close(); err != nil {
		e.t.Error(err)
	}
}

// restart stops the bot and starts a new one on the same database and fake.
func (e *env) restart() {
	e.t.Helper()
	e.stop()
	e.start()
}

// tracker wraps the Service to tell the test when the bot has finished
// handling an interaction: every post it makes is then recorded.
type tracker struct {
	h    bot.Handler
	mu   sync.Mutex
	cond *sync.Cond
	done map[string]int
}

func newTracker(h bot.Handler) *tracker {
	t := &tracker{h: h, done: map[string]int{}}
	t.cond = sync.NewCond(&t.mu)
	return t
}

func (t *tracker) Handle(ctx context.Context, req *commands.Request, resp commands.Responder) {
	defer func() {
		t.mu.Lock()
		t.done[req.ID]++
		t.cond.Broadcast()
		t.mu.Unlock()
	}()
	t.h.Handle(ctx, req, resp)
}

// SetCommandIDs passes the registered commands' ids on, as the bot gives
// them to the Service it serves.
func (t *tracker) SetCommandIDs(ids map[string]string) {
	if s, ok := t.h.(bot.CommandIDsSetter); ok {
		s.SetCommandIDs(ids)
	}
}

// wait blocks until the interaction was handled n times (at most 60 s).
func (t *tracker) wait(id string, n int) error {
	deadline := time.Now().Add(60 * time.Second)
	timer := time.AfterFunc(time.Until(deadline), func() {
		t.mu.Lock()
		t.cond.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.done[id] < n {
		if time.Now().After(deadline) {
			return fmt.Errorf("interaction %s was not handled within 60s", id)
		}
		t.cond.Wait()
	}
	return nil
}

// answer is what one interaction produced: the callback and the message it
// shows (the reply, the updated message, or the first follow-up).
type answer struct {
	h   *fakediscord.InteractionHandle
	cb  fakediscord.Callback
	msg fakediscord.Message
	// reply is the interaction's own answer where msg is another message
	// (newGame: the lobby).
	reply fakediscord.Message
}

// finish waits until the bot handled the interaction and reads its answer.
func (e *env) finish(h *fakediscord.InteractionHandle, err error) answer {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.tracker.wait(h.ID, 1); err != nil {
		e.t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	if err != nil {
		e.t.Fatal(err)
	}
	a := answer{h: h, cb: cb}
	switch cb.Type {
	case fakediscord.CallbackMessage, fakediscord.CallbackUpdateMessage, fakediscord.CallbackDeferredMessage:
		a.msg, _ = h.Original()
		if cb.Type == fakediscord.CallbackDeferredMessage && a.msg.Loading() || a.msg.Deleted {
			if fs := h.Followups(); len(fs) > 0 {
				a.msg = fs[0]
			}
		}
	case fakediscord.CallbackDeferredUpdate:
		if fs := h.Followups(); len(fs) > 0 {
			a.msg = fs[0]
		} else {
			a.msg, _ = h.Original()
		}
	}
	return a
}

func (e *env) user(name string) fakediscord.User { return e.srv.CreateUser(name) }

func (e *env) channel(name string) fakediscord.Channel {
	return e.srv.CreateTextChannel(e.guild.ID, name)
}

// send makes an interaction. When the bot is reconnecting (no gateway
// session owns the guild's shard, so Discord could not deliver it and the
// player would see "interaction failed"), the player tries again once the
// bot is back, as people do.
func (e *env) send(make func() (*fakediscord.InteractionHandle, error)) (*fakediscord.InteractionHandle, error) {
	h, err := make()
	for try := 0; try < 3 && err != nil && strings.Contains(err.Error(), "no gateway session owns"); try++ {
		if werr := e.srv.WaitFor("the bot back on the gateway", func() bool { return e.srv.Connected(0) }); werr != nil {
			return h, err
		}
		h, err = make()
	}
	return h, err
}

// run runs a slash command and waits for its answer.
func (e *env) run(user, channel, name string, opts ...fakediscord.CommandOption) answer {
	e.t.Helper()
	return e.finish(e.send(func() (*fakediscord.InteractionHandle, error) { return e.srv.RunCommand(user, channel, name, opts...) }))
}

// ttr runs /ttr SUB.
func (e *env) ttr(user, channel, sub string, opts ...fakediscord.CommandOption) answer {
	e.t.Helper()
	return e.run(user, channel, "ttr", fakediscord.Subcommand(sub, opts...))
}

func (e *env) click(user, message, customID string) answer {
	e.t.Helper()
	return e.finish(e.send(func() (*fakediscord.InteractionHandle, error) { return e.srv.ClickButton(user, message, customID) }))
}

func (e *env) choose(user, message, customID string, values ...string) answer {
	e.t.Helper()
	return e.finish(e.send(func() (*fakediscord.InteractionHandle, error) {
		return e.srv.SelectValues(user, message, customID, values...)
	}))
}

// complete asks for autocomplete choices.
func (e *env) complete(user, channel, name string, opts ...fakediscord.CommandOption) []fakediscord.OptionChoice {
	e.t.Helper()
	a := e.finish(e.send(func() (*fakediscord.InteractionHandle, error) {
		return e.srv.Autocomplete(user, channel, name, opts...)
	}))
	if a.cb.Type != fakediscord.CallbackAutocompleteResult {
		e.t.Fatalf("autocomplete answered with callback type %d", a.cb.Type)
	}
	return a.cb.Choices
}

// newGame runs /ttr new in a channel and returns the answer and the
// game's channel: the thread it opened, or the channel itself when it
// opened none. /ttr new answers privately (the answer's reply) and posts
// the lobby in the channel: the answer's msg is that lobby when there is
// one, else the private answer.
func (e *env) newGame(user, channel string, opts ...fakediscord.CommandOption) (answer, fakediscord.Channel) {
	e.t.Helper()
	before := len(e.srv.Threads(channel))
	lobbies := len(e.lobbies(channel))
	a := e.ttr(user, channel, "new", opts...)
	a.reply = a.msg
	if ls := e.lobbies(channel); len(ls) > lobbies {
		a.msg = ls[len(ls)-1]
	}
	if th := e.srv.Threads(channel); len(th) > before {
		return a, th[len(th)-1]
	}
	ch, _ := e.srv.Channel(channel)
	return a, ch
}

// lobbies are the lobby posts of a channel, oldest first.
func (e *env) lobbies(channel string) []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range e.srv.Messages(channel) {
		if m.Public() && m.InteractionID == "" && button(m, "lobby:", ":join") != "" {
			out = append(out, m)
		}
	}
	return out
}

// latest is the newest live message of a channel that matches.
func (e *env) latest(channel string, match func(fakediscord.Message) bool) (fakediscord.Message, bool) {
	return e.srv.LatestMessage(channel, match)
}

// isBoard: the live public board (a picture and buttons); a newer board
// takes the buttons off the ones before it.
func isBoard(m fakediscord.Message) bool {
	return isBoardPost(m) && len(m.Buttons()) > 0
}

// isBoardPost: a public board post, live or not: with the board's picture
// (once a round), or in words with the table's status quoted under them.
func isBoardPost(m fakediscord.Message) bool {
	_, pic := m.Attachment("board.png")
	return m.Public() && (pic || statusOf(m) != "")
}

// statusOf is the table's status a board quotes under its words (whose
// turn, points, trains), "" when it has none.
func statusOf(m fakediscord.Message) string {
	if m.IsComponentsV2() { // a text display of its own, a line a seat
		for _, t := range m.TextDisplays() {
			if strings.Contains(t, "▶ ") {
				return strings.ReplaceAll(t, "\n", " | ")
			}
		}
		return ""
	}
	i := strings.LastIndex(m.Content, "\n> ")
	if i < 0 || !strings.Contains(m.Content[i:], "▶ ") {
		return ""
	}
	return m.Content[i+3:]
}

// button finds the custom id of an enabled component whose id starts with
// prefix and ends with suffix (before the "@thread" a lobby's buttons in
// the parent channel carry).
func button(m fakediscord.Message, prefix, suffix string) string {
	found := ""
	m.Walk(func(c fakediscord.Component) {
		id, _, _ := strings.Cut(c.CustomID, "@")
		if found == "" && !c.Disabled && strings.HasPrefix(id, prefix) && strings.HasSuffix(id, suffix) {
			found = c.CustomID
		}
	})
	return found
}

// selectMenu returns the first string select of a message.
func selectMenu(m fakediscord.Message) (fakediscord.Component, bool) {
	var found fakediscord.Component
	ok := false
	m.Walk(func(c fakediscord.Component) {
		if !ok && c.Type == fakediscord.ComponentStringSelect {
			found, ok = c, true
		}
	})
	return found, ok
}

var mentionRE = regexp.MustCompile(`<@!?(\d+)>`)

// lastMention is the user a board message says is to play.
func lastMention(content string) string {
	ms := mentionRE.FindAllStringSubmatch(content, -1)
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1][1]
}
