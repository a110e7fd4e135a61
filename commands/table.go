package commands

import (
	"container/list"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/store"
)

// table is one channel's game, loaded from the store, guarded by its own
// lock so that actions in a channel are applied one at a time. It stays
// in memory while it is used, and is dropped when idle (cache.go). Under
// its lock it decides and commits: the move and the posts it causes go to
// the store in one transaction, and the sender delivers them.
type table struct {
	channel string

	// What the table works with, the same for every table (given by
	// Service.openTable).
	store   *store.Store
	fleet   Fleet
	catalog *data.Catalog
	now     func() time.Time
	log     *slog.Logger
	// out delivers what the table committed to the outbox.
	out deliveries
	// alarm wakes Run for a deadline it may be sleeping past.
	alarm *alarm
	// bots plays the bots' turns, outside the table's lock.
	bots botScheduler
	// botDelay is the pause before a bot moves; lobbyExpiry how long a
	// lobby nobody changes stays open (negative: for ever); page the live
	// page, nil when it is off.
	botDelay, lobbyExpiry time.Duration
	page                  Activity
	// changed is told, outside the lock, when a release published a
	// changed table (see publish); nil when nobody listens.
	changed func()

	// mirror: the table of another process, read only (mirror.go): its
	// load changes nothing in the store.
	mirror bool

	mu sync.Mutex
	// gone: the table was dropped from memory; whoever waited for its
	// lock looks the channel up again.
	gone bool
	// elem is the table's place in the cache's lru and used when it was
	// last asked for (both guarded by the cache's mu).
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
	// bot is the state of the bots' turns (botrunner.go).
	bot botTurns
	// boardShown is when /board last reposted the board.
	boardShown time.Time
	// snap is what the table looked like when its lock was last released:
	// autocomplete reads it and never waits for the lock.
	snap atomic.Pointer[tableSnapshot]
}

// deliveries is the sender as a table sees it: it delivers what the table
// committed to the outbox. Its methods only start goroutines: they are
// safe under the table's lock.
type deliveries interface {
	// kick delivers a queue's outbox.
	kick(queue string)
	// kickQueues delivers the other queues the entries name (turn DMs).
	kickQueues(entries []store.OutboxEntry)
	// epoch names this process in the entries it queues (via.go).
	epoch() string
}

// botScheduler plays the bots' turns of a table (botrunner.go). The table
// is locked when its methods are called.
type botScheduler interface {
	// schedule arms the pause before a bot's turn, if a bot is to play.
	schedule(t *table)
	// disarm cancels it.
	disarm(t *table)
	// setup lets the bots choose their initial tickets: a quick bot at
	// once, one that searches with the lock released.
	setup(t *table)
	// act plays one action for a seat, decided at once under the lock
	// (the turn timer playing for an absent player).
	act(t *table, seat int) (outcome, bool)
}

// tableSnapshot is a table as it stood, for readers that must not wait.
// Readers share it: nothing in it changes once it is published.
type tableSnapshot struct {
	rec  store.GameRecord // Seats and Options copied; Log and Messages left out
	game *engine.Game     // a clone; nil in the lobby
	at   position         // the game's position when it was cloned
	view viewSnapshot     // what View reads besides (view.go)
}

// unlock brings the game's deadline up to date, publishes the table's
// state for autocomplete and the live page (view.go), then releases it.
func (t *table) unlock() {
	t.syncDue()
	changed := t.publish()
	t.mu.Unlock()
	if changed && t.changed != nil {
		t.changed()
	}
}

type pendingAction struct {
	action engine.Action
	// pay: the move waits for the player to choose how to pay.
	pay bool
	// opts, when set, are the payments offered (a double route's two
	// tracks, each paid its own way); else payOptions of action.
	opts  []engine.Action
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

// load reads a channel's game from the store and rebuilds it: from its
// snapshot when it has one, replaying (and narrating) the moves after it.
func (t *table) load() error {
	channel := t.channel
	l, err := t.store.Load(channel)
	if errors.Is(err, store.ErrNotFound) {
		t.rec, t.game, t.snapMoves = nil, nil, 0
		return nil
	}
	if err != nil {
		return err
	}
	rec := l.Record
	t.rec, t.game, t.told, t.snapMoves = rec, nil, narration{}, 0
	if l.Parked != nil {
		t.unpark(l.Parked, !t.mirror)
	}
	if rec.Status != store.StatusPlaying {
		return nil
	}
	b, err := rebuild(t.catalog, t.log, rec, l.Snapshot, len(rec.Log))
	if err != nil {
		return fmt.Errorf("game %s %w", rec.ID, err)
	}
	t.game, t.told, t.snapMoves = b.game, b.told, b.snapMoves
	// A game loaded from far behind its last snapshot (an upgraded file's,
	// say) gets one now, so that it never replays that far again.
	if n := len(rec.Log); !t.mirror && n-t.snapMoves >= 2*snapshotEvery && t.snapshotDue(n) {
		if snap := t.tableSnapshot(n); snap != nil {
			if err := t.store.SaveSnapshot(channel, snap); err != nil {
				t.log.Warn("save a snapshot", "channel", channel, "err", err)
			} else {
				t.snapMoves = n
			}
		}
	}
	return nil
}

// newGame sets up the engine game of a record.
func (t *table) newGame(rec *store.GameRecord) (*engine.Game, error) {
	cfg, err := gameConfig(t.catalog, rec)
	if err != nil {
		return nil, err
	}
	return engine.New(cfg)
}

// logMoves are a record's moves as the engine replays them.
func logMoves(rec *store.GameRecord) []engine.NotatedMove {
	moves := make([]engine.NotatedMove, len(rec.Log))
	for i, e := range rec.Log {
		moves[i] = engine.NotatedMove{Seat: e.Seat, Action: e.Action}
	}
	return moves
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

// locale is the language of a table's public messages.
func (t *table) locale() string {
	if t.rec != nil && t.rec.Options != nil {
		return t.rec.Options[optLocale]
	}
	return ""
}
