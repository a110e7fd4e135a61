package commands

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// ErrDMClosed is what Poster.DM returns (wrapped) when Discord refuses a DM
// for good: the user does not accept DMs (50007), is not a valid recipient
// (50033), the message trips their content filter (20009), or any other
// refusal but a request to wait.
var ErrDMClosed = errors.New("the user does not accept direct messages")

// Bot chooses actions for a seat from what that seat may see. A search
// stops when ctx is done (the service closing) and returns the best move
// it found so far; the service then discards it.
type Bot interface {
	Choose(ctx context.Context, view engine.PlayerView, legal []engine.Action) engine.Action
}

// BotMaker makes a bot of a level ("easy", "normal", "hard"…); seed makes
// it deterministic.
type BotMaker func(level string, seed uint64) (Bot, error)

// Config wires a Service.
type Config struct {
	Catalog *data.Catalog
	Store   *store.Store
	// Fleet, when several processes share the store, is the shards this
	// one serves (fleet.go); nil: every game is this process's.
	Fleet Fleet
	// Renderer draws the pictures (an *imaging.Renderer).
	Renderer Renderer
	Poster   Poster
	// Bots makes bot players; nil means /ttr addbot is unavailable.
	Bots      BotMaker
	BotLevels []string
	// BotDelay is the pause before a bot moves, so people can follow; zero
	// means no pause (the terminal's --bot-delay 0).
	BotDelay time.Duration
	// Now is the clock, and After waits on it (the sender's retries): tests
	// inject theirs. After is time.After when nil.
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
	// NewSeed deals each new game's seed; nil draws one from crypto/rand.
	// Tests inject a fixed sequence so that their deals are the same on
	// every run. Tables in different channels open at once, so it must be
	// safe for concurrent use.
	NewSeed func() uint64
	Logger  *slog.Logger
	// MaxLobbiesPerMember and MaxLobbiesPerChannel cap the tables still
	// forming that one member hosts (in a server) and that one channel
	// shows; LobbyExpiry closes a lobby nobody changed for that long. Zero
	// is the default (opening.go), a negative value no limit.
	MaxLobbiesPerMember, MaxLobbiesPerChannel int
	LobbyExpiry                               time.Duration
	// Activity is the board as a live page (web/), nil when it is off.
	Activity Activity
	// MaxTables bounds the tables kept in memory (DefaultMaxTables when
	// 0); IdleAfter is how long a table stays in memory unused
	// (DefaultIdleAfter when 0). See cache.go.
	MaxTables int
	IdleAfter time.Duration
	// Owns says whether this process owns the tables of a server's
	// channels (several processes on one PostgreSQL database each own
	// some: fleet.go); nil: it owns every table. A table another process
	// owns is only read here, never loaded to be played (mirror.go).
	Owns func(guild string) bool
}

// Service runs the games of every channel: it routes each request to its
// handler (router.go, routes.go), behind the checks that lock the
// channel's table (tables) and find the asker's seat; the handler decides
// and commits under the lock and returns its answer, sent once the lock is
// released (response.go). What runs beside the requests has a type of its
// own, each with the few collaborators it needs: the sender of the outbox
// (out, sender.go), the opening of tables (opener, opening.go), the bots'
// turns (runner, botrunner.go), the deadlines (timers, timer.go) and the
// replays (replay.go).
type Service struct {
	cfg Config
	log *slog.Logger

	routes  *router
	tables  *tableCache
	out     *sender
	opener  *opener
	runner  *botRunner
	timers  *deadlines
	replays *replays
	hands   handCache
	recent  recentIDs
	// mirrors are the tables of other processes this one reads.
	mirrors *mirrors
	// moves counts the turns people complete, when the poster counts
	// them (MoveCounter).
	moves MoveCounter

	// ctx is done once the service closes: a bot's search in progress
	// stops, and so do the sender's requests; cancel ends it.
	ctx    context.Context
	cancel context.CancelFunc
}

// New makes a Service.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.After == nil {
		cfg.After = time.After
	}
	if cfg.NewSeed == nil {
		cfg.NewSeed = newSeed
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxTables <= 0 {
		cfg.MaxTables = DefaultMaxTables
	}
	if cfg.IdleAfter <= 0 {
		cfg.IdleAfter = DefaultIdleAfter
	}
	if cfg.LobbyExpiry == 0 {
		cfg.LobbyExpiry = DefaultLobbyExpiry
	}
	s := &Service{cfg: cfg, log: cfg.Logger}
	s.moves, _ = cfg.Poster.(MoveCounter)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	notes := &notes{}
	alarm := newAlarm()
	s.out = newSender(s.ctx, cfg.Fleet, cfg.Store, cfg.Poster, cfg.Renderer, cfg.Catalog, notes, clock{cfg.Now, cfg.After}, cfg.Logger)
	s.replays = &replays{store: cfg.Store, catalog: cfg.Catalog, renderer: cfg.Renderer, log: cfg.Logger}
	s.tables = newTableCache(cfg.MaxTables, cfg.IdleAfter, cfg.Now, s.openTable, s.parkTable, notes)
	s.runner = &botRunner{tables: s.tables, ctx: s.ctx, log: cfg.Logger, delay: cfg.BotDelay, makeBot: cfg.Bots}
	s.timers = &deadlines{tables: s.tables, store: cfg.Store, fleet: cfg.Fleet, now: cfg.Now, log: cfg.Logger, alarm: alarm, ctx: s.ctx}
	s.opener = &opener{tables: s.tables, store: cfg.Store, catalog: cfg.Catalog, poster: cfg.Poster, now: cfg.Now, log: cfg.Logger, out: s.out,
		perMember: limit(cfg.MaxLobbiesPerMember, DefaultLobbiesPerMember), perChannel: limit(cfg.MaxLobbiesPerChannel, DefaultLobbiesPerChannel),
		lobbyExpiry: cfg.LobbyExpiry, openings: map[string]*sync.Mutex{}, rematching: map[string]bool{}}
	s.mirrors = newMirrors(cfg.MaxTables)
	s.routes = s.newRouter()
	return s
}

// Close stops bot moves and timers and waits for moves in flight. A bot
// thinking is told to stop: its move is not played, and the game waits in
// the store for the next start (its deadline is there).
func (s *Service) Close() {
	s.cancel()
	s.runner.close()
	s.out.close()
}

// withClose is ctx, cancelled as well when the service closes.
func (s *Service) withClose(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// Handle answers one request, then waits until the posts it caused in its
// channel are sent (or wait to be retried): a transport's request ends with
// the table up to date. It never returns an error: problems become
// friendly ephemeral replies, and unexpected ones are logged. A request
// whose id was handled already is ignored.
func (s *Service) Handle(ctx context.Context, req *Request, resp Responder) {
	if s.recent.seen(req.ID) {
		s.log.Debug("repeated interaction ignored", "id", req.ID)
		return
	}
	r := s.answer(ctx, req)
	err := r.sendTo(resp)
	if req.Type != AutocompleteRequest {
		s.out.waitSent(req.Channel)
	}
	if err != nil {
		s.log.Warn("reply failed", "channel", req.Channel, "command", req.Name, "custom_id", req.CustomID, "err", err)
	}
}

// answer decides a request's answer. Handlers decide and commit under the
// table's lock and return it; it is sent when no lock is held.
func (s *Service) answer(ctx context.Context, req *Request) response {
	return s.answered(req, func() (response, error) {
		switch req.Type {
		case CommandRequest, ComponentRequest:
			return s.routes.route(&call{ctx: ctx, req: req})
		case AutocompleteRequest:
			return s.autocomplete(req)
		}
		return reply(oops(req, "unknown request"))
	})
}

// answered is the answer decide decides, with what the table owes the
// person privately, or an apology for a handler's unexpected failure.
func (s *Service) answered(req *Request, decide func() (response, error)) response {
	r, err := decide()
	if req.Type != AutocompleteRequest {
		// What the table owes this person privately: posts Discord
		// refuses here.
		r.followUps = append(r.followUps, s.out.tellBlocked(req)...)
	}
	if err != nil {
		// A handler's unexpected failure still gets an answer.
		s.log.Warn("request failed", "channel", req.Channel, "command", req.Name, "custom_id", req.CustomID, "err", err)
		if r.kind == noAnswer && r.launch == nil {
			r.kind, r.msg = replyAnswer, oops(req, err.Error())
		}
	}
	return r
}

// oops is the ephemeral reply to an unexpected failure.
func oops(req *Request, what string) Message {
	return Message{Ephemeral: true, Content: present.T(req.Locale, "error.internal", "what", what)}
}

// note is an ephemeral one-liner.
func note(text string) Message { return Message{Ephemeral: true, Content: text} }

// Board is one of the service's boards, by id.
func (s *Service) Board(id string) (*data.Board, error) { return s.cfg.Catalog.Board(id) }
