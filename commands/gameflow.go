package commands

import (
	"bytes"
	"sort"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// start begins the game from the lobby: everyone then chooses tickets.
func (s *Service) start(req *Request, resp Responder, game string) error {
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	defer t.unlock()
	rec := t.rec
	switch {
	case rec == nil:
		return resp.Reply(s.noGameHere(req, "lobby.none"))
	case game != "" && game != rec.ID:
		return resp.Reply(note(present.T(req.Locale, "stale.game")))
	case rec.Status != store.StatusLobby:
		return resp.Reply(note(present.T(req.Locale, "lobby.started")))
	case len(rec.Seats) < 2:
		return resp.Reply(note(present.T(req.Locale, "lobby.too_few")))
	}
	hostSeated := seatOf(rec, rec.Host) >= 0
	if req.User != rec.Host && !req.CanManage && (hostSeated || seatOf(rec, req.User) < 0) {
		return resp.Reply(note(present.T(req.Locale, "lobby.host_only")))
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
	m.Content = present.T(t.locale(), "game.started", "board", present.EditionName(t.locale(), g.Board(), t.rec.Variant)) + "\n" + m.Content
	// The lobby closes (its buttons go) and the game is posted as the
	// table's first board, through the outbox like every board: the board
	// after it takes its buttons off.
	lobby := s.lobbyMessage(rec, t.locale())
	lobby.Components = nil
	if game != "" {
		err = resp.Update(lobby)
	} else {
		err = resp.Reply(lobby)
	}
	entries := append([]store.OutboxEntry{outboxEntry("board", m)}, s.turnPings(t)...)
	if err := s.cfg.Store.Enqueue(t.rec.Channel, entries...); err != nil {
		s.log.Error("queue the first board", "channel", t.rec.Channel, "err", err)
	}
	s.kick(t.rec.Channel)
	s.kickQueues(entries)
	s.scheduleBots(t)
	return err
}

// finish archives a game that ended with a move; its final reveal was
// queued with that move.
func (s *Service) finish(t *table) {
	if _, err := s.cfg.Store.Archive(t.rec.Channel, s.archiveResult(t, t.game.Final())); err != nil {
		s.log.Error("archive", "channel", t.rec.Channel, "err", err)
	}
	t.rec, t.game = nil, nil
}

// finishWith reveals a score the table asked for (the game as it stood
// when the host ended it) and archives the game.
func (s *Service) finishWith(t *table, fs *engine.FinalScore) {
	ch := t.rec.Channel
	if err := s.cfg.Store.Enqueue(ch, s.finalEntries(t, fs)...); err != nil {
		s.log.Error("queue the final reveal", "channel", ch, "err", err)
	}
	if _, err := s.cfg.Store.Archive(ch, s.archiveResult(t, fs)); err != nil {
		s.log.Error("archive", "channel", ch, "err", err)
	}
	t.rec, t.game = nil, nil
	s.kick(ch)
}

// finalMessages reveal a final score in stages: the last narration, each
// player's sheet, then the winner with the picture and a Replay button.
func (s *Service) finalMessages(t *table, fs *engine.FinalScore) []Message {
	g, rec := t.game, t.rec
	loc := t.locale()
	b := g.Board()
	var msgs []Message
	intro := strings.Join(t.turnLog, "\n")
	t.turnLog = t.turnLog[:0]
	msgs = append(msgs, Message{Content: strings.TrimSpace(intro + "\n🏁 " + present.T(loc, "final.title"))})
	for i, ps := range fs.Players {
		msgs = append(msgs, Message{Embeds: []Embed{s.finalEmbed(loc, b, rec, i, &ps)}})
	}
	// The winner and the score sheet.
	win := fs.Ranking[0]
	ranking := present.Ranking(fs, seatNames(rec))
	last := Message{Content: present.T(loc, "final.winner", "player", mention(rec.Seats[win]), "points", fs.Players[win].Total) + "\n" + strings.Join(ranking, "\n")}
	if hints := hintSummary(loc, rec); hints != "" {
		last.Content += "\n" + hints
	}
	last.Content += s.replayLine(t, loc)
	if png, err := s.finalPNG(t, fs); err == nil {
		last.Files = []File{{Name: "final.png", ContentType: "image/png", Data: png}}
	} else {
		s.log.Error("render final", "err", err)
	}
	last.Components = []Row{{
		{Kind: Button, ID: cid("replay", rec.ID, 0, ""), Label: present.T(loc, "button.replay"), Style: Secondary, Emoji: "🎬"},
		rematchButton(loc, rec),
	}}
	for _, st := range rec.Seats {
		if st.Bot == "" && st.UserID != "" {
			last.Mentions = append(last.Mentions, st.UserID)
		}
	}
	return append(msgs, last)
}

// finalEntries are the outbox entries of a final reveal: the reveal, and
// for a game played in a thread the result told in the parent channel and
// the thread archived.
func (s *Service) finalEntries(t *table, fs *engine.FinalScore) []store.OutboxEntry {
	entries := finalEntries(s.finalMessages(t, fs))
	return append(entries, closingEntries(t.rec, s.parentResult(t, fs))...)
}

// parentResult is the result a game played in a thread leaves in its
// parent channel, with a link to the thread and a Rematch button.
func (s *Service) parentResult(t *table, fs *engine.FinalScore) Message {
	loc, rec := t.locale(), t.rec
	win := fs.Ranking[0]
	text := present.T(loc, "final.parent", "board", present.EditionName(loc, t.game.Board(), rec.Variant),
		"thread", "<#"+rec.Channel+">", "player", mention(rec.Seats[win]), "points", fs.Players[win].Total)
	ranking := present.Ranking(fs, seatNames(rec))
	return Message{Content: text + "\n" + strings.Join(ranking, "\n"), Components: []Row{{rematchButton(loc, rec)}}}
}

// finalEmbed is one player's score breakdown.
func (s *Service) finalEmbed(loc string, b *data.Board, rec *store.GameRecord, seat int, ps *engine.PlayerScore) Embed {
	title, lines := present.PlayerSheet(loc, b, seat, seatName(rec, seat), ps)
	return Embed{Title: title, Description: truncate(strings.Join(lines, "\n"), 4000)}
}

// finalPNG draws the final score sheet.
func (s *Service) finalPNG(t *table, fs *engine.FinalScore) ([]byte, error) {
	g := t.game
	v := g.Public()
	sc := present.FinalScene(t.locale(), &v, fs, seatNames(t.rec))
	var buf bytes.Buffer
	if err := s.cfg.Renderer.Final(&buf, sc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// archiveResult summarises the game for /ttr stats.
func (s *Service) archiveResult(t *table, fs *engine.FinalScore) store.ArchiveResult {
	g, rec := t.game, t.rec
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

// end: /ttr end (host or a member with Manage Channel). A lobby closes at
// once; a running game asks first: score it as it stands and archive it,
// stop it without a score, or go on.
func (s *Service) end(req *Request, resp Responder) error {
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	defer t.unlock()
	if t.rec == nil {
		return resp.Reply(s.noGameHere(req, "game.none"))
	}
	if req.User != t.rec.Host && !req.CanManage {
		return resp.Reply(note(present.T(req.Locale, "end.not_allowed")))
	}
	if t.rec.Status == store.StatusLobby || t.game == nil {
		return s.stop(req, resp, t, false)
	}
	turn := len(t.rec.Log)
	return resp.Reply(Message{Ephemeral: true, Content: present.T(req.Locale, "end.ask"), Components: []Row{{
		{Kind: Button, ID: cid("end", t.rec.ID, turn, "score"), Label: present.T(req.Locale, "button.end_score"), Style: Primary, Emoji: "🏁"},
		{Kind: Button, ID: cid("end", t.rec.ID, turn, "stop"), Label: present.T(req.Locale, "button.end_stop"), Style: Danger},
		{Kind: Button, ID: cid("end", t.rec.ID, turn, "cancel"), Label: present.T(req.Locale, "button.cancel"), Style: Secondary},
	}}})
}

// endButton answers /ttr end's question.
func (s *Service) endButton(req *Request, resp Responder, id customID) error {
	t, err := s.table(req.Channel)
	if err != nil {
		return resp.Reply(s.oops(req, err.Error()))
	}
	defer t.unlock()
	switch {
	case t.rec == nil || t.game == nil || t.rec.ID != id.game:
		return resp.Update(note(present.T(req.Locale, "stale.game")))
	case req.User != t.rec.Host && !req.CanManage:
		return resp.Reply(note(present.T(req.Locale, "end.not_allowed")))
	case id.arg == "cancel":
		return resp.Update(note(present.T(req.Locale, "end.cancelled")))
	case id.turn != len(t.rec.Log):
		// Moves were played since the question: ask again.
		return resp.Update(note(present.T(req.Locale, "stale.turn")))
	case id.arg == "stop":
		return s.stop(req, resp, t, true)
	case id.arg == "score":
		s.disarmBot(t)
		fs := t.game.ScoreNow()
		t.turnLog = append(t.turnLog, present.T(t.locale(), "end.scored", "player", present.EscapeMarkdown(req.UserName)))
		err := resp.Update(note(present.T(req.Locale, "end.scoring")))
		s.finishWith(t, &fs)
		return err
	}
	return resp.Reply(note(present.T(req.Locale, "stale.unknown")))
}

// stop throws a lobby away, or archives a running game without a score.
func (s *Service) stop(req *Request, resp Responder, t *table, update bool) error {
	s.disarmBot(t)
	loc := t.locale()
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
	inThread := t.rec.Options["parent"] != ""
	t.rec, t.game = nil, nil
	done := Message{Content: present.T(loc, "end.done", "player", present.EscapeMarkdown(req.UserName))}
	if inThread {
		// The thread is archived once the table was told, in order.
		if err := s.cfg.Store.Enqueue(req.Channel, outboxEntry("", done), archiveEntry()); err != nil {
			s.log.Warn("queue the end", "channel", req.Channel, "err", err)
		}
		s.kick(req.Channel)
		if update {
			return resp.Update(note(present.T(req.Locale, "end.stopped")))
		}
		return resp.Reply(note(present.T(req.Locale, "end.stopped")))
	}
	if update {
		if err := resp.Update(note(present.T(req.Locale, "end.stopped"))); err != nil {
			return err
		}
		if err := s.enqueue(req.Channel, done); err != nil {
			s.log.Warn("queue the end", "channel", req.Channel, "err", err)
		}
		s.kick(req.Channel)
		return nil
	}
	return resp.Reply(done)
}
