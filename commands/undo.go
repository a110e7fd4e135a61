package commands

import (
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// undoAsk opens a vote to take back the last turn; it happens when every
// other (human) player agrees.
func (s *Service) undoAsk(req *Request, resp Responder) error {
	return s.atTable(req, resp, nil, func(t *table, seat int) error {
		g := t.game
		n := len(t.rec.Log)
		if n == 0 || g.Phase() == engine.PhaseSetup {
			return resp.Reply(note(present.T(req.Locale, "undo.nothing")))
		}
		// Go back to the start of the last seat's run of moves.
		last := t.rec.Log[n-1].Seat
		k := n - 1
		for k > 0 && t.rec.Log[k-1].Seat == last {
			k--
		}
		if last != seat {
			return resp.Reply(note(present.T(req.Locale, "undo.only_own", "player", present.EscapeMarkdown(seatName(t.rec, last)))))
		}
		t.undo = &undoVote{logLen: k, by: req.User, agreed: map[string]bool{}}
		if s.undoReady(t) {
			return s.undoApply(req, resp, t, false)
		}
		loc := t.locale()
		return resp.Reply(Message{Content: present.T(loc, "undo.ask", "player", mention(t.rec.Seats[seat])), Components: []Row{{
			{Kind: Button, ID: cid("undo", t.rec.ID, n, "yes"), Label: present.T(loc, "button.agree"), Style: Success},
			{Kind: Button, ID: cid("undo", t.rec.ID, n, "no"), Label: present.T(loc, "button.refuse"), Style: Danger},
		}}})
	})
}

// undoReady: every human player other than the asker agreed.
func (s *Service) undoReady(t *table) bool {
	for _, st := range t.rec.Seats {
		if st.Bot == "" && st.UserID != t.undo.by && !t.undo.agreed[st.UserID] {
			return false
		}
	}
	return true
}

func (s *Service) undoVote(req *Request, resp Responder, id customID) error {
	return s.atTable(req, resp, &id, func(t *table, seat int) error {
		if t.undo == nil || id.turn != len(t.rec.Log) {
			return resp.Reply(note(present.T(req.Locale, "stale.turn")))
		}
		if req.User == t.undo.by {
			return resp.Reply(note(present.T(req.Locale, "undo.own_vote")))
		}
		if id.arg != "yes" {
			t.undo = nil
			return resp.Update(Message{Content: present.T(t.locale(), "undo.refused", "player", present.EscapeMarkdown(seatName(t.rec, seat)))})
		}
		t.undo.agreed[req.User] = true
		if !s.undoReady(t) {
			return resp.Reply(note(present.T(req.Locale, "undo.counted")))
		}
		return s.undoApply(req, resp, t, true)
	})
}

// undoApply cuts the log and rebuilds the game from it.
func (s *Service) undoApply(req *Request, resp Responder, t *table, update bool) error {
	k := t.undo.logLen
	t.undo = nil
	err := s.cfg.Store.Update(t.rec.Channel, func(r *store.GameRecord) error {
		r.Log = r.Log[:k]
		return nil
	})
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	if err := s.load(t, t.rec.Channel); err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	t.turnLog = append(t.turnLog[:0], present.T(t.locale(), "undo.done"))
	m := s.boardMessage(t)
	if update {
		err = resp.Update(Message{Content: present.T(t.locale(), "undo.done")})
		if _, perr := s.cfg.Poster.Post(t.rec.Channel, m); perr != nil {
			s.log.Error("post after undo", "err", perr)
		}
	} else {
		err = resp.Reply(m)
	}
	s.scheduleBots(t)
	return err
}
