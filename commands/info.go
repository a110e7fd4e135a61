package commands

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"conductor/engine"
	"conductor/present"
)

// handCommand: /hand [dm], or the "My hand" button. Private: ephemeral, or
// a DM on request (falling back to ephemeral when DMs are closed). The
// hand is read under the table's lock; the DM is sent after it.
func (s *Service) handCommand(req *Request, resp Responder, dm bool) error {
	var (
		msg, prompt     Message
		pending, seated bool
	)
	err := s.atTable(req, resp, nil, func(t *table, seat int) error {
		msg = s.handMessage(t, seat, req.Locale)
		prompt, pending = s.pendingPrompt(t, seat, req.User, req.Locale)
		seated = true
		return nil
	})
	if err != nil || !seated {
		return err // atTable answered why not
	}
	if dm {
		msg.Ephemeral = false
		err := s.cfg.Poster.DM(req.User, msg)
		if err == nil {
			if pending {
				// The choice's controls work only where the game is.
				prompt.Content = present.T(req.Locale, "hand.sent_dm") + "\n" + prompt.Content
				return resp.Reply(prompt)
			}
			return resp.Reply(note(present.T(req.Locale, "hand.sent_dm")))
		}
		msg.Ephemeral = true
		if errors.Is(err, ErrDMClosed) {
			msg.Content = present.T(req.Locale, "hand.dm_closed") + "\n" + msg.Content
		} else {
			s.log.Warn("dm failed", "err", err)
			msg.Content = present.T(req.Locale, "hand.dm_failed") + "\n" + msg.Content
		}
	}
	if pending {
		msg.Content = strings.TrimSpace(msg.Content + "\n" + prompt.Content)
		msg.Components = prompt.Components
	}
	return resp.Reply(msg)
}

// handMessage is a seat's private summary: cards, tickets with progress,
// and a picture of both.
func (s *Service) handMessage(t *table, seat int, loc string) Message {
	g := t.game
	b := g.Board()
	v := g.View(seat)
	var cards []string
	for c := engine.Card(1); c < engine.NumCards; c++ {
		if n := v.Hand[c]; n > 0 {
			cards = append(cards, fmt.Sprintf("%s %d× %s", present.CardEmoji(c), n, present.CardName(loc, c)))
		}
	}
	if len(cards) == 0 {
		cards = []string{"—"}
	}
	var tickets []string
	done, pts := 0, 0
	for _, ts := range v.Tickets {
		mark := "⬜"
		if ts.Completed {
			mark = "✅"
			done++
			pts += b.Tickets[ts.Ticket].Points
		} else {
			pts -= b.Tickets[ts.Ticket].Points
		}
		tickets = append(tickets, mark+" "+present.TicketLabel(b, ts.Ticket))
	}
	if len(tickets) == 0 {
		tickets = []string{"—"}
	}
	if len(v.Pending) > 0 {
		tickets = append(tickets, present.T(loc, "hand.pending", "tickets", present.TicketList(b, v.Pending)))
	}
	me := v.Players[seat]
	e := Embed{Title: present.T(loc, "hand.title", "player", present.EscapeMarkdown(seatName(t.rec, seat))), Color: 0x805ad5,
		Fields: []Field{
			{Name: present.T(loc, "hand.cards", "n", v.Hand.Total()), Value: strings.Join(cards, "\n"), Inline: true},
			{Name: present.T(loc, "hand.tickets", "done", done, "n", len(v.Tickets), "points", pts), Value: truncate(strings.Join(tickets, "\n"), 1000), Inline: true},
		},
		Footer: present.T(loc, "hand.footer", "trains", me.Trains, "stations", me.Stations, "score", me.Score)}
	if b.Rules.Stations == 0 {
		// USA and Märklin have no stations: say nothing of them.
		e.Footer = present.T(loc, "hand.footer_trains", "trains", me.Trains, "score", me.Score)
	}
	m := Message{Ephemeral: true, Embeds: []Embed{e}}
	hs := present.HandScene(loc, &v, seatName(t.rec, seat))
	var buf bytes.Buffer
	if err := s.cfg.Renderer.Hand(&buf, hs); err == nil {
		m.Files = []File{{Name: "hand.png", ContentType: "image/png", Data: buf.Bytes()}}
		m.Embeds[0].Image = "hand.png"
	} else {
		s.log.Error("render hand", "err", err)
	}
	return m
}

// boardCooldown is the least time between two /board reposts of a table.
const boardCooldown = 30 * time.Second

// boardCommand: /board reposts the board publicly for a player; a
// spectator sees it privately, without controls.
func (s *Service) boardCommand(req *Request, resp Responder) error {
	return s.withGame(req, resp, func(t *table) error {
		if seatOf(t.rec, req.User) < 0 {
			saved := t.turnLog
			t.turnLog = nil
			m := s.boardMessage(t)
			t.turnLog = saved
			m.Ephemeral, m.Components, m.Mentions = true, nil, nil
			return resp.Reply(m)
		}
		// One public repost per table and cooldown: a board is 170 KB of
		// pictures and eight buttons in everyone's channel.
		if wait := boardCooldown - s.cfg.Now().Sub(t.boardShown); wait > 0 {
			return resp.Reply(note(present.T(req.Locale, "board.cooldown", "seconds", int(wait.Seconds())+1)))
		}
		t.boardShown = s.cfg.Now()
		saved := t.turnLog
		t.turnLog = nil
		m := s.boardMessage(t)
		t.turnLog = saved
		m.Mentions = nil // a repost does not ping
		return resp.Reply(m)
	})
}

// scoreCommand: /score shows public counts only.
func (s *Service) scoreCommand(req *Request, resp Responder) error {
	return s.withGame(req, resp, func(t *table) error {
		loc := t.locale()
		v := t.game.Public()
		var lines []string
		for i, p := range v.Players {
			line := present.T(loc, "score.line", "color", present.ColorDot(i), "player", present.EscapeMarkdown(seatName(t.rec, i)), "score", p.Score, "trains", p.Trains, "cards", p.Cards, "tickets", p.Tickets)
			if v.Board.Rules.Stations > 0 {
				line += " · " + present.T(loc, "score.stations", "n", p.Stations)
			}
			if v.Board.Rules.Passengers > 0 {
				line += " · " + present.T(loc, "score.passengers", "n", p.PassengersLeft)
			}
			if i == v.Current && v.Phase != engine.PhaseSetup && v.Phase != engine.PhaseOver {
				line = "▶ " + line
			}
			lines = append(lines, line)
		}
		e := Embed{Title: present.T(loc, "score.title"), Description: strings.Join(lines, "\n"),
			Footer: present.T(loc, "score.footer", "deck", present.DeckCount(&v), "discards", v.Discards, "tickets", v.TicketDecks[0]+v.TicketDecks[1])}
		return resp.Reply(Message{Embeds: []Embed{e}})
	})
}

// logCommand: /log shows the last public moves.
func (s *Service) logCommand(req *Request, resp Responder) error {
	return s.withGame(req, resp, func(t *table) error {
		h := t.history
		if len(h) > 15 {
			h = h[len(h)-15:]
		}
		if len(h) == 0 {
			return resp.Reply(note(present.T(req.Locale, "log.empty")))
		}
		return resp.Reply(Message{Ephemeral: true, Content: truncate(strings.Join(h, "\n"), 1900)})
	})
}

// withGame runs fn with the table locked when the channel has a running
// game (for anyone: watchers may look at the board and the scores).
func (s *Service) withGame(req *Request, resp Responder, fn func(t *table) error) error {
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	defer t.unlock()
	if t.rec == nil || t.game == nil {
		return resp.Reply(s.noGameHere(req, "game.none"))
	}
	return fn(t)
}
