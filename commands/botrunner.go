package commands

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"conductor/engine"
)

// botRunner plays the bots' turns: it arms a short pause after a move that
// leaves a bot to play, then plays the bot's turn, the bot thinking with
// the table's lock released (bots.go: what a bot decides on).
type botRunner struct {
	tables *tableCache
	// ctx is done once the service closes: a search in progress stops.
	ctx context.Context
	log *slog.Logger
	// delay is the pause before a bot moves; makeBot makes the bot of a
	// level (nil: no bots).
	delay   time.Duration
	makeBot BotMaker

	// wg counts the timers armed and the turns being played: Close waits
	// for them.
	wg sync.WaitGroup
}

// botTurns is the state of a table's bots, guarded by the table's lock.
type botTurns struct {
	// timer is armed while a bot is about to move; armed counts the
	// timers armed, so that one that fired knows whether it is the
	// latest. thinking counts the bot turns being played: their bots
	// decide with the lock released, and the table stays in memory until
	// they have moved.
	timer    *time.Timer
	armed    int
	thinking int
	// setupThinking is set while bots choose their initial tickets with
	// the lock released (botsetup.go).
	setupThinking bool
}

// busy: a bot is about to move or thinking; the table stays in memory.
func (b *botTurns) busy() bool { return b.timer != nil || b.thinking > 0 }

func (s *botRunner) isClosed() bool { return s.ctx.Err() != nil }

// close disarms every table's bot and waits for the turns being played,
// whose searches stop as the service's context is done.
func (s *botRunner) close() {
	for _, t := range s.tables.all() {
		t.mu.Lock()
		s.disarm(t)
		t.mu.Unlock()
	}
	s.wg.Wait()
}

// schedule arms a short pause before a bot's turn, so that people can
// follow the game. A human who can do nothing at all passes at once.
func (s *botRunner) schedule(t *table) {
	if t.game == nil || t.rec == nil || s.isClosed() {
		return
	}
	g := t.game
	if g.Phase() == engine.PhaseTurn && !isBot(t.rec, g.Current()) {
		if legal := g.LegalActions(g.Current(), nil); len(legal) == 1 && legal[0].Kind == engine.ActPass {
			if o, err := t.apply(g.Current(), legal[0], nil); err == nil {
				t.after(o)
			}
			return
		}
	}
	if g.Phase() == engine.PhaseSetup || g.Phase() == engine.PhaseOver || !isBot(t.rec, g.Current()) {
		return
	}
	s.disarm(t)
	channel, gameID, turn := t.rec.Channel, t.rec.ID, g.Turn()
	t.bot.armed++
	armed := t.bot.armed
	s.wg.Add(1)
	t.bot.timer = time.AfterFunc(s.delay, func() {
		defer s.wg.Done()
		s.botTurn(channel, gameID, turn, armed)
	})
}

// disarm cancels a scheduled bot move. A timer stopped before it fired
// never runs its function, so the wait group count it took is given back
// here; otherwise Close would wait for it forever.
func (s *botRunner) disarm(t *table) {
	if t.bot.timer != nil && t.bot.timer.Stop() {
		s.wg.Done()
	}
	t.bot.timer = nil
}

// botTurn plays a bot's whole turn, then posts the board. armed tells the
// timer that fired from a later one.
//
// The bot thinks with the table's lock released (the expert searches for
// up to its budget): it decides on a copy of its seat's view, and its move
// is applied under the lock only if the game is still at the position it
// saw; otherwise, when it is still this bot's turn, it decides again.
// Meanwhile everyone at the table is answered.
func (s *botRunner) botTurn(channel, gameID string, turn, armed int) {
	first, ok := s.botTable(channel, gameID, turn, armed)
	if !ok {
		return
	}
	// The table stays in memory until the turn is played.
	first.bot.thinking++
	first.unlock()
	defer func() {
		first.mu.Lock()
		first.bot.thinking--
		first.mu.Unlock()
	}()
	var last outcome
	moves := 0
	for range 2 * maxBotActions {
		t, ok := s.botTable(channel, gameID, turn, armed)
		if !ok {
			return
		}
		seat := t.game.Current()
		if moves == maxBotActions {
			break
		}
		d, ok := s.decision(t, seat)
		if !ok {
			t.after(last)
			t.unlock()
			return
		}
		t.unlock()
		a := d.choose(s.ctx)
		if t, ok = s.botTable(channel, gameID, turn, armed); !ok {
			return
		}
		if positionOf(t) != d.at || t.game.Current() != seat {
			t.unlock()
			continue // the game moved while the bot thought: again
		}
		o, played := s.play(t, seat, a, d.legal)
		moves++
		if !played || o.turnDone {
			if played {
				last = o
			}
			t.after(last)
			t.unlock()
			return
		}
		last = o
		t.unlock()
	}
	// Too many actions in one turn: post what was played.
	t, ok := s.botTable(channel, gameID, turn, armed)
	if !ok {
		return
	}
	t.after(last)
	t.unlock()
}

// botTable returns a channel's table, locked, when the bot turn armed is
// still to be played there: the same game at the same turn, a bot to
// move, no later timer armed and the service open. The timer that fired
// is forgotten, so that the table may leave memory again once the bot has
// moved.
func (s *botRunner) botTable(channel, gameID string, turn, armed int) (*table, bool) {
	if s.isClosed() {
		return nil, false
	}
	t, err := s.tables.get(channel)
	if err != nil {
		s.log.Error("bot turn", "channel", channel, "err", err)
		return nil, false
	}
	if t.bot.armed == armed {
		t.bot.timer = nil
	}
	if s.isClosed() || t.bot.armed != armed || t.rec == nil || t.game == nil || t.rec.ID != gameID ||
		t.game.Turn() != turn || t.game.Phase() == engine.PhaseOver || !isBot(t.rec, t.game.Current()) {
		t.unlock()
		return nil, false
	}
	return t, true
}

// fireBot lets a table's bots move now, whatever their deadline says.
func (s *botRunner) fireBot(channel string) {
	t, err := s.tables.get(channel)
	if err != nil {
		s.log.Error("resume", "channel", channel, "err", err)
		return
	}
	defer t.unlock()
	if t.rec != nil && t.game != nil && t.game.Phase() != engine.PhaseOver && botOwes(t) {
		t.resumeBots()
	}
}
