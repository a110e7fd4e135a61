package commands

import (
	"context"
	"strconv"
	"time"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// Run checks turn timers until ctx ends: reminders at a third and two
// thirds of the limit, then the absent player's turn is played by a bot.
func (s *Service) Run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.closed:
			return
		case <-tick.C:
			s.CheckTimers()
		}
	}
}

// CheckTimers runs the turn timers once (Run calls it; tests call it with
// an injected clock).
func (s *Service) CheckTimers() {
	s.mu.Lock()
	channels := make([]string, 0, len(s.channels))
	for ch := range s.channels {
		channels = append(channels, ch)
	}
	s.mu.Unlock()
	for _, ch := range channels {
		t, err := s.table(ch)
		if err != nil {
			continue
		}
		s.checkTimer(t)
		t.unlock()
	}
}

func (s *Service) checkTimer(t *table) {
	if t.rec != nil && t.rec.Status == store.StatusLobby {
		s.expireLobby(t)
		return
	}
	if t.rec == nil || t.game == nil || t.game.Phase() == engine.PhaseOver {
		return
	}
	minutes, _ := strconv.Atoi(t.rec.Options["turn_timer"])
	if minutes <= 0 {
		return
	}
	limit := time.Duration(minutes) * time.Minute
	since := t.rec.Updated
	if n := len(t.rec.Log); n > 0 {
		since = t.rec.Log[n-1].At
	}
	waited := s.cfg.Now().Sub(since)
	g := t.game
	loc := t.locale()
	if g.Phase() == engine.PhaseSetup {
		if waited < limit {
			return
		}
		for seat := range t.rec.Seats {
			for !g.SetupDone(seat) && g.Phase() == engine.PhaseSetup {
				o, ok := s.botAct(t, seat)
				if !ok {
					break
				}
				t.turnLog = append(t.turnLog, present.T(loc, "timer.auto_setup", "player", present.EscapeMarkdown(seatName(t.rec, seat))))
				if o.turnDone {
					s.after(t, o)
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
		t.turnLog = append(t.turnLog, "⏰ "+present.T(loc, "timer.auto", "player", present.EscapeMarkdown(seatName(t.rec, seat))))
		s.playTurnFor(t, seat)
		return
	}
	// Two reminders, at a third and at two thirds of the limit.
	due := 0
	switch {
	case waited >= 2*limit/3:
		due = 2
	case waited >= limit/3:
		due = 1
	}
	if t.reminded != g.Turn() {
		t.reminded, t.reminders = g.Turn(), 0
	}
	if due > t.reminders {
		t.reminders = due
		st := t.rec.Seats[seat]
		m := Message{Content: present.T(loc, "timer.reminder", "player", mention(loc, st), "minutes", int((limit-waited).Minutes()+0.5))}
		if st.UserID != "" {
			m.Mentions = []string{st.UserID}
		}
		s.post(t, "", m)
	}
}
