package commands

import (
	"strconv"
	"strings"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// takeoverLevel is the bot level that plays a seat whose player left or
// was removed, and an absent player's turn when the timer runs out.
const takeoverLevel = "normal"

// A running game cannot lose a seat: the engine's turn order, the cards in
// hand and the tickets would have nowhere to go, and the printed rules know
// no player leaving. So a player who leaves, or whom the host removes,
// hands the seat to a bot, told publicly; the table plays on.

// leave: /ttr leave — out of the lobby, or out of a running game (a bot
// takes the seat).
func (s *Service) leave(c *call) (response, error) {
	req, t := c.req, c.t
	if !running(t) {
		return s.inLobby(req, t, "", leaveLobby(req))
	}
	seat := seatOf(t.rec, req.User)
	if seat < 0 {
		return reply(note(present.T(req.Locale, "game.not_player")))
	}
	name := present.EscapeMarkdown(seatName(t.rec, seat))
	if err := t.handToBot(seat); err != nil {
		return reply(oops(req, err.Error()))
	}
	loc := t.locale()
	return reply(Message{Content: present.T(loc, "seat.left", "player", name, "level", present.LevelName(loc, takeoverLevel))})
}

// kickSeat: /ttr kick seat:|player: — the host removes a seat, bots included
// in the lobby; in a running game a person's seat goes to a bot.
func (s *Service) kickSeat(c *call) (response, error) {
	req, t := c.req, c.t
	if !running(t) {
		return s.inLobby(req, t, "", kickFromLobby(req))
	}
	if req.User != t.rec.Host && !req.CanManage {
		return reply(note(present.T(req.Locale, "lobby.host_only")))
	}
	seat := findSeat(t.rec, req.Opt("seat"), req.Opt("player"))
	if seat < 0 {
		return reply(note(present.T(req.Locale, "lobby.no_such_player")))
	}
	name := present.EscapeMarkdown(seatName(t.rec, seat))
	if isBot(t.rec, seat) {
		return reply(note(present.T(req.Locale, "seat.bot_stays", "player", name)))
	}
	if err := t.handToBot(seat); err != nil {
		return reply(oops(req, err.Error()))
	}
	return reply(Message{Content: present.T(t.locale(), "seat.removed", "host", present.EscapeMarkdown(req.UserName), "player", name, "level", present.LevelName(t.locale(), takeoverLevel))})
}

// running reports whether a locked table's game has started.
func running(t *table) bool {
	return t.rec != nil && t.rec.Status == store.StatusPlaying && t.game != nil
}

// findSeat resolves a seat named by number ("2"), by name, or by a member's
// id; -1 when none matches.
func findSeat(rec *store.GameRecord, seat, user string) int {
	seat = strings.TrimSpace(seat)
	if n, err := strconv.Atoi(seat); err == nil && n >= 1 && n <= len(rec.Seats) {
		return n - 1
	}
	for i, st := range rec.Seats {
		switch {
		case seat != "" && (strings.EqualFold(st.Name, seat) || st.UserID == seat):
			return i
		case seat == "" && user != "" && st.UserID == user:
			return i
		}
	}
	return -1
}

// handToBot gives a person's seat to a bot, in the store first, then plays
// on if the seat owes a move. The seat keeps the person's id and name (it
// is named "bot for them" from then on): their part of the game stays
// theirs, and they may still ask for the rematch.
func (t *table) handToBot(seat int) error {
	user := t.rec.Seats[seat].UserID
	moves := len(t.rec.Log)
	err := t.store.Update(t.rec.Channel, func(r *store.GameRecord) error {
		r.Seats[seat].Bot, r.Seats[seat].LeftAt = takeoverLevel, moves
		return nil
	})
	if err != nil {
		return err
	}
	t.rec.Seats[seat].Bot, t.rec.Seats[seat].LeftAt = takeoverLevel, moves
	delete(t.pending, user)
	if t.game.Phase() == engine.PhaseSetup {
		t.bots.setup(t)
		t.after(outcome{}) // the board, if set-up ended, was queued with the move
		return nil
	}
	t.bots.schedule(t)
	return nil
}

// seatChoices suggests the seats of the channel's table for /ttr kick,
// named in the language of loc.
func seatChoices(loc string, rec *store.GameRecord, add func(name, value string)) {
	for i, st := range rec.Seats {
		add(strconv.Itoa(i+1)+" · "+present.PlayerName(loc, present.Player{Name: st.Name, Bot: st.Bot != "", Level: st.Bot, For: forName(st)}), strconv.Itoa(i+1))
	}
}

// forName is the member a bot plays for, "" for a seat that is not taken
// over.
func forName(st store.Seat) string {
	if st.TakenOver() {
		return st.Name
	}
	return ""
}
