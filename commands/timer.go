package commands

import (
	"context"
	"log/slog"
	"time"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// Deadlines as data: each game's next deadline (a turn timer's reminder or
// timeout, a bot's move after a restart) is kept in its record, which the
// store indexes by time. Run sleeps until the earliest one and fires only
// what is due, so games at rest cost nothing, in memory or in CPU. A
// deadline is set in the transaction that commits the move it follows
// (apply), or when a table is unlocked (syncDue), and moved on in the
// transaction that sends the reminder it causes: it fires once.

// Deadline kinds (store.Deadline.Kind).
const (
	// dueTurn: the turn timer. Stage counts the reminders sent for the
	// position (two, at a third and two thirds of the limit); at the limit
	// the absent player's turn is played for them.
	dueTurn = "turn"
	// dueBot: a bot owes a move. Its timer (scheduleBots) plays it while
	// the process runs; the deadline, botGrace later, finds it after a
	// restart.
	dueBot = "bot"
	// dueCheck: look at the game and set its deadline (given by the store
	// to every game of an upgraded file).
	dueCheck = "check"
	// dueLobby: a lobby nobody changed closes (Config.LobbyExpiry).
	dueLobby = "lobby"
)

// botGrace is how long after a bot's move is due its deadline falls: by
// then the bot's own timer has played it, unless the process stopped.
const botGrace = 30 * time.Second

// retryDue is when a deadline that fired and stays due (a bot's timer
// armed, a failure) is looked at again.
const retryDue = time.Minute

// deadlines fires the games' deadlines as they fall due.
type deadlines struct {
	tables *tableCache
	store  *store.Store
	fleet  Fleet
	now    func() time.Time
	log    *slog.Logger
	// alarm is rung by a table that sets a deadline earlier than the next
	// wake.
	alarm *alarm
	// ctx is done once the service closes.
	ctx context.Context
}

// Run fires the deadlines as they fall due, and drops the tables left idle,
// until ctx ends. It sleeps until the next deadline, or every at most.
// Beside them it ends the servers' seasons as they pass (ratings.go).
func (s *Service) Run(ctx context.Context, every time.Duration) {
	go s.seasons(ctx)
	s.timers.run(ctx, every)
}

// CheckTimers fires every deadline due now (Run calls it; tests call it
// with an injected clock). Its cost is what is due.
func (s *Service) CheckTimers() { s.timers.check() }

func (s *deadlines) run(ctx context.Context, every time.Duration) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.ctx.Done():
			return
		case <-timer.C:
		case <-s.alarm.ring:
		}
		s.check()
		s.tables.evictIdle()
		now := s.now()
		wait := every
		if d, ok, err := s.store.NextDueOf(owned(s.fleet)); err != nil {
			s.log.Error("read the next deadline", "err", err)
		} else if ok && d.At.After(now) {
			wait = min(wait, d.At.Sub(now))
		}
		// A deadline still due after check could not be moved on
		// (an error was logged): it is looked at again after every.
		s.alarm.sleepsUntil(now.Add(wait))
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

// check fires every deadline due now. Its cost is what is due.
func (s *deadlines) check() {
	now := s.now()
	fired := map[string]bool{}
	for limit := 256; ; {
		due, err := s.store.DueOf(owned(s.fleet), now, limit)
		if err != nil {
			s.log.Error("read the deadlines", "err", err)
			return
		}
		progress := false
		for _, d := range due {
			if fired[d.Channel] {
				continue
			}
			fired[d.Channel], progress = true, true
			s.fire(d.Channel, now)
		}
		if len(due) < limit {
			return
		}
		if !progress {
			// The first ones could not be moved on: read past them.
			limit *= 2
		}
	}
}

// fire does what a channel's due deadline asks, and makes sure the
// deadline moves on.
func (s *deadlines) fire(channel string, now time.Time) {
	if s.ctx.Err() != nil {
		return
	}
	t, err := s.tables.get(channel)
	if err != nil {
		s.log.Error("deadline", "channel", channel, "err", err)
		return
	}
	defer t.unlock()
	if t.rec == nil || t.rec.Due == nil || t.rec.Due.At.After(now) {
		return // moved on since it was listed
	}
	d := *t.rec.Due
	switch d.Kind {
	case dueTurn:
		t.turnTimer(&d, now)
	case dueBot:
		t.resumeBots()
	case dueLobby:
		t.expireLobby()
	}
	// A deadline that is still the one that fired (the game did not move)
	// is looked at again later rather than at once; any other is set by
	// syncDue when the table is unlocked.
	if t.rec != nil && sameDue(t.rec.Due, &d) && sameDue(t.dueFor(), &d) {
		later := d
		later.At = now.Add(retryDue)
		if err := s.store.SetDue(t.rec.Channel, &later); err != nil {
			s.log.Error("move a deadline on", "channel", t.rec.Channel, "err", err)
			return
		}
		t.rec.Due = &later
	}
}

// resumeBots lets the bots that owe a move play, unless their timer is
// already armed or one is playing.
func (t *table) resumeBots() {
	if t.game == nil || t.bot.busy() {
		return
	}
	t.bots.setup(t)
	if t.rec != nil {
		t.out.kick(t.rec.Channel)
	}
	t.bots.schedule(t)
}

// turnLimit is a table's turn timer; 0 when off.
func turnLimit(rec *store.GameRecord) time.Duration {
	return tableOptions(rec).TurnTimer
}

// lastMoveAt is when the game last moved (or was last written).
func lastMoveAt(rec *store.GameRecord) time.Time {
	if n := len(rec.Log); n > 0 {
		return rec.Log[n-1].At
	}
	return rec.Updated
}

// botOwes says whether a bot must move: its first tickets, or its turn.
func botOwes(t *table) bool {
	g := t.game
	if g.Phase() == engine.PhaseSetup {
		return botYetToChoose(t) >= 0
	}
	return isBot(t.rec, g.Current())
}

// botYetToChoose is the first bot's seat that has not chosen its initial
// tickets, or -1.
func botYetToChoose(t *table) int {
	for seat := range t.rec.Seats {
		if isBot(t.rec, seat) && !t.game.SetupDone(seat) {
			return seat
		}
	}
	return -1
}

// dueFor is the deadline the table's game needs now: the one it has when
// it is still for this position (its stage counts), else a new one.
func (t *table) dueFor() *store.Deadline {
	rec, g := t.rec, t.game
	if rec == nil {
		return nil
	}
	if rec.Status == store.StatusLobby {
		return lobbyDue(rec.Updated, t.lobbyExpiry)
	}
	if rec.Status != store.StatusPlaying || g == nil || g.Phase() == engine.PhaseOver {
		return nil
	}
	moves, since := len(rec.Log), lastMoveAt(rec)
	cur := rec.Due
	keep := func(kind string) bool { return cur != nil && cur.Kind == kind && cur.Moves == moves }
	if botOwes(t) {
		if keep(dueBot) {
			return cur
		}
		return &store.Deadline{At: since.Add(t.botDelay + botGrace), Kind: dueBot, Moves: moves}
	}
	limit := turnLimit(rec)
	if limit <= 0 {
		return nil
	}
	if keep(dueTurn) {
		return cur
	}
	if g.Phase() == engine.PhaseSetup {
		// No reminders while choosing the first tickets.
		return &store.Deadline{At: since.Add(limit), Kind: dueTurn, Stage: 2, Moves: moves}
	}
	return &store.Deadline{At: since.Add(limit / 3), Kind: dueTurn, Moves: moves}
}

// lobbyDue is the deadline of a lobby last changed at changed: its
// expiry; none when lobbies never expire (expiry < 0).
func lobbyDue(changed time.Time, expiry time.Duration) *store.Deadline {
	if expiry < 0 {
		return nil
	}
	return &store.Deadline{At: changed.Add(expiry), Kind: dueLobby}
}

func sameDue(a, b *store.Deadline) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.At.Equal(b.At) && a.Kind == b.Kind && a.Stage == b.Stage && a.Moves == b.Moves
}

// syncDue stores the deadline the table needs when it is not the one
// stored: whatever changed the table, its deadline is right when the lock
// is released.
func (t *table) syncDue() {
	if t.rec == nil || t.gone {
		return
	}
	want := t.dueFor()
	if sameDue(want, t.rec.Due) {
		return
	}
	if err := t.store.SetDue(t.rec.Channel, want); err != nil {
		t.log.Error("set a deadline", "channel", t.rec.Channel, "err", err)
		return
	}
	t.rec.Due = want
	if want != nil {
		t.alarm.due(want.At)
	}
}

// turnTimer sends a turn's reminders and, at the limit, plays the absent
// player's turn (a bot's move, or the safe fallback).
func (t *table) turnTimer(d *store.Deadline, now time.Time) {
	g := t.game
	if g == nil || g.Phase() == engine.PhaseOver {
		return
	}
	limit := turnLimit(t.rec)
	if limit <= 0 {
		return
	}
	since := lastMoveAt(t.rec)
	waited := now.Sub(since)
	loc := t.locale()
	if g.Phase() == engine.PhaseSetup {
		if waited < limit {
			return
		}
		for seat := range t.rec.Seats {
			for !g.SetupDone(seat) && g.Phase() == engine.PhaseSetup {
				o, ok := t.bots.act(t, seat)
				if !ok {
					break
				}
				t.told.turn = append(t.told.turn, present.T(loc, "timer.auto_setup", "player", present.EscapeMarkdown(seatName(t.rec, seat))))
				if o.turnDone {
					t.after(o)
				}
			}
		}
		return
	}
	seat := g.Current()
	if isBot(t.rec, seat) {
		return
	}
	if waited >= limit {
		t.told.turn = append(t.told.turn, "⏰ "+present.T(loc, "timer.auto", "player", present.EscapeMarkdown(seatName(t.rec, seat))))
		t.playTurnFor(seat)
		return
	}
	// Two reminders, at a third and at two thirds of the limit: one is
	// sent for the stage reached, with the deadline of the next stage.
	stage := 0
	switch {
	case waited >= 2*limit/3:
		stage = 2
	case waited >= limit/3:
		stage = 1
	}
	if stage <= d.Stage {
		return
	}
	next := &store.Deadline{At: since.Add(limit * time.Duration(stage+1) / 3), Kind: dueTurn, Stage: stage, Moves: len(t.rec.Log)}
	st := t.rec.Seats[seat]
	m := Message{Content: present.T(loc, "timer.reminder", "player", mention(loc, st), "minutes", int((limit-waited).Minutes()+0.5))}
	if st.UserID != "" {
		m.Mentions = []string{st.UserID}
	}
	if err := t.store.SetDue(t.rec.Channel, next, outboxEntry(postMessage, m)); err != nil {
		t.log.Error("queue a reminder", "channel", t.rec.Channel, "err", err)
		return
	}
	t.rec.Due = next
	t.out.kick(t.rec.Channel)
}

// playTurnFor plays the current seat's turn to its end with its bot (or the
// safe fallback), deciding under the lock, then posts. The turn timer
// uses it for a player who is away (a quick level decides).
func (t *table) playTurnFor(seat int) {
	var last outcome
	for range maxBotActions {
		if t.game == nil || t.game.Phase() == engine.PhaseOver || t.game.Current() != seat {
			break
		}
		o, ok := t.bots.act(t, seat)
		if !ok {
			break
		}
		last = o
		if o.turnDone {
			break
		}
	}
	t.after(last)
}
