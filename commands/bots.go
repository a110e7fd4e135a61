package commands

import (
	"context"
	"math"

	"conductor/engine"
	"conductor/store"
)

// botFor makes the bot that plays a seat's next move. Its random stream is
// seeded from the game and the move, so that what a bot plays depends on
// the game alone, not on how long its table stayed in memory.
func (s *botRunner) botFor(t *table, seat int) Bot {
	level := t.rec.Seats[seat].Bot
	if level == "" {
		level = "normal" // a human's turn taken over by the timer
	}
	if s.makeBot == nil {
		return nil
	}
	seed := t.rec.Seed + uint64(seat)*7919 + uint64(len(t.rec.Log))*0x9e3779b97f4a7c15
	b, err := s.makeBot(level, seed)
	if err != nil {
		s.log.Error("make bot", "level", level, "err", err)
		return nil
	}
	return b
}

func isBot(rec *store.GameRecord, seat int) bool {
	return seat >= 0 && seat < len(rec.Seats) && rec.Seats[seat].Bot != ""
}

// act plays one action for a seat with its bot, or a safe fallback,
// deciding under the table's lock: for the quick decisions (first tickets,
// a turn the timer takes over). It returns false when nothing could be
// played.
func (s *botRunner) act(t *table, seat int) (outcome, bool) {
	d, ok := s.decision(t, seat)
	if !ok {
		return outcome{}, false
	}
	return s.play(t, seat, d.choose(s.ctx), d.legal)
}

// botDecision is what a bot decides on, copied from the table: its seat's
// view, the legal actions and the position they belong to. The bot may
// then think with the table's lock released.
type botDecision struct {
	bot   Bot // nil: the safe action
	view  engine.PlayerView
	legal []engine.Action
	safe  engine.Action
	at    position
}

// position names the state of a table's game: the same position means
// the same view and the same legal actions for every seat (the game is
// its log).
type position struct {
	game  string
	moves int
	last  store.LogEntry
}

func positionOf(t *table) position {
	p := position{game: t.rec.ID, moves: len(t.rec.Log)}
	if p.moves > 0 {
		p.last = t.rec.Log[p.moves-1]
	}
	return p
}

// decision copies what seat's bot decides on; false when the seat has
// nothing to play. The table is locked.
func (s *botRunner) decision(t *table, seat int) (botDecision, bool) {
	g := t.game
	legal := g.LegalActions(seat, nil)
	if len(legal) == 0 {
		return botDecision{}, false
	}
	d := botDecision{legal: legal, safe: safeAction(g, seat, legal), at: positionOf(t)}
	if d.bot = s.botFor(t, seat); d.bot != nil {
		d.view = g.View(seat)
	}
	return d, true
}

// choose is the bot's move (the safe one without a bot). It reads only
// the copies in d: no lock is needed.
func (d *botDecision) choose(ctx context.Context) engine.Action {
	if d.bot == nil {
		return d.safe
	}
	return d.bot.Choose(ctx, d.view, d.legal)
}

// play applies a bot's move; a move the engine refuses is replaced by
// the safe one, so that a bot's mistake never stalls the table. It returns
// false when nothing could be played.
func (s *botRunner) play(t *table, seat int, a engine.Action, legal []engine.Action) (outcome, bool) {
	g := t.game
	o, err := t.apply(seat, a, nil)
	if err != nil {
		s.log.Warn("bot chose an illegal action", "seat", seat, "action", engine.FormatAction(g.Board(), a), "err", err)
		if o, err = t.apply(seat, safeAction(t.game, seat, legal), nil); err != nil {
			s.log.Error("safe action refused", "err", err)
			return outcome{}, false
		}
	}
	return o, true
}

// safeAction is what the turn timer plays for an absent player without a
// bot: draw from the deck, keep the cheapest tickets, give up a tunnel.
func safeAction(g *engine.Game, seat int, legal []engine.Action) engine.Action {
	for _, want := range []engine.ActionKind{engine.ActTunnelCancel} {
		for _, a := range legal {
			if a.Kind == want {
				return a
			}
		}
	}
	for _, a := range legal {
		if a.Kind == engine.ActDraw && a.Slot == engine.DeckSlot {
			return a
		}
	}
	if g.Phase() == engine.PhaseSetup || g.Phase() == engine.PhaseKeepTickets {
		// Keep as few tickets as allowed, the lowest values first.
		v := g.View(seat)
		b := g.Board()
		if mix, _ := g.NeedsMix(seat); mix {
			// As few long tickets as the decks allow: the legal mixes
			// already account for a short deck running low.
			best := -1
			for i, a := range legal {
				if a.Kind == engine.ActDrawTickets && (best < 0 || a.Long < legal[best].Long) {
					best = i
				}
			}
			if best >= 0 {
				return legal[best]
			}
		}
		idx := make([]int, len(v.Pending))
		for i := range idx {
			idx[i] = i
		}
		for i := 1; i < len(idx); i++ {
			for j := i; j > 0 && b.Tickets[v.Pending[idx[j]]].Points < b.Tickets[v.Pending[idx[j-1]]].Points; j-- {
				idx[j], idx[j-1] = idx[j-1], idx[j]
			}
		}
		return engine.KeepTickets(idx[:v.KeepMin]...)
	}
	return legal[0]
}

// maxBotActions bounds the actions of one bot turn.
const maxBotActions = 12

// Resume delivers what was queued before a restart and lets the bots
// whose move was due carry on. Its cost is that pending work, not the
// games stored: turn timers fire from Run, and the other games stay on
// disk until someone acts in them.
func (s *Service) Resume(ctx context.Context) error {
	return s.ResumeShards(ctx, owned(s.cfg.Fleet))
}

// ResumeShards is Resume for the games of o's shards (nil: all): a fleet's
// process that took over a dead one's shards carries on their work.
func (s *Service) ResumeShards(ctx context.Context, o *store.Owned) error {
	if err := s.out.deliverAll(ctx, o); err != nil {
		return err
	}
	// A bot's deadline falls botGrace after its move was due: those due
	// by then are every bot that was about to move when the process
	// stopped. (The turn timers due are fired by Run.)
	due, err := s.cfg.Store.DueOf(o, s.cfg.Now().Add(s.cfg.BotDelay+botGrace), math.MaxInt)
	if err != nil {
		return err
	}
	for _, d := range due {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.Kind == dueBot {
			s.runner.fireBot(d.Channel)
		}
	}
	return nil
}
