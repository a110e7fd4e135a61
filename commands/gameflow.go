package commands

import (
	"sort"
	"strconv"
	"strings"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
	"conductor/store"
)

// start begins the game from the lobby: everyone then chooses tickets.
func (s *Service) start(c *call) (response, error) { return s.startAt(c.req, c.t, "") }

// startAt starts the lobby of a locked table.
func (s *Service) startAt(req *Request, t *table, game string) (response, error) {
	rec := t.rec
	switch {
	case rec == nil:
		return reply(s.noGameHere(req, "lobby.none"))
	case game != "" && game != rec.ID:
		return reply(note(present.T(req.Locale, "stale.game")))
	case rec.Status != store.StatusLobby:
		return reply(note(present.T(req.Locale, "lobby.started")))
	case len(rec.Seats) < 2:
		return reply(note(present.T(req.Locale, "lobby.too_few")))
	}
	hostSeated := seatOf(rec, rec.Host) >= 0
	if req.User != rec.Host && !req.CanManage && (hostSeated || seatOf(rec, req.User) < 0) {
		return reply(note(present.T(req.Locale, "lobby.host_only")))
	}
	rec.Rules = engine.LatestRevision
	g, err := t.newGame(rec)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	rec.Status = store.StatusPlaying
	rec.Log = nil
	if err := s.cfg.Store.Put(rec); err != nil {
		rec.Status = store.StatusLobby
		return reply(oops(req, err.Error()))
	}
	t.game, t.told = g, narration{}
	t.bots.setup(t)
	m := t.boardText()
	m.Content = present.T(t.locale(), "game.started", "board", present.EditionName(t.locale(), g.Board(), t.rec.Variant)) + "\n" + m.Content
	// The lobby closes (its buttons go) and the game is posted as the
	// table's first board, through the outbox like every board: the board
	// after it takes its buttons off.
	lobby := lobbyMessage(s.cfg.Catalog, rec, t.locale())
	lobby.Components = nil
	entries := append([]store.OutboxEntry{pictureEntry(postBoard, m, boardPicture(t.scene(t.locale()), t.boardAlt(t.locale())))}, t.turnPings()...)
	if err := s.cfg.Store.Enqueue(t.rec.Channel, entries...); err != nil {
		s.log.Error("queue the first board", "channel", t.rec.Channel, "err", err)
	}
	s.out.kick(t.rec.Channel)
	s.out.kickQueues(entries)
	t.bots.schedule(t)
	return replyOrUpdate(lobby, game != "")
}

// finish archives a game that ended with a move; its final reveal was
// queued with that move.
func (t *table) finish() {
	if _, err := t.store.Archive(t.rec.Channel, t.archiveResult(t.game.Final(), false)); err != nil {
		t.log.Error("archive", "channel", t.rec.Channel, "err", err)
	} else {
		t.foldRatings(t.rec.Guild)
	}
	t.rec, t.game = nil, nil
}

// finishWith reveals a score the table asked for (the game as it stood
// when the host ended it: ended early) and archives the game.
func (t *table) finishWith(fs *engine.FinalScore) {
	ch := t.rec.Channel
	if err := t.store.Enqueue(ch, t.finalEntries(fs, true)...); err != nil {
		t.log.Error("queue the final reveal", "channel", ch, "err", err)
	}
	if _, err := t.store.Archive(ch, t.archiveResult(fs, true)); err != nil {
		t.log.Error("archive", "channel", ch, "err", err)
	} else {
		t.foldRatings(t.rec.Guild) // an early end rates nothing, but leaves nothing pending either
	}
	t.rec, t.game = nil, nil
	t.out.kick(ch)
}

// finalMessages reveal a final score in stages: the last narration, each
// player's sheet, then the winner (or the winners of a shared victory)
// with a Replay button (and the sheet's picture: finalEntries). early: the game was ended before
// its end and scored as it stood, which the reveal says.
func (t *table) finalMessages(fs *engine.FinalScore, early bool, changes []present.RatingChange) []Message {
	g, rec := t.game, t.rec
	loc := t.locale()
	b := g.Board()
	var msgs []Message
	intro := strings.Join(t.told.turn, "\n")
	t.told.turn = t.told.turn[:0]
	title := "🏁 " + present.T(loc, "final.title")
	if early {
		title += "\n" + present.T(loc, "final.ended_early")
	}
	msgs = append(msgs, Message{Content: strings.TrimSpace(intro + "\n" + title)})
	for i, ps := range fs.Players {
		msgs = append(msgs, Message{Embeds: []Embed{finalEmbed(loc, b, rec, i, &ps)}})
	}
	// The winner and the score sheet.
	ranking := present.Ranking(loc, fs, seatNames(rec))
	victory := present.Victory(loc, fs, func(seat int) string { return mention(loc, rec.Seats[seat]) })
	ranking = append(ranking, present.TieBreakLines(loc, b, fs, seatNames(rec))...)
	last := Message{Content: victory + "\n" + strings.Join(ranking, "\n")}
	if hints := hintSummary(loc, rec); hints != "" {
		last.Content += "\n" + hints
	}
	// The members' rating changes (finalEntries).
	if line := present.FinalRatings(loc, present.EditionName(loc, b, ""), changes, func(seat int) string {
		if id := rec.Seats[seat].UserID; id != "" && !strings.HasPrefix(id, "local:") {
			return userMention(id) // a seat left to a bot too: the change is the member's
		}
		return mention(loc, rec.Seats[seat])
	}); line != "" {
		last.Content += "\n" + line
	}
	last.Content += t.replayLine(loc)
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
func (t *table) finalEntries(fs *engine.FinalScore, early bool) []store.OutboxEntry {
	// The members' rating changes, as the archive will fold the game: said
	// in the last message and drawn as a column of its picture.
	changes := t.ratingChanges(t.archiveResult(fs, early))
	msgs := t.finalMessages(fs, early, changes)
	entries := make([]store.OutboxEntry, len(msgs))
	for i, m := range msgs {
		switch {
		case i == 0:
			entries[i] = outboxEntry(postFinal, m) // takes the buttons off the last board
		case i == len(msgs)-1:
			entries[i] = pictureEntry(postMessage, m, sheetPicture(t.finalScene(fs, early, changes), t.finalAlt(fs)))
		default:
			entries[i] = outboxEntry(postMessage, m)
		}
	}
	return append(entries, closingEntries(t.rec, t.parentResult(fs, early))...)
}

// parentResult is the result a game played in a thread leaves in its
// parent channel, with a link to the thread and a Rematch button: the
// winner or the winners of a shared victory, the ranking as the sheet
// has it, and whether the game was ended early.
func (t *table) parentResult(fs *engine.FinalScore, early bool) Message {
	loc, rec := t.locale(), t.rec
	board, thread := present.EditionName(loc, t.game.Board(), rec.Variant), "<#"+rec.Channel+">"
	winners := present.Winners(fs)
	points := fs.Players[winners[0]].Total
	var text string
	if len(winners) > 1 {
		names := make([]string, len(winners))
		for i, w := range winners {
			names[i] = mention(loc, rec.Seats[w])
		}
		text = present.T(loc, "final.parent_shared", "board", board, "thread", thread, "players", present.JoinList(loc, names), "points", points)
	} else {
		text = present.T(loc, "final.parent", "board", board, "thread", thread, "player", mention(loc, rec.Seats[winners[0]]), "points", points)
	}
	if early {
		text += "\n" + present.T(loc, "final.ended_early")
	}
	ranking := present.Ranking(loc, fs, seatNames(rec))
	return Message{Content: text + "\n" + strings.Join(ranking, "\n"), Components: []Row{{rematchButton(loc, rec)}}}
}

// finalEmbed is one player's score breakdown.
func finalEmbed(loc string, b *data.Board, rec *store.GameRecord, seat int, ps *engine.PlayerScore) Embed {
	title, lines := present.PlayerSheet(loc, b, seat, seatName(rec, seat), ps)
	return Embed{Title: title, Description: truncate(strings.Join(lines, "\n"), 4000)}
}

// finalScene is the final score sheet's picture: the public board and
// the score, every ticket revealed as the sheet reveals them, and the
// members' rating changes.
func (t *table) finalScene(fs *engine.FinalScore, early bool, changes []present.RatingChange) *imaging.FinalScene {
	v := t.game.Public()
	sc := present.FinalScene(t.locale(), &v, fs, seatPlayers(t.rec), early)
	present.RateFinalScene(t.locale(), sc, changes)
	return sc
}

// finalAlt is the final score sheet's alt text.
func (t *table) finalAlt(fs *engine.FinalScore) string {
	v := t.game.Public()
	return present.FinalAlt(t.locale(), &v, fs, seatPlayers(t.rec))
}

// archiveResult is the game's final score sheet as the archive keeps it,
// for /ttr stats: the same count the table was shown, places shared as
// the sheet shares them, seats taken over by bots said so (with the
// routes their member claimed), and whether it was ended early.
func (t *table) archiveResult(fs *engine.FinalScore, early bool) store.ArchiveResult {
	g, rec := t.game, t.rec
	res := store.ArchiveResult{Finished: t.now(), Early: early}
	b := g.Board()
	owners := g.Public().Owners
	for i, ps := range fs.Players {
		st := rec.Seats[i]
		place := present.Place(fs, i)
		pr := store.PlayerResult{UserID: st.UserID, Name: present.BotBaseName(st.Name, st.Bot), Bot: st.Bot, TakenOver: st.TakenOver(), Score: ps.Total,
			Rank: place, Won: place == 1, TicketsCompleted: ps.CompletedTickets, TicketsFailed: len(ps.Tickets) - ps.CompletedTickets}
		pr.Hints, _ = strconv.Atoi(rec.Options[hintKey(i)])
		if st.TakenOver() {
			pr.Routes = claimedBy(rec, b, owners, i, st.LeftAt)
		} else {
			for tr, o := range owners {
				if int(o) == i {
					pr.Routes = append(pr.Routes, b.TrackName(data.TrackID(tr)))
				}
			}
		}
		sort.Strings(pr.Routes)
		res.Players = append(res.Players, pr)
	}
	return res
}

// claimedBy names the routes seat claimed in the first moves of the log,
// before a bot took the seat over: the member's own. A tunnel given up
// was not claimed.
func claimedBy(rec *store.GameRecord, b *data.Board, owners []int8, seat, moves int) []string {
	var claimed []data.TrackID
	for _, e := range rec.Log[:min(moves, len(rec.Log))] {
		if e.Seat != seat {
			continue
		}
		a, err := engine.ParseAction(b, e.Action)
		switch {
		case err != nil:
		case a.Kind == engine.ActClaim:
			claimed = append(claimed, a.Track)
		case a.Kind == engine.ActTunnelCancel && len(claimed) > 0:
			claimed = claimed[:len(claimed)-1]
		}
	}
	var out []string
	for _, tr := range claimed {
		if int(tr) < len(owners) && int(owners[tr]) == seat {
			out = append(out, b.TrackName(tr))
		}
	}
	return out
}

// end: /ttr end (host or a member with Manage Channel). A lobby closes at
// once; a running game asks first: score it as it stands and archive it,
// stop it without a score, or go on.
func (s *Service) end(c *call) (response, error) {
	req, t := c.req, c.t
	if t.rec == nil {
		return reply(s.noGameHere(req, "game.none"))
	}
	if req.User != t.rec.Host && !req.CanManage {
		return reply(note(present.T(req.Locale, "end.not_allowed")))
	}
	if t.rec.Status == store.StatusLobby || t.game == nil {
		return s.stop(req, t, false)
	}
	turn := len(t.rec.Log)
	return reply(Message{Ephemeral: true, Content: present.T(req.Locale, "end.ask"), Components: []Row{{
		{Kind: Button, ID: cid("end", t.rec.ID, turn, "score"), Label: present.T(req.Locale, "button.end_score"), Style: Primary, Emoji: "🏁"},
		{Kind: Button, ID: cid("end", t.rec.ID, turn, "stop"), Label: present.T(req.Locale, "button.end_stop"), Style: Danger},
		{Kind: Button, ID: cid("end", t.rec.ID, turn, "cancel"), Label: present.T(req.Locale, "button.cancel"), Style: Secondary},
	}}})
}

// endButton answers /ttr end's question.
func (s *Service) endButton(c *call) (response, error) {
	req, t, id := c.req, c.t, *c.id
	switch {
	case t.rec == nil || t.game == nil || t.rec.ID != id.game:
		return update(note(present.T(req.Locale, "stale.game")))
	case req.User != t.rec.Host && !req.CanManage:
		return reply(note(present.T(req.Locale, "end.not_allowed")))
	case id.arg == "cancel":
		return update(note(present.T(req.Locale, "end.cancelled")))
	case id.turn != len(t.rec.Log):
		// Moves were played since the question: ask again.
		return update(note(present.T(req.Locale, "stale.turn")))
	case id.arg == "stop":
		return s.stop(req, t, true)
	case id.arg == "score":
		t.bots.disarm(t)
		fs := t.game.ScoreNow()
		t.told.turn = append(t.told.turn, present.T(t.locale(), "end.scored", "player", present.EscapeMarkdown(req.UserName)))
		t.finishWith(&fs)
		return update(note(present.T(req.Locale, "end.scoring")))
	}
	return reply(note(present.T(req.Locale, "stale.unknown")))
}

// stop throws a lobby away, or archives a running game without a score.
func (s *Service) stop(req *Request, t *table, click bool) (response, error) {
	t.bots.disarm(t)
	loc := t.locale()
	if t.rec.Status == store.StatusLobby || t.game == nil {
		if err := s.cfg.Store.Delete(req.Channel); err != nil {
			return reply(oops(req, err.Error()))
		}
	} else {
		res := store.ArchiveResult{Status: store.StatusAbandoned, Finished: s.cfg.Now()}
		for i, st := range t.rec.Seats {
			res.Players = append(res.Players, store.PlayerResult{UserID: st.UserID, Name: st.Name, Bot: st.Bot, Score: t.game.Public().Players[i].Score})
		}
		if _, err := s.cfg.Store.Archive(req.Channel, res); err != nil {
			return reply(oops(req, err.Error()))
		}
	}
	inThread := t.rec.Options[optParent] != ""
	t.rec, t.game = nil, nil
	done := Message{Content: present.T(loc, "end.done", "player", present.EscapeMarkdown(req.UserName))}
	if inThread {
		// The thread is archived once the table was told, in order.
		if err := s.cfg.Store.Enqueue(req.Channel, outboxEntry(postMessage, done), archiveEntry()); err != nil {
			s.log.Warn("queue the end", "channel", req.Channel, "err", err)
		}
		s.out.kick(req.Channel)
		return replyOrUpdate(note(present.T(req.Locale, "end.stopped")), click)
	}
	if click {
		if err := s.enqueue(req.Channel, done); err != nil {
			s.log.Warn("queue the end", "channel", req.Channel, "err", err)
		}
		s.out.kick(req.Channel)
		return update(note(present.T(req.Locale, "end.stopped")))
	}
	return reply(done)
}
