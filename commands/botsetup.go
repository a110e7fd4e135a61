package commands

import (
	"slices"

	"conductor/engine"
)

// searcher is a bot that searches some decisions for about a second rather
// than deciding in milliseconds (the expert racing its initial tickets
// over whole games). It says which.
type searcher interface {
	Searches(view engine.PlayerView, legal []engine.Action) bool
}

// searches reports whether d's bot searches its decision.
func (d *botDecision) searches() bool {
	s, ok := d.bot.(searcher)
	return ok && s.Searches(d.view, d.legal)
}

// setup lets the bots choose their initial tickets. A bot that decides in
// milliseconds chooses at once, under the table's lock (the game's first
// board then shows its choice); one that searches chooses with the lock
// released (setupInBackground), so that the table answers everyone
// meanwhile, as it does while a bot plays its turn.
func (s *botRunner) setup(t *table) {
	g := t.game
	later := false
	for seat := range t.rec.Seats {
		for isBot(t.rec, seat) && g.Phase() == engine.PhaseSetup && !g.SetupDone(seat) {
			d, ok := s.decision(t, seat)
			if !ok {
				break
			}
			if d.searches() {
				later = true
				break
			}
			if _, ok := s.play(t, seat, d.choose(s.ctx), d.legal); !ok {
				break
			}
		}
	}
	if later {
		s.setupInBackground(t)
	}
}

// setupInBackground lets the bots that still owe their initial tickets
// choose them, one after another, each thinking with the table's lock
// released; the table stays in memory meanwhile. A choice is played only
// if the seat still faces the same one (its tickets and what it may keep
// are those it decided on); the other seats may choose in between. The
// table is locked.
func (s *botRunner) setupInBackground(t *table) {
	if t.bot.setupThinking || s.isClosed() || t.rec == nil {
		return
	}
	t.bot.setupThinking = true
	t.bot.thinking++
	channel, gameID := t.rec.Channel, t.rec.ID
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		done := s.setupBots(channel, gameID)
		t.mu.Lock()
		defer t.mu.Unlock()
		t.bot.thinking--
		t.bot.setupThinking = false
		// A bot seated (a player's seat taken over) after the last look
		// for one still owes its tickets: look again.
		if done && t.rec != nil && t.game != nil && t.rec.ID == gameID && t.game.Phase() == engine.PhaseSetup && botOwes(t) {
			s.setupInBackground(t)
		}
	}()
}

// setupBots plays the bots' choices; it reports whether it ended because
// no bot owed one any more (rather than the table closing, the game
// changing or an error).
func (s *botRunner) setupBots(channel, gameID string) bool {
	for {
		t, ok := s.setupTable(channel, gameID)
		if !ok {
			return false
		}
		seat := botYetToChoose(t)
		if seat < 0 {
			t.unlock()
			return true
		}
		d, ok := s.decision(t, seat)
		t.unlock()
		if !ok {
			return false
		}
		a := d.choose(s.ctx)
		if t, ok = s.setupTable(channel, gameID); !ok {
			return false
		}
		if isBot(t.rec, seat) && !t.game.SetupDone(seat) && sameChoice(t, seat, &d) {
			if o, played := s.play(t, seat, a, d.legal); played {
				t.after(o)
			}
		}
		t.unlock()
	}
}

// setupTable returns a channel's table, locked, while the game gameID is
// still in its setup there and the service open.
func (s *botRunner) setupTable(channel, gameID string) (*table, bool) {
	if s.isClosed() {
		return nil, false
	}
	t, err := s.tables.get(channel)
	if err != nil {
		s.log.Error("bots' initial tickets", "channel", channel, "err", err)
		return nil, false
	}
	if s.isClosed() || t.rec == nil || t.game == nil || t.rec.ID != gameID || t.game.Phase() != engine.PhaseSetup {
		t.unlock()
		return nil, false
	}
	return t, true
}

// sameChoice reports whether seat still faces the choice d was made on:
// the same tickets offered and the same actions allowed.
func sameChoice(t *table, seat int, d *botDecision) bool {
	return slices.Equal(t.game.Player(seat).Pending, d.view.Pending) &&
		slices.EqualFunc(t.game.LegalActions(seat, nil), d.legal, engine.Action.Equal)
}
