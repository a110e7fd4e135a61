package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/internal/testkit/sketch"
	"conductor/store"
	"conductor/web"
)

// sharedRenderer keeps the boards' static art between tests.
var sharedRenderer = imaging.NewRenderer()

// stack is a fake Discord with one guild, the real bot (discordgo), the
// commands.Service, a bbolt store and the web transport on an httptest
// server, wired as `conductor run` wires them.
type stack struct {
	t     testing.TB
	srv   *fakediscord.Server
	guild fakediscord.Guild
	st    *store.Store
	svc   *commands.Service
	b     *bot.Bot
	web   *web.Server
	http  *httptest.Server
	seq   atomic.Int64
}

func logger() *slog.Logger {
	if os.Getenv("CONDUCTOR_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// logWriter is where logger writes: stderr with CONDUCTOR_TEST_LOG set.
func logWriter() io.Writer {
	if os.Getenv("CONDUCTOR_TEST_LOG") != "" {
		return os.Stderr
	}
	return io.Discard
}

type stackOptions struct {
	// mux, when set, gets the page's handler at "/" and may add routes.
	mux func(page http.Handler) http.Handler
	// noPublicURL leaves CONDUCTOR_PUBLIC_URL unset (default: the test
	// server's own address).
	noPublicURL bool
	// entryPoint, when set, is the handler of the Entry Point command
	// Discord made before the bot starts (Activities turned on).
	entryPoint int
	// poster, when set, makes what takes the tables' posts instead of the
	// bot.
	poster func(*bot.Bot) commands.Poster
	// discord, when set, wraps what the page's server asks Discord with
	// the bot token.
	discord func(web.Discord) web.Discord
	// logs, when set, gets the page's server's log lines (debug and up).
	logs *logBuffer
	// now, when set, is the page's server's clock.
	now func() time.Time
	// web, when set, changes the page's server's options.
	web func(*web.Options)
	// bots gives the tables bots (each plays its first legal move) at
	// four levels, as `conductor run` does with the real ones.
	bots bool
	// dsn, when set, is the PostgreSQL database of the store (default: a
	// bbolt file); owns, when set, says which servers' tables this
	// process owns (commands.Config.Owns).
	dsn  string
	owns func(guild string) bool
}

// firstLegal is a bot that plays the first legal move.
type firstLegal struct{}

func (firstLegal) Choose(_ context.Context, _ engine.PlayerView, legal []engine.Action) engine.Action {
	return legal[0]
}

// logBuffer collects log lines; safe for concurrent writers.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newStack(t testing.TB, opts ...stackOptions) *stack {
	t.Helper()
	var o stackOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	srv := fakediscord.New(t, fakediscord.Options{HeartbeatInterval: 2 * time.Second, WaitTimeout: 30 * time.Second})
	s := &stack{t: t, srv: srv, guild: srv.CreateGuild("Rail Club")}
	if o.entryPoint != 0 {
		srv.CreateEntryPoint(o.entryPoint)
	}
	where, timeout := filepath.Join(t.TempDir(), "conductor.db"), time.Second
	if o.dsn != "" {
		where, timeout = o.dsn, 5*time.Second
	}
	st, err := store.Open(where, &store.Options{NoSync: true, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	s.st = st
	cat := data.Embedded()
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(cat.IDs()),
		Logger: logger(), ReadyTimeout: 20 * time.Second, Activity: true})
	if err != nil {
		t.Fatal(err)
	}
	s.b = b
	// The handler comes first: the test server's address is the public URL.
	var handler atomic.Value
	s.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.Load().(http.Handler).ServeHTTP(w, r)
	}))
	public := s.http.URL
	if o.noPublicURL {
		public = ""
	}
	var discord web.Discord = b
	if o.discord != nil {
		discord = o.discord(b)
	}
	webLog := logger()
	if o.logs != nil {
		webLog = slog.New(slog.NewTextHandler(io.MultiWriter(o.logs, logWriter()), &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	wo := web.Options{AppID: b.AppID, ClientSecret: srv.ClientSecret(), APIBase: srv.BaseURL(), PublicURL: public,
		Discord: discord, Store: st, Renderer: sharedRenderer, Logger: webLog, Now: o.now}
	if o.web != nil {
		o.web(&wo)
	}
	ws, err := web.New(wo)
	if err != nil {
		t.Fatal(err)
	}
	s.web = ws
	var poster commands.Poster = b
	if o.poster != nil {
		poster = o.poster(b)
	}
	// The deals come from a fixed sequence: a test that claims a route
	// must find one claimable on every run (a random Europe deal leaves
	// the first player nothing to claim about once in 250).
	var dealt atomic.Uint64
	// The pictures posted in Discord are one-pixel sketches: these tests
	// check the page, which draws from sharedRenderer; Discord's board
	// pictures are the imaging and present tests' business.
	cfg := commands.Config{Catalog: cat, Store: st, Renderer: &sketch.Renderer{}, Poster: poster, Logger: logger(),
		BotDelay: time.Millisecond, Activity: ws, NewSeed: func() uint64 { return dealt.Add(1) * 0x9e3779b97f4a7c15 }, Owns: o.owns}
	if o.bots {
		cfg.Bots = func(string, uint64) (commands.Bot, error) { return firstLegal{}, nil }
		cfg.BotLevels = []string{"easy", "normal", "hard", "expert"}
	}
	s.svc = commands.New(cfg)
	ws.Attach(s.svc)
	var h http.Handler = ws.Handler()
	if o.mux != nil {
		h = o.mux(h)
	}
	handler.Store(h)
	if err := b.Start(context.Background(), s.svc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ws.Close()
		s.http.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b.Stop(ctx)
		s.svc.Close()
		b.Close()
		st.Close()
	})
	return s
}

// textOf is the text of a request's answers, a message a line.
func textOf(r *commands.Recorder) string {
	var parts []string
	for _, m := range r.Messages() {
		parts = append(parts, m.Content)
	}
	return strings.Join(parts, "\n")
}

// handle sends a request as a user, as the bot would from Discord.
func (s *stack) handle(user fakediscord.User, channel string, req commands.Request) *commands.Recorder {
	req.ID = fmt.Sprint("test-", s.seq.Add(1))
	req.Guild, req.Channel, req.User, req.UserName = s.guild.ID, channel, user.ID, user.Username
	if req.Locale == "" {
		req.Locale = "en"
	}
	c := &commands.Recorder{}
	s.svc.Handle(context.Background(), &req, c)
	return c
}

// game opens a Europe game in a thread of a new channel with the players,
// starts it and has everyone keep their first tickets: the first player
// is to play. It returns the thread.
func (s *stack) game(players ...fakediscord.User) (parent, thread string) {
	return s.gameWith(map[string]string{"map": "europe"}, players...)
}

// gameWith is game with /ttr new's options.
func (s *stack) gameWith(options map[string]string, players ...fakediscord.User) (parent, thread string) {
	s.t.Helper()
	ch := s.srv.CreateTextChannel(s.guild.ID, fmt.Sprint("table-", s.seq.Add(1)))
	return ch.ID, s.gameIn(ch.ID, options, players...)
}

// gameIn is gameWith in a given channel; with the option thread=false the
// game plays in the channel itself. It returns the game's channel.
func (s *stack) gameIn(channel string, options map[string]string, players ...fakediscord.User) (thread string) {
	s.t.Helper()
	before := len(s.srv.Threads(channel))
	c := s.handle(players[0], channel, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "new", Options: options})
	threads := s.srv.Threads(channel)
	switch {
	case options["thread"] == "false":
		thread = channel
	case len(threads) != before+1:
		s.t.Fatalf("/ttr new opened no thread: %s", textOf(c))
	default:
		thread = threads[len(threads)-1].ID
	}
	for _, p := range players[1:] {
		if c := s.handle(p, thread, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "join"}); strings.Contains(textOf(c), "⛔") {
			s.t.Fatalf("join: %s", textOf(c))
		}
	}
	s.handle(players[0], thread, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "start"})
	for _, p := range players {
		v, err := s.svc.View(thread, p.ID, "en")
		if err != nil || v.Prompt == nil {
			s.t.Fatalf("%s has no ticket choice after the start: %v", p.Username, err)
		}
		var menu commands.Component
		for _, row := range v.Prompt.Components {
			for _, c := range row {
				if c.Kind == commands.Select {
					menu = c
				}
			}
		}
		var values []string
		for _, o := range menu.Options {
			values = append(values, o.Value)
		}
		s.handle(p, thread, commands.Request{Type: commands.ComponentRequest, CustomID: menu.ID, Values: values})
	}
	s.svc.Quiet()
	return thread
}

// session opens a page session as a user in an instance, through the
// OAuth code the Discord client would give the page.
func (s *stack) session(user fakediscord.User, instance string) (*sessionAnswer, int) {
	s.t.Helper()
	body, _ := json.Marshal(map[string]string{"code": s.srv.OAuthCode(user.ID), "instance_id": instance})
	resp, err := http.Post(s.http.URL+"/api/session", "application/json", bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans sessionAnswer
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &ans)
	ans.raw = raw
	return &ans, resp.StatusCode
}

// sessionAnswer is POST /api/session's answer, as the page reads it.
type sessionAnswer struct {
	Session     string            `json:"session"`
	AccessToken string            `json:"access_token"`
	Error       string            `json:"error"`
	Message     string            `json:"message"`
	Texts       map[string]string `json:"texts"`
	Game        *struct {
		ID, Channel string
	} `json:"game"`
	Games []struct {
		Channel, Label string
	} `json:"games"`
	Setup *struct {
		Boards []struct {
			ID, Name string
			Variants []struct{ Value, Label string }
		} `json:"boards"`
		Levels []struct{ Value, Label string } `json:"levels"`
		Seats  int                             `json:"seats"`
	} `json:"setup"`
	raw []byte
}

// call makes an API request with a session.
func (s *stack) call(session, method, path string, body any) (int, []byte) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.http.URL+path, rd)
	if session != "" {
		req.Header.Set("Authorization", "Bearer "+session)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// frame is a state frame as the page reads it.
type frame struct {
	Type    string `json:"type"`
	Version uint64 `json:"version"`
	Game    string `json:"game"`
	SVG     string `json:"svg"`
	Origin  string `json:"origin"`
	Seat    int    `json:"seat"`
	Current int    `json:"current"`
	Owners  []int8 `json:"owners"`
	Status  string `json:"status"`
	FaceUp  []struct {
		Name string `json:"name"`
		Take *struct {
			ID       string `json:"id"`
			Disabled bool   `json:"disabled"`
		} `json:"take"`
	} `json:"faceUp"`
	Deck          *struct{ ID string } `json:"deck"`
	TicketsButton *struct{ ID string } `json:"ticketsButton"`
	Hand          []struct {
		Name string `json:"name"`
		N    int    `json:"n"`
	} `json:"hand"`
	Tickets []struct {
		Label  string `json:"label"`
		Done   bool   `json:"done"`
		Cities []int  `json:"cities"`
	} `json:"tickets"`
	Prompt *struct {
		Text string `json:"text"`
		Rows [][]struct {
			Kind, ID, Label string
			Options         []struct{ Label, Value string }
		} `json:"rows"`
	} `json:"prompt"`
	CanClaim  bool   `json:"canClaim"`
	Claimable []int  `json:"claimable"`
	Replay    string `json:"replay"`
	Text      string `json:"text"`
}

func (s *stack) state(session string) frame {
	s.t.Helper()
	code, raw := s.call(session, "GET", "/api/state", nil)
	if code != http.StatusOK {
		s.t.Fatalf("GET /api/state: %d %s", code, raw)
	}
	var f frame
	if err := json.Unmarshal(raw, &f); err != nil {
		s.t.Fatal(err)
	}
	return f
}

// actAnswer is POST /api/act's answer.
type actAnswer struct {
	Replies []struct {
		Text string `json:"text"`
	} `json:"replies"`
	State json.RawMessage `json:"state"`
}

func (a actAnswer) text() string {
	var parts []string
	for _, r := range a.Replies {
		parts = append(parts, r.Text)
	}
	return strings.Join(parts, "\n")
}

func (s *stack) act(session string, body map[string]any) (actAnswer, []byte) {
	s.t.Helper()
	if _, ok := body["nonce"]; !ok {
		body["nonce"] = fmt.Sprintf("nonce%08d", s.seq.Add(1))
	}
	code, raw := s.call(session, "POST", "/api/act", body)
	if code != http.StatusOK {
		s.t.Fatalf("POST /api/act %v: %d %s", body, code, raw)
	}
	var a actAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		s.t.Fatal(err)
	}
	return a, raw
}

// playTurns plays n turns through the page's API, as the players would:
// the player to play claims a track if they can (paying as first offered,
// tunnels included), else draws two cards from the deck.
func (s *stack) playTurns(thread string, sessions map[string]string, users []fakediscord.User, n int) {
	s.t.Helper()
	for range n {
		mover := s.current(thread, users...)
		sess := sessions[mover.ID]
		g := s.engineGame(thread)
		v, _ := s.svc.View(thread, mover.ID, "en")
		ref := ""
		best := -1
		for _, a := range g.LegalActions(v.Seat, nil) {
			if a.Kind == engine.ActClaim && int(v.Board.Tracks[a.Track].Length) > best {
				best, ref = int(v.Board.Tracks[a.Track].Length), engine.TrackRef(v.Board, a.Track)
			}
		}
		var f frame
		if ref != "" {
			a, _ := s.act(sess, map[string]any{"route": ref})
			json.Unmarshal(a.State, &f)
		} else {
			f = s.state(sess)
			a, _ := s.act(sess, map[string]any{"custom_id": f.Deck.ID})
			json.Unmarshal(a.State, &f)
			if f.Deck != nil {
				a, _ = s.act(sess, map[string]any{"custom_id": f.Deck.ID})
				json.Unmarshal(a.State, &f)
			}
		}
		// Answer what the move asks: a payment, a tunnel's extra cards.
		for i := 0; i < 3 && f.Prompt != nil && len(f.Prompt.Rows) > 0 && len(f.Prompt.Rows[0]) > 0; i++ {
			c := f.Prompt.Rows[0][0]
			a, _ := s.act(sess, map[string]any{"custom_id": c.ID})
			f = frame{}
			json.Unmarshal(a.State, &f)
		}
		s.svc.Quiet()
	}
}
