package commands

import (
	"maps"

	"conductor/present"
	"conductor/store"
)

// A Rematch button on the final sheet (and on the result in the parent
// channel) opens a new table with the same seats and options, in a new
// thread when the game had one. It opens a lobby rather than starting at
// once: whoever has had enough leaves it, and the asker starts.

// rematchButton is the final sheet's Rematch button for a game.
func rematchButton(loc string, rec *store.GameRecord) Component {
	return Component{Kind: Button, ID: cid("rematch", rec.ID, 0, ""), Label: present.T(loc, "button.rematch"), Style: Primary, Emoji: "🔁"}
}

// rematch opens the table a finished game's player asked for.
func (s *Service) rematch(req *Request, resp Responder, id customID) error {
	old, err := s.finishedGame(req.Guild, id.game)
	if err != nil {
		return resp.Reply(note(present.T(req.Locale, "rematch.gone")))
	}
	if seatOf(old, req.User) < 0 {
		return resp.Reply(note(present.T(req.Locale, "rematch.not_player")))
	}
	// One rematch a game, even when two players click at once.
	if !s.claimRematch(old.ID) {
		if rec := s.rematchOf(old); rec != nil {
			return resp.Reply(note(present.T(req.Locale, "rematch.done", "where", "<#"+rec.Channel+">")))
		}
		return resp.Reply(note(present.T(req.Locale, "lobby.exists")))
	}
	defer s.releaseRematch(old.ID)
	if rec := s.rematchOf(old); rec != nil {
		return resp.Reply(note(present.T(req.Locale, "rematch.done", "where", "<#"+rec.Channel+">")))
	}

	rec := &store.GameRecord{Guild: old.Guild, Map: old.Map, Variant: old.Variant, Options: maps.Clone(old.Options),
		Host: req.User, Seed: newSeed(), Status: store.StatusLobby, Seats: append([]store.Seat(nil), old.Seats...)}
	rec.Options["rematch_of"] = old.ID
	for i := range rec.Seats {
		rec.Seats[i].Color = seatColors[i]
	}
	// Where: a new thread of the same parent channel, else the channel the
	// game was played in.
	home := old.Options["parent"]
	if home == "" {
		home = old.Channel
	}
	s.placeTable(rec, home, old.Options["parent"] != "")
	t, m := s.openLobby(req, rec)
	if t == nil {
		return resp.Reply(*m)
	}
	defer t.unlock()
	loc := t.locale()
	lobby := s.lobbyMessage(rec, loc)
	lobby.Content = present.T(loc, "rematch.opened", "player", present.EscapeMarkdown(req.UserName), "where", "<#"+rec.Channel+">")
	for _, st := range rec.Seats {
		if st.Bot == "" && st.UserID != "" && st.UserID != req.User {
			lobby.Mentions = append(lobby.Mentions, st.UserID)
		}
	}
	if err := s.enqueue(home, lobby); err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	s.kick(home)
	return resp.Reply(note(present.T(req.Locale, "rematch.done", "where", "<#"+rec.Channel+">")))
}

// finishedGame is an archived game of a server, as it was played.
func (s *Service) finishedGame(guild, id string) (*store.GameRecord, error) {
	e, err := s.cfg.Store.ArchivedByID(guild, id)
	if err != nil {
		return nil, err
	}
	return s.cfg.Store.ArchivedGame(e.Key)
}

// rematchOf is the live table opened as a game's rematch, if any, found by
// the store's rematch index.
func (s *Service) rematchOf(old *store.GameRecord) *store.GameRecord {
	ch, err := s.cfg.Store.RematchOf(old.ID)
	if err != nil {
		return nil
	}
	rec, err := s.cfg.Store.Header(ch)
	if err != nil {
		return nil
	}
	return rec
}

// claimRematch marks a game's rematch as being opened; false when another
// request is opening it.
func (s *Service) claimRematch(game string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rematching[game] {
		return false
	}
	s.rematching[game] = true
	return true
}

func (s *Service) releaseRematch(game string) {
	s.mu.Lock()
	delete(s.rematching, game)
	s.mu.Unlock()
}
