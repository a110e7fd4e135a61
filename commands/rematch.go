package commands

import (
	"maps"
	"strings"

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

// rematch opens the table a finished game's player asked for: once per
// game, ever (the archived game keeps its rematch's id), whatever becomes
// of that table; its lobby pings the other players once.
func (s *Service) rematch(c *call) (response, error) {
	req, id := c.req, c.id
	key, old, err := s.finishedGame(req.Guild, id.game)
	if err != nil {
		return reply(note(present.T(req.Locale, "rematch.gone")))
	}
	if heldSeat(old, req.User) < 0 {
		return reply(note(present.T(req.Locale, "rematch.not_player")))
	}
	done := func() (response, error) {
		if rec := s.rematchOf(old); rec != nil {
			return reply(note(present.T(req.Locale, "rematch.done", "where", "<#"+rec.Channel+">")))
		}
		return reply(note(present.T(req.Locale, "rematch.already")))
	}
	// One rematch a game, even when two players click at once.
	if store.RematchMark(old) != "" || !s.opener.claimRematch(old.ID) {
		return done()
	}
	defer s.opener.releaseRematch(old.ID)

	rec := &store.GameRecord{Guild: old.Guild, Map: old.Map, Variant: old.Variant, Options: maps.Clone(old.Options),
		Host: req.User, Seed: s.cfg.NewSeed(), Status: store.StatusLobby, Seats: append([]store.Seat(nil), old.Seats...)}
	delete(rec.Options, "rematch") // the old game's own mark
	rec.Options[optRematchOf] = old.ID
	for k := range rec.Options {
		if strings.HasPrefix(k, "notify.") {
			delete(rec.Options, k) // each table's DMs are asked for anew
		}
	}
	for i := range rec.Seats {
		rec.Seats[i].Color = seatColors[i]
		if rec.Seats[i].TakenOver() {
			// The member whose seat a bot finished is a player of the
			// game: the rematch seats them again (they may leave it).
			rec.Seats[i].Bot, rec.Seats[i].LeftAt = "", 0
		}
	}
	// Where: a new thread of the same parent channel, else the channel the
	// game was played in.
	home, kind := old.Options[optParent], ChannelText
	if home == "" {
		home, kind = old.Channel, ChannelUnknown
		if req.Channel == home {
			kind = req.ChannelKind
		}
	}
	dress := func(lobby *Message) {
		// The lobby pings the other players, once: their mentions in its
		// content (a mention in an embed pings nobody).
		loc := rec.Options[optLocale]
		var pings []string
		for _, st := range rec.Seats {
			if st.Bot == "" && st.UserID != "" && st.UserID != req.User {
				lobby.Mentions = append(lobby.Mentions, st.UserID)
				pings = append(pings, mention(loc, st))
			}
		}
		opened := present.T(loc, "rematch.opened", "player", present.EscapeMarkdown(req.UserName), "where", "<#"+rec.Channel+">")
		lobby.Content = strings.TrimSpace(opened + " " + strings.Join(pings, " ") + "\n" + lobby.Content)
	}
	put := func(rec *store.GameRecord, posts ...store.OutboxEntry) error {
		return s.cfg.Store.PutRematch(key, rec, posts...)
	}
	opened, answer := s.opener.open(c.ctx, req, tableOpening{rec: rec, home: home, kind: kind, wantThread: old.Options[optParent] != "", lobby: dress, put: put})
	if !opened {
		return reply(answer)
	}
	return reply(note(present.T(req.Locale, "rematch.done", "where", "<#"+rec.Channel+">")))
}

// heldSeat is the seat user held in a game, played to the end or left to
// a bot; -1 when they had none.
func heldSeat(rec *store.GameRecord, user string) int {
	for i, st := range rec.Seats {
		if st.UserID == user && (st.Bot == "" || st.TakenOver()) {
			return i
		}
	}
	return -1
}

// finishedGame is an archived game of a server, as it was played, with its
// archive key.
func (s *Service) finishedGame(guild, id string) (string, *store.GameRecord, error) {
	e, err := s.cfg.Store.ArchivedByID(guild, id)
	if err != nil {
		return "", nil, err
	}
	rec, err := s.cfg.Store.ArchivedGame(e.Key)
	return e.Key, rec, err
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
func (s *opener) claimRematch(game string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rematching[game] {
		return false
	}
	s.rematching[game] = true
	return true
}

func (s *opener) releaseRematch(game string) {
	s.mu.Lock()
	delete(s.rematching, game)
	s.mu.Unlock()
}
