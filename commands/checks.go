package commands

import (
	"context"

	"conductor/present"
	"conductor/store"
)

// seated finds the user's seat in the running game of a locked table.
// When it returns a message, that is the (friendly) answer instead.
func (s *Service) seated(req *Request, t *table, id *customID) (int, *Message) {
	fail := func(key string, kv ...any) (int, *Message) {
		m := note(present.T(req.Locale, key, kv...))
		return 0, &m
	}
	switch {
	case t.rec == nil:
		if id != nil {
			return fail("stale.game")
		}
		m := s.noGameHere(req, "game.none")
		return 0, &m
	case id != nil && id.game != t.rec.ID:
		return fail("stale.game")
	case t.rec.Status == store.StatusLobby || t.game == nil:
		return fail("game.not_started")
	}
	seat := seatOf(t.rec, req.User)
	if seat < 0 {
		return fail("game.not_player")
	}
	return seat, nil
}

// turnAt is the turn of a seated player at a locked table.
func (s *Service) turnAt(req *Request, t *table, seat int) turn {
	return turn{req: req, t: t, seat: seat, moves: s.moves}
}

// onTurn runs fn with the table locked when the request comes from a
// seated player on their own turn (and, for a button, the current turn);
// otherwise it answers with the reason.
func (s *Service) onTurn(ctx context.Context, req *Request, id *customID, fn func(tn turn) (response, error)) (response, error) {
	return s.atTable(ctx, req, id, func(tn turn) (response, error) {
		if !answersPending(id) {
			// A choice left open (a dismissed prompt, a restart) comes back
			// instead of a refusal: the turn can always go on.
			if m, ok := tn.t.controls().blockingPrompt(tn.seat, req.Locale); ok {
				return reply(m)
			}
		}
		if m := tn.myTurn(id); m != nil {
			return reply(*m)
		}
		return fn(tn)
	})
}

// atTable runs fn with the table locked when the request comes from a
// seated player of the channel's running game.
func (s *Service) atTable(ctx context.Context, req *Request, id *customID, fn func(tn turn) (response, error)) (response, error) {
	r, err := s.withTable(ctx, req.Channel, func(t *table) (response, error) {
		seat, m := s.seated(req, t, id)
		if m != nil {
			return reply(*m)
		}
		return fn(s.turnAt(req, t, seat))
	})
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	return r, nil
}
