package commands

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
)

// handCommand: /hand [dm], or the "My hand" button. Private: ephemeral, or
// a DM on request (falling back to ephemeral when DMs are closed). The
// hand is read under the table's lock; its picture is drawn and the DM sent
// after it.
func (s *Service) handCommand(c *call) (response, error) {
	req, t, seat := c.req, c.turn.t, c.turn.seat
	msg, picture := t.handMessage(seat, req.Locale)
	key := handKey{channel: t.rec.Channel, at: positionOf(t), seat: seat, locale: req.Locale, name: seatName(t.rec, seat)}
	prompt, pending := t.controls().pendingPrompt(seat, req.User, req.Locale)
	return response{unlocked: func() (response, error) {
		// The picture is drawn unless the same hand was drawn a moment ago.
		s.drawHand(&msg, picture, key)
		if req.Opt("dm") == "true" {
			msg.Ephemeral = false
			err := s.cfg.Poster.DM(c.ctx, req.User, msg)
			if err == nil {
				if pending {
					// The choice's controls work only where the game is.
					prompt.Content = present.T(req.Locale, "hand.sent_dm") + "\n" + prompt.Content
					return reply(prompt)
				}
				return reply(note(present.T(req.Locale, "hand.sent_dm")))
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
		return reply(msg)
	}}, nil
}

// handMessage is a seat's private summary: cards, tickets with progress,
// and the picture of both to draw (drawHand) once the table's lock is
// released.
func (t *table) handMessage(seat int, loc string) (Message, *imaging.HandScene) {
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
		mark := present.TicketEmoji // an open ticket (the white square is the white card)
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
	if !b.Rules.HasStations() {
		// USA and Märklin have no stations: say nothing of them.
		e.Footer = present.T(loc, "hand.footer_trains", "trains", me.Trains, "score", me.Score)
	}
	m := Message{Ephemeral: true, Embeds: []Embed{e}}
	return m, present.HandScene(loc, &v, seatName(t.rec, seat))
}

// drawHand adds the picture of a hand to its message (handMessage), from
// the cache when it holds it. The scene is a copy: no lock is needed.
func (s *Service) drawHand(m *Message, hs *imaging.HandScene, key handKey) {
	png, ok := s.hands.get(key)
	if !ok {
		var buf bytes.Buffer
		if err := s.cfg.Renderer.Hand(&buf, hs); err != nil {
			s.log.Error("render hand", "err", err)
			return
		}
		png = buf.Bytes()
		s.hands.put(key, png)
	}
	m.Files = []File{pngFile("hand.png", png, present.HandAlt(key.locale))}
	m.Embeds[0].Image = "hand.png"
}

// boardCooldown is the least time between two /board reposts of a table.
const boardCooldown = 30 * time.Second

// boardCommand: /board reposts the board publicly for a player; a
// spectator sees it privately, without controls. The picture is drawn
// once the table's lock is released.
func (s *Service) boardCommand(c *call) (response, error) {
	req, t := c.req, c.t
	if seatOf(t.rec, req.User) >= 0 {
		// One public repost per table and cooldown: a board is 170 KB
		// of pictures and eight buttons in everyone's channel.
		if wait := boardCooldown - s.cfg.Now().Sub(t.boardShown); wait > 0 {
			return reply(note(present.T(req.Locale, "board.cooldown", "seconds", int(wait.Seconds())+1)))
		}
		t.boardShown = s.cfg.Now()
	}
	saved := t.told.turn
	t.told.turn = nil
	m := t.boardText()
	t.told.turn = saved
	scene, alt, channel := t.scene(t.locale()), t.boardAlt(t.locale()), t.rec.Channel
	m.Mentions = nil // a repost does not ping
	if seatOf(t.rec, req.User) < 0 {
		m.Ephemeral, m.Components = true, nil
	}
	return response{unlocked: func() (response, error) {
		if f, err := drawBoard(s.cfg.Renderer, scene, alt); err == nil {
			m.Files = []File{f}
		} else {
			s.log.Error("render board", "channel", channel, "err", err)
		}
		return reply(m)
	}}, nil
}

// scoreCommand: /score shows public counts only.
func (s *Service) scoreCommand(c *call) (response, error) {
	t := c.t
	loc := t.locale()
	v := t.game.Public()
	var lines []string
	for i, p := range v.Players {
		line := present.T(loc, "score.line", "color", present.ColorDot(i), "player", present.EscapeMarkdown(seatName(t.rec, i)), "score", p.Score, "trains", p.Trains, "cards", p.Cards, "tickets", p.Tickets)
		if v.Board.Rules.HasStations() {
			line += " · " + present.T(loc, "score.stations", "n", p.Stations)
		}
		if v.Board.Rules.HasPassengers() {
			line += " · " + present.T(loc, "score.passengers", "n", p.PassengersLeft)
		}
		if i == v.Current && v.Phase != engine.PhaseSetup && v.Phase != engine.PhaseOver {
			line = "▶ " + line
		}
		lines = append(lines, line)
	}
	e := Embed{Title: present.T(loc, "score.title"), Description: strings.Join(lines, "\n"),
		Footer: present.T(loc, "score.footer", "deck", present.DeckCount(&v), "discards", v.Discards, "tickets", v.TicketDecks[0]+v.TicketDecks[1])}
	return reply(Message{Embeds: []Embed{e}})
}

// logCommand: /log shows the last public moves.
func (s *Service) logCommand(c *call) (response, error) {
	req, t := c.req, c.t
	h := t.told.history
	if len(h) > 15 {
		h = h[len(h)-15:]
	}
	if len(h) == 0 {
		return reply(note(present.T(req.Locale, "log.empty")))
	}
	return reply(Message{Ephemeral: true, Content: truncate(strings.Join(h, "\n"), 1900)})
}
