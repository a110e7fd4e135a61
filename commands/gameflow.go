package commands

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/store"
)

// start begins the game from the lobby: everyone then chooses tickets.
func (s *Service) start(req *Request, resp Responder, game string) error {
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	defer t.mu.Unlock()
	rec := t.rec
	switch {
	case rec == nil:
		return resp.Reply(note(T(req.Locale, "lobby.none")))
	case game != "" && game != rec.ID:
		return resp.Reply(note(T(req.Locale, "stale.game")))
	case rec.Status != store.StatusLobby:
		return resp.Reply(note(T(req.Locale, "lobby.started")))
	case len(rec.Seats) < 2:
		return resp.Reply(note(T(req.Locale, "lobby.too_few")))
	}
	hostSeated := seatOf(rec, rec.Host) >= 0
	if req.User != rec.Host && !req.CanManage && (hostSeated || seatOf(rec, req.User) < 0) {
		return resp.Reply(note(T(req.Locale, "lobby.host_only")))
	}
	rec.Rules = engine.LatestRevision
	g, err := s.newGame(rec)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	rec.Status = store.StatusPlaying
	rec.Log = nil
	if err := s.cfg.Store.Put(rec); err != nil {
		rec.Status = store.StatusLobby
		return resp.Reply(s.oops(req, err.Error()))
	}
	t.game, t.turnLog, t.history = g, nil, nil
	s.botsSetup(t)
	m := s.boardMessage(t)
	m.Content = T(t.locale(), "game.started", "board", g.Board().Name) + "\n" + m.Content
	if game != "" {
		// Close the lobby message, then post the game as a new message.
		lobby := s.lobbyMessage(rec, t.locale())
		lobby.Components = nil
		err := resp.Update(lobby)
		if id, perr := s.cfg.Poster.Post(rec.Channel, m); perr == nil {
			s.remember(t, "board", id)
		} else {
			s.log.Error("post start", "err", perr)
		}
		s.scheduleBots(t)
		return err
	}
	err = resp.Reply(m)
	s.scheduleBots(t)
	return err
}

// finish reveals the final scoring in stages and archives the game.
func (s *Service) finish(t *table) {
	g, rec := t.game, t.rec
	loc := t.locale()
	b := g.Board()
	fs := g.Final()
	var msgs []Message
	intro := strings.Join(t.turnLog, "\n")
	t.turnLog = t.turnLog[:0]
	msgs = append(msgs, Message{Content: strings.TrimSpace(intro + "\n🏁 " + T(loc, "final.title"))})
	for i, ps := range fs.Players {
		msgs = append(msgs, Message{Embeds: []Embed{s.finalEmbed(loc, b, rec, i, &ps)}})
	}
	// The winner and the score sheet.
	win := fs.Ranking[0]
	var ranking []string
	for r, i := range fs.Ranking {
		ranking = append(ranking, fmt.Sprintf("%d. %s %s — %d", r+1, colorDot(i), seatName(rec, i), fs.Players[i].Total))
	}
	last := Message{Content: T(loc, "final.winner", "player", mention(rec.Seats[win]), "points", fs.Players[win].Total) + "\n" + strings.Join(ranking, "\n")}
	if png, err := s.finalPNG(t); err == nil {
		last.Files = []File{{Name: "final.png", ContentType: "image/png", Data: png}}
	} else {
		s.log.Error("render final", "err", err)
	}
	for _, st := range rec.Seats {
		if st.Bot == "" && st.UserID != "" {
			last.Mentions = append(last.Mentions, st.UserID)
		}
	}
	msgs = append(msgs, last)
	if _, err := s.cfg.Store.Archive(rec.Channel, s.archiveResult(t)); err != nil {
		s.log.Error("archive", "channel", rec.Channel, "err", err)
	}
	t.rec, t.game = nil, nil
	for _, m := range msgs {
		if _, err := s.cfg.Poster.Post(rec.Channel, m); err != nil {
			s.log.Error("post final", "channel", rec.Channel, "err", err)
		}
	}
}

// finalEmbed is one player's score breakdown.
func (s *Service) finalEmbed(loc string, b *data.Board, rec *store.GameRecord, seat int, ps *engine.PlayerScore) Embed {
	var won, lost []string
	for _, tk := range ps.Tickets {
		line := fmt.Sprintf("%s – %s (%d)", b.Cities[tk.A].Name, b.Cities[tk.B].Name, tk.Points)
		if tk.Completed {
			won = append(won, "✅ "+line)
		} else {
			lost = append(lost, "❌ "+line)
		}
	}
	lines := []string{T(loc, "final.routes", "points", ps.RoutePoints)}
	lines = append(lines, T(loc, "final.tickets", "points", signed(ps.TicketPoints), "done", ps.CompletedTickets, "n", len(ps.Tickets)))
	lines = append(lines, won...)
	lines = append(lines, lost...)
	if ps.LongestBonus {
		lines = append(lines, T(loc, "final.longest", "n", ps.LongestPath, "points", ps.BonusPoints))
	} else if b.Rules.LongestPathBonus > 0 {
		lines = append(lines, T(loc, "final.longest_none", "n", ps.LongestPath))
	}
	if ps.TicketsBonus {
		lines = append(lines, T(loc, "final.most_tickets", "points", ps.BonusPoints))
	}
	if b.Rules.Stations > 0 {
		lines = append(lines, T(loc, "final.stations", "points", ps.StationPoints, "built", ps.StationsBuilt))
		for _, t := range ps.Borrowed {
			lines = append(lines, "   🚉 "+localRouteLabel(loc, b, t))
		}
	}
	if b.Rules.Passengers > 0 {
		lines = append(lines, T(loc, "final.goods", "points", ps.GoodsPoints))
	}
	return Embed{Title: fmt.Sprintf("%s %s — %d", colorDot(seat), seatName(rec, seat), ps.Total), Description: truncate(strings.Join(lines, "\n"), 4000)}
}

func signed(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

// finalPNG draws the final score sheet.
func (s *Service) finalPNG(t *table) ([]byte, error) {
	g, rec := t.game, t.rec
	b := g.Board()
	fs := g.Final()
	v := g.Public()
	sc := &imaging.FinalScene{Board: b, Owners: v.Owners}
	for i, ps := range fs.Players {
		fl := imaging.FinalLine{Name: seatName(rec, i), Color: i, RoutePoints: ps.RoutePoints, StationPoints: ps.StationPoints,
			GoodsPoints: ps.GoodsPoints, Total: ps.Total, Winner: fs.Ranking[0] == i, LongestPath: ps.LongestTracks}
		for _, tk := range ps.Tickets {
			line := imaging.TicketLine{From: b.Cities[tk.A].Name, To: b.Cities[tk.B].Name, Points: tk.Points, Completed: tk.Completed, Cities: []data.CityID{tk.A, tk.B}}
			if tk.Completed {
				fl.TicketsWon = append(fl.TicketsWon, line)
			} else {
				fl.TicketsLost = append(fl.TicketsLost, line)
			}
		}
		if ps.LongestBonus {
			fl.Bonuses = append(fl.Bonuses, imaging.Bonus{Name: T(t.locale(), longestBonusKey(b)), Points: ps.BonusPoints})
		}
		if ps.TicketsBonus {
			fl.Bonuses = append(fl.Bonuses, imaging.Bonus{Name: T(t.locale(), "bonus.tickets"), Points: ps.BonusPoints})
		}
		sc.Players = append(sc.Players, fl)
	}
	var buf bytes.Buffer
	if err := s.cfg.Renderer.Final(&buf, sc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// archiveResult summarises the game for /ttr stats.
func (s *Service) archiveResult(t *table) store.ArchiveResult {
	g, rec := t.game, t.rec
	fs := g.Final()
	res := store.ArchiveResult{Finished: s.cfg.Now()}
	rank := make([]int, len(fs.Players))
	for r, i := range fs.Ranking {
		rank[i] = r + 1
	}
	for i, ps := range fs.Players {
		pr := store.PlayerResult{UserID: rec.Seats[i].UserID, Name: rec.Seats[i].Name, Bot: rec.Seats[i].Bot, Score: ps.Total,
			Rank: rank[i], Won: rank[i] == 1, TicketsCompleted: ps.CompletedTickets, TicketsFailed: len(ps.Tickets) - ps.CompletedTickets}
		for tr, o := range g.Public().Owners {
			if int(o) == i {
				pr.Routes = append(pr.Routes, g.Board().TrackName(data.TrackID(tr)))
			}
		}
		sort.Strings(pr.Routes)
		res.Players = append(res.Players, pr)
	}
	return res
}

// end stops the channel's game (host or a member with Manage Channel).
func (s *Service) end(req *Request, resp Responder) error {
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	defer t.mu.Unlock()
	if t.rec == nil {
		return resp.Reply(note(T(req.Locale, "game.none")))
	}
	if req.User != t.rec.Host && !req.CanManage {
		return resp.Reply(note(T(req.Locale, "end.not_allowed")))
	}
	s.disarmBot(t)
	if t.rec.Status == store.StatusLobby || t.game == nil {
		if err := s.cfg.Store.Delete(req.Channel); err != nil {
			return resp.Reply(s.oops(req, err.Error()))
		}
	} else {
		res := store.ArchiveResult{Status: store.StatusAbandoned, Finished: s.cfg.Now()}
		for i, st := range t.rec.Seats {
			res.Players = append(res.Players, store.PlayerResult{UserID: st.UserID, Name: st.Name, Bot: st.Bot, Score: t.game.Public().Players[i].Score})
		}
		if _, err := s.cfg.Store.Archive(req.Channel, res); err != nil {
			return resp.Reply(s.oops(req, err.Error()))
		}
	}
	t.rec, t.game = nil, nil
	return resp.Reply(Message{Content: T(req.GuildLocale, "end.done", "player", req.UserName)})
}

// longestBonusKey names the longest-path bonus as the edition prints it: the
// European Express in Europe, the longest path elsewhere.
func longestBonusKey(b *data.Board) string {
	for _, tb := range b.Rules.TieBreaks {
		if tb == "express" {
			return "bonus.express"
		}
	}
	return "bonus.longest"
}
