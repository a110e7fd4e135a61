package commands

import (
	"encoding/json"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// Turn DMs: a player who asks (/ttr notify) gets a direct message when a
// board asks them to play. The choice is the table's (a record option
// "notify.<user>"), and the DMs are queued with the move that makes the
// turn theirs, in the player's own queue of the outbox (dm.go), so they
// are never lost to a restart and never hold the table's boards.

// notifyKey is the record option holding a player's choice.
func notifyKey(user string) string { return "notify." + user }

// notifyCommand turns a player's turn DMs on (the default) or off.
func (s *Service) notifyCommand(c *call) (response, error) {
	req, t := c.req, c.t
	if t.rec == nil {
		return reply(s.noGameHere(req, "lobby.none"))
	}
	if seatOf(t.rec, req.User) < 0 {
		return reply(note(present.T(req.Locale, "notify.not_player")))
	}
	on := req.Opt("on") != "false"
	set := func(r *store.GameRecord) {
		if r.Options == nil {
			r.Options = map[string]string{}
		}
		if on {
			r.Options[notifyKey(req.User)] = "on"
		} else {
			delete(r.Options, notifyKey(req.User))
		}
	}
	// Update, not Put: the stored record also holds what the sender wrote
	// (the live board's id), which the table's copy may not.
	if err := s.cfg.Store.Update(t.rec.Channel, func(r *store.GameRecord) error { set(r); return nil }); err != nil {
		return reply(oops(req, err.Error()))
	}
	set(t.rec)
	if on {
		return reply(note(present.T(req.Locale, "notify.on", "option", present.CommandWord(req.Locale, "opt.ttr.notify.on", "on"))))
	}
	return reply(note(present.T(req.Locale, "notify.off")))
}

// dmEntry wraps a direct message about the game in channel for the
// user's own queue.
func dmEntry(user, channel string, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m, DM: user, Game: channel})
	e := entryOf(postDM, payload)
	e.Queue = dmQueue(user)
	return e
}

// turnPings are the DMs owed to the players a new board asks to play: the
// current player, or during the setup everyone still choosing tickets.
func (t *table) turnPings() []store.OutboxEntry {
	g, rec := t.game, t.rec
	loc := t.locale()
	board := present.EditionName(loc, g.Board(), rec.Variant)
	where := "<#" + rec.Channel + ">"
	var out []store.OutboxEntry
	ping := func(seat int, key string) {
		st := rec.Seats[seat]
		if st.Bot == "" && st.UserID != "" && rec.Options[notifyKey(st.UserID)] == "on" {
			out = append(out, dmEntry(st.UserID, rec.Channel, Message{Content: present.T(loc, key, "board", board, "channel", where)}))
		}
	}
	switch g.Phase() {
	case engine.PhaseSetup:
		for seat := range rec.Seats {
			if !g.SetupDone(seat) {
				ping(seat, "notify.setup")
			}
		}
	case engine.PhaseTurn:
		ping(g.Current(), "notify.turn")
	}
	return out
}
