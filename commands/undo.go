package commands

import (
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// Undo takes back the asker's last turn and every move since, bots' moves
// included, but only while none of those moves showed anything hidden (a
// card from the deck, tickets, a tunnel's cards): replaying the game from
// the same seed would otherwise let the player see what is coming and
// choose again. The humans whose moves are taken back must agree; bots
// agree, and so do players whose moves stay.

// undoAsk opens a vote to take back the asker's last turn.
func (s *Service) undoAsk(c *call) (response, error) {
	req, tn := c.req, c.turn
	t, seat := tn.t, tn.seat
	g := t.game
	log := t.rec.Log
	if g.Phase() == engine.PhaseSetup || g.Phase() == engine.PhaseOver {
		return reply(note(present.T(req.Locale, "undo.nothing")))
	}
	// The asker's last turn: their last run of moves.
	end := len(log) - 1
	for end >= 0 && log[end].Seat != seat {
		end--
	}
	if end < 0 {
		return reply(note(present.T(req.Locale, "undo.nothing")))
	}
	k := end
	for k > 0 && log[k-1].Seat == seat {
		k--
	}
	b := g.Board()
	affected := map[string]bool{}
	for _, e := range log[k:] {
		a, err := engine.ParseAction(b, e.Action)
		if err != nil || engine.RevealsHidden(b, a) {
			return reply(note(present.T(req.Locale, "undo.revealed")))
		}
		if st := t.rec.Seats[e.Seat]; st.Bot == "" && st.UserID != req.User {
			affected[st.UserID] = true
		}
	}
	t.undo = &undoVote{logLen: k, by: req.User, agreed: map[string]bool{}, voters: affected}
	if t.undoReady() {
		return s.undoApply(req, t, false)
	}
	loc := t.locale()
	n := len(log)
	return reply(Message{Content: present.T(loc, "undo.ask", "player", mention(loc, t.rec.Seats[seat])), Components: []Row{{
		{Kind: Button, ID: cid("undo", t.rec.ID, n, "yes"), Label: present.T(loc, "button.agree"), Style: Success},
		{Kind: Button, ID: cid("undo", t.rec.ID, n, "no"), Label: present.T(loc, "button.refuse"), Style: Danger},
	}}})
}

// undoReady: every human player other than the asker agreed.
func (t *table) undoReady() bool {
	for u := range t.undo.voters {
		if !t.undo.agreed[u] {
			return false
		}
	}
	return true
}

func (s *Service) undoVote(c *call) (response, error) {
	req, tn, id := c.req, c.turn, *c.id
	t, seat := tn.t, tn.seat
	if t.undo == nil || id.turn != len(t.rec.Log) {
		return reply(note(present.T(req.Locale, "stale.turn")))
	}
	if req.User == t.undo.by {
		return reply(note(present.T(req.Locale, "undo.own_vote")))
	}
	if !t.undo.voters[req.User] {
		return reply(note(present.T(req.Locale, "undo.not_affected")))
	}
	if id.arg != "yes" {
		t.undo = nil
		return update(Message{Content: present.T(t.locale(), "undo.refused", "player", present.EscapeMarkdown(seatName(t.rec, seat)))})
	}
	t.undo.agreed[req.User] = true
	if !t.undoReady() {
		return reply(note(present.T(req.Locale, "undo.counted")))
	}
	return s.undoApply(req, t, true)
}

// undoApply cuts the log and rebuilds the game from it.
func (s *Service) undoApply(req *Request, t *table, click bool) (response, error) {
	k := t.undo.logLen
	t.undo = nil
	t.bots.disarm(t)
	err := s.cfg.Store.Update(t.rec.Channel, func(r *store.GameRecord) error {
		r.Log = r.Log[:k]
		return nil
	})
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	if err := t.load(); err != nil {
		return reply(oops(req, err.Error()))
	}
	t.told.turn = append(t.told.turn[:0], present.T(t.locale(), "undo.done"))
	m, scene, alt := t.boardText(), t.scene(t.locale()), t.boardAlt(t.locale())
	if click {
		t.post(pictureEntry(postBoard, m, boardPicture(scene, alt)))
	}
	t.bots.schedule(t)
	if click {
		return update(Message{Content: present.T(t.locale(), "undo.done")})
	}
	// The board is the answer, its picture drawn once the lock is released.
	channel := t.rec.Channel
	return response{unlocked: func() (response, error) {
		if f, err := drawBoard(s.cfg.Renderer, scene, alt); err == nil {
			m.Files = []File{f}
		} else {
			s.log.Error("render board", "channel", channel, "err", err)
		}
		return reply(m)
	}}, nil
}
