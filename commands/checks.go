package commands

import (
	"strings"

	"conductor/present"
	"conductor/store"
)

// The checks handlers share (router.go), in the order they run: the
// channel's table locked (atChannel), a running game there (inGame) or the
// asker seated at it (seated), the asker's turn (onTurn); and, for a
// lobby's buttons shown in a thread's parent channel, the thread (toThread).

// atChannel locks the channel's table (loading it when it is not in
// memory) for the rest of the call, and releases it once the handler has
// returned. A table that cannot be loaded is answered with an apology. A
// player whose turn DMs Discord refused is told so here, the next time
// they act at the table.
func (s *Service) atChannel(next handler) handler {
	return func(c *call) (response, error) {
		t, err := s.tables.get(c.req.Channel)
		if err != nil {
			return reply(oops(c.req, err.Error()))
		}
		defer t.unlock()
		c.t = t
		told := t.tellDMsRefused(c.req)
		r, err := next(c)
		r.followUps = append(r.followUps, told...)
		return r, err
	}
}

// inGame goes on when the channel's game is running, for anyone: watchers
// may look at the board and the scores.
func (s *Service) inGame(next handler) handler {
	return func(c *call) (response, error) {
		if c.t.rec == nil || c.t.game == nil {
			return reply(s.noGameHere(c.req, "game.none"))
		}
		return next(c)
	}
}

// seated goes on when the asker holds a seat in the channel's running game
// (and a button is of that game), with their turn at the table.
func (s *Service) seated(next handler) handler {
	return func(c *call) (response, error) {
		req, t, id := c.req, c.t, c.id
		fail := func(key string) (response, error) { return reply(note(present.T(req.Locale, key))) }
		switch {
		case t.rec == nil && id != nil:
			return fail("stale.game")
		case t.rec == nil:
			return reply(s.noGameHere(req, "game.none"))
		case id != nil && id.game != t.rec.ID:
			return fail("stale.game")
		case t.rec.Status == store.StatusLobby || t.game == nil:
			return fail("game.not_started")
		}
		seat := seatOf(t.rec, req.User)
		if seat < 0 {
			return fail("game.not_player")
		}
		c.turn = turn{req: req, t: t, seat: seat, moves: s.moves}
		return next(c)
	}
}

// onTurn goes on when it is the asker's turn in the main game (and a
// button is of the current turn). A choice the seat owes (tickets to keep,
// a tunnel to pay: a dismissed prompt, a restart) comes back instead of a
// refusal, unless the request answers it: the turn can always go on.
func (s *Service) onTurn(next handler) handler {
	return func(c *call) (response, error) {
		tn := c.turn
		if !answersPending(c.id) {
			if m, ok := tn.t.controls().blockingPrompt(tn.seat, c.req.Locale); ok {
				return reply(m)
			}
		}
		if m := tn.myTurn(c.id); m != nil {
			return reply(*m)
		}
		return next(c)
	}
}

// toThread points a click on a lobby shown in a thread's parent channel at
// the thread, which holds the game: such buttons carry "@thread" after
// their argument. A thread that holds no game of that parent any more
// answers that the button is stale.
func (s *Service) toThread(next handler) handler {
	return func(c *call) (response, error) {
		req, id := c.req, c.id
		arg, thread, ok := strings.Cut(id.arg, "@")
		if !ok {
			return next(c)
		}
		id.arg = arg
		if thread == req.Channel {
			return next(c) // clicked inside the thread itself
		}
		rec, err := s.cfg.Store.Header(thread)
		if err != nil || rec.Options[optParent] != req.Channel || rec.ID != id.game {
			return reply(note(present.T(req.Locale, "stale.game")))
		}
		req.Channel = thread
		return next(c)
	}
}

// anyGame lets a button of any game's board through as if typed: "My
// hand" on the board of an earlier game of the channel shows the hand of
// the game played now.
func anyGame(next handler) handler {
	return func(c *call) (response, error) {
		c.id = nil
		return next(c)
	}
}
