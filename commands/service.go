package commands

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
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
	// Renderer draws the pictures (an *imaging.Renderer).
	Renderer Renderer
	Poster   Poster
	// Bots makes bot players; nil means /ttr addbot is unavailable.
	Bots      BotMaker
	BotLevels []string
	// BotDelay is the pause before a bot moves, so people can follow; zero
	// means no pause (the terminal's --bot-delay 0).
	BotDelay time.Duration
	// Now is the clock (tests inject one).
	Now func() time.Time
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
}

// Service runs the games of every channel: it routes each request to its
// handler, which finds the channel's table (tables), decides and commits
// under the table's lock and returns its answer, sent once the lock is
// released (response.go). What runs beside the requests has a type of its
// own, each with the few collaborators it needs: the sender of the outbox
// (out, sender.go), the opening of tables (opener, opening.go), the bots'
// turns (runner, botrunner.go), the deadlines (timers, timer.go) and the
// replays (replay.go).
type Service struct {
	*house // what the service shares with every table (house.go)

	tables  *tableCache
	opener  *opener
	runner  *botRunner
	timers  *deadlines
	replays *replays
	hands   handCache
	recent  recentIDs

	// cancelCtx ends the house's context: a bot's search in progress
	// stops, and so do the sender's requests.
	cancelCtx context.CancelFunc
}

// table is one channel's game, loaded from the store, guarded by its own
// lock so that actions in a channel are applied one at a time. It stays
// in memory while it is used, and is dropped when idle (cache.go).
type table struct {
	*house
	mu      sync.Mutex
	channel string
	// gone: the table was dropped from memory; whoever waited for its
	// lock looks the channel up again.
	gone bool
	// elem is the table's place in the service's lru and used when it was
	// last asked for (both guarded by the service's mu).
	elem *list.Element
	used time.Time
	rec  *store.GameRecord // nil: no game here
	game *engine.Game      // nil in the lobby
	// snapMoves is the length of the log at the game's last stored
	// snapshot (restore.go).
	snapMoves int
	// told is what the table has narrated: the turn being played, the
	// last lines for /log.
	told narration
	// pending holds per-user flows waiting for a button: confirmations, trips.
	pending map[string]pendingAction
	// undo is an open undo vote.
	undo *undoVote
	// botTimer is armed while a bot is about to move; botArmed counts
	// the timers armed, so that one that fired knows whether it is the
	// latest. thinking counts the bot turns being played (bots.go): their
	// bots decide with the lock released, and the table stays in memory
	// until they have moved.
	botTimer *time.Timer
	botArmed int
	thinking int
	// setupThinking is set while bots choose their initial tickets with
	// the lock released (botsetup.go).
	setupThinking bool
	// boardShown is when /board last reposted the board.
	boardShown time.Time
	// snap is what the table looked like when its lock was last released:
	// autocomplete reads it and never waits for the lock.
	snap atomic.Pointer[tableSnapshot]
	// changed is told, outside the lock, when a release published a
	// changed table (see publish); nil when nobody listens.
	changed func()
}

// tableSnapshot is a table as it stood, for readers that must not wait.
type tableSnapshot struct {
	rec  store.GameRecord // Seats copied; Log left out
	game *engine.Game     // a clone; nil in the lobby
	view viewSnapshot     // what View reads besides (view.go)
}

// unlock brings the game's deadline up to date, publishes the table's
// state for autocomplete, then releases it.
func (t *table) unlock() {
	if t.house != nil {
		t.syncDue()
	}
	snap := &tableSnapshot{}
	if t.rec != nil {
		snap.rec = *t.rec
		snap.rec.Seats = append([]store.Seat(nil), t.rec.Seats...)
		snap.rec.Log = nil
		if t.game != nil {
			snap.game = t.game.Clone()
		}
	}
	changed := t.publish(snap)
	t.mu.Unlock()
	if changed && t.changed != nil {
		t.changed()
	}
}

type pendingAction struct {
	action engine.Action
	// pay: the move waits for the player to choose how to pay.
	pay   bool
	trips []engine.Trip
	from  data.CityID
	turn  int
}

type undoVote struct {
	logLen int // the log length to go back to
	by     string
	// voters are the humans whose moves would be taken back; agreed, who
	// said yes.
	voters, agreed map[string]bool
}

// New makes a Service.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
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
	s := &Service{house: &house{cfg: cfg, log: cfg.Logger, alarm: newAlarm(), dmRefused: map[string]bool{}}}
	s.ctx, s.cancelCtx = context.WithCancel(context.Background())
	notes := &notes{}
	s.out = newSender(s.ctx, cfg.Store, cfg.Poster, cfg.Renderer, cfg.Catalog, notes, cfg.Now, cfg.Logger)
	s.replays = &replays{store: cfg.Store, catalog: cfg.Catalog, renderer: cfg.Renderer, log: cfg.Logger}
	s.tables = newTableCache(cfg.MaxTables, cfg.IdleAfter, cfg.Now, s.openTable, s.parkTable, notes)
	s.runner = &botRunner{house: s.house, tables: s.tables}
	s.bots = s.runner
	s.timers = &deadlines{house: s.house, tables: s.tables}
	s.opener = &opener{house: s.house, tables: s.tables, openings: map[string]*sync.Mutex{}, rematching: map[string]bool{}}
	return s
}

// Close stops bot moves and timers and waits for moves in flight. A bot
// thinking is told to stop: its move is not played, and the game waits in
// the store for the next start (its deadline is there).
func (s *Service) Close() {
	s.cancelCtx()
	s.runner.close()
	s.out.close()
}

// withClose is ctx, cancelled as well when the service closes.
func (s *Service) withClose(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// load reads a channel's game from the store and rebuilds it: from its
// snapshot when it has one, replaying (and narrating) the moves after it.
func (t *table) load() error {
	channel := t.channel
	l, err := t.cfg.Store.Load(channel)
	if errors.Is(err, store.ErrNotFound) {
		t.rec, t.game, t.snapMoves = nil, nil, 0
		return nil
	}
	if err != nil {
		return err
	}
	rec := l.Record
	t.rec, t.game, t.told, t.snapMoves = rec, nil, narration{}, 0
	t.owedDMWords(rec)
	if l.Parked != nil {
		t.unpark(l.Parked)
	}
	if rec.Status != store.StatusPlaying {
		return nil
	}
	b, err := rebuild(t.cfg.Catalog, t.log, rec, l.Snapshot, len(rec.Log))
	if err != nil {
		return fmt.Errorf("game %s %w", rec.ID, err)
	}
	t.game, t.told, t.snapMoves = b.game, b.told, b.snapMoves
	// A game loaded from far behind its last snapshot (an upgraded file's,
	// say) gets one now, so that it never replays that far again.
	if n := len(rec.Log); n-t.snapMoves >= 2*snapshotEvery && t.snapshotDue(n) {
		if snap := t.tableSnapshot(n); snap != nil {
			if err := t.cfg.Store.SaveSnapshot(channel, snap); err != nil {
				t.log.Warn("save a snapshot", "channel", channel, "err", err)
			} else {
				t.snapMoves = n
			}
		}
	}
	return nil
}

// logMoves are a record's moves as the engine replays them.
func logMoves(rec *store.GameRecord) []engine.NotatedMove {
	moves := make([]engine.NotatedMove, len(rec.Log))
	for i, e := range rec.Log {
		moves[i] = engine.NotatedMove{Seat: e.Seat, Action: e.Action}
	}
	return moves
}

// newGame sets up the engine game a record describes.
func (s *Service) newGame(rec *store.GameRecord) (*engine.Game, error) {
	cfg, err := gameConfig(s.cfg.Catalog, rec)
	if err != nil {
		return nil, err
	}
	return engine.New(cfg)
}

// gameConfig is the engine configuration a record describes.
func gameConfig(cat *data.Catalog, rec *store.GameRecord) (engine.Config, error) {
	b, err := cat.Board(rec.Map)
	if err != nil {
		return engine.Config{}, err
	}
	return engine.Config{Board: b, Variant: rec.Variant, BonusTickets: tableOptions(rec).BonusTickets,
		Players: len(rec.Seats), Seed: rec.Seed, Revision: max(rec.Rules, engine.Revision1)}, nil
}

// recentIDs remembers the last interaction ids handled, so that an
// interaction delivered twice is applied once.
type recentIDs struct {
	mu   sync.Mutex
	ids  map[string]struct{}
	ring []string
	next int
}

const recentCap = 4096

// seen records id and reports whether it was already there.
func (r *recentIDs) seen(id string) bool {
	if id == "" {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids == nil {
		r.ids = make(map[string]struct{}, recentCap)
		r.ring = make([]string, recentCap)
	}
	if _, ok := r.ids[id]; ok {
		return true
	}
	if old := r.ring[r.next]; old != "" {
		delete(r.ids, old)
	}
	r.ring[r.next] = id
	r.next = (r.next + 1) % recentCap
	r.ids[id] = struct{}{}
	return false
}

// Handle answers one request. It never returns an error: problems become
// friendly ephemeral replies, and unexpected ones are logged.
func (s *Service) Handle(ctx context.Context, req *Request, resp Responder) {
	if s.recent.seen(req.ID) {
		s.log.Debug("repeated interaction ignored", "id", req.ID)
		return
	}
	// Handlers decide and commit under the table's lock and return their
	// answer, sent here when no lock is held.
	var (
		r   response
		err error
	)
	switch req.Type {
	case CommandRequest:
		r, err = s.command(ctx, req)
	case ComponentRequest:
		r, err = s.component(ctx, req)
	case AutocompleteRequest:
		r, err = s.autocomplete(req)
	default:
		r, err = reply(s.oops(req, "unknown request"))
	}
	if req.Type != AutocompleteRequest {
		// What the table owes this person privately: posts Discord
		// refuses here, DMs Discord refused them.
		r.followUps = append(r.followUps, s.out.tellBlocked(req)...)
		r.followUps = append(r.followUps, s.tellDMRefused(ctx, req)...)
	}
	if err != nil {
		// A handler's unexpected failure still gets an answer.
		s.log.Warn("request failed", "channel", req.Channel, "command", req.Name, "custom_id", req.CustomID, "err", err)
		if r.kind == noAnswer && r.launch == nil {
			r.kind, r.msg = replyAnswer, s.oops(req, err.Error())
		}
	}
	err = r.sendTo(resp)
	if req.Type != AutocompleteRequest {
		s.out.waitSent(req.Channel)
	}
	if err != nil {
		s.log.Warn("reply failed", "channel", req.Channel, "command", req.Name, "custom_id", req.CustomID, "err", err)
	}
}

// oops is the ephemeral reply to an unexpected failure.
func (s *house) oops(req *Request, what string) Message {
	return Message{Ephemeral: true, Content: present.T(req.Locale, "error.internal", "what", what)}
}

// note is an ephemeral one-liner.
func note(text string) Message { return Message{Ephemeral: true, Content: text} }

// Board is one of the service's boards, by id.
func (s *Service) Board(id string) (*data.Board, error) { return s.cfg.Catalog.Board(id) }
