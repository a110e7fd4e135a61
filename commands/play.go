package commands

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
	"conductor/store"
)

// outcome is what one applied action did to the flow of the game.
type outcome struct {
	events   []engine.Event
	turnDone bool // the turn passed to another seat (or setup ended)
	over     bool
}

// apply plays an action, narrates it and commits it to the store together
// with what the table must see because of it (the board after a finished
// turn, the final reveal after the last move), so that no move is ever
// committed without its announcement. On any error the game is as it was.
func (t *table) apply(seat int, a engine.Action, req *Request) (outcome, error) {
	g := t.game
	turn, phase := g.Turn(), g.Phase()
	ev, err := g.Apply(seat, a)
	if err != nil {
		return outcome{}, err
	}
	o := outcome{events: ev, over: g.Phase() == engine.PhaseOver}
	o.turnDone = o.over || g.Turn() != turn || (phase == engine.PhaseSetup && g.Phase() != engine.PhaseSetup)
	t.told.tell(t.rec, g, ev, o.turnDone || phase == engine.PhaseSetup)
	var posts []store.OutboxEntry
	switch {
	case o.over:
		posts = t.finalEntries(g.Final(), false)
	case o.turnDone && boardDue(t.rec, g, seat):
		// The picture is drawn by the sender, after the lock: the player's
		// answer does not wait for it.
		posts = append(posts, t.moveBoard(len(t.rec.Log)+1, req))
		posts = append(posts, t.turnPings()...)
	}
	// Times are kept to the millisecond: a log entry's time then takes a
	// few bytes (store/logcodec.go).
	entry := store.LogEntry{Seat: seat, Action: engine.FormatAction(g.Board(), a), At: t.now().UTC().Truncate(time.Millisecond)}
	if req != nil {
		entry.Interaction = req.ID
	}
	// The deadline after the move, and now and then a snapshot of the
	// game, are committed with it.
	n := len(t.rec.Log) + 1
	t.rec.Log = append(t.rec.Log, entry)
	due := t.dueFor()
	var snap *store.Snapshot
	if t.snapshotDue(n) {
		snap = t.tableSnapshot(n)
	}
	commit := store.MoveCommit{Entry: entry, Posts: posts, SetDue: true, Due: due, Snapshot: snap, Fence: fenceOf(t.fleet, t.rec.Guild)}
	if _, err := t.store.Commit(t.rec.Channel, commit); err != nil {
		t.rec.Log = t.rec.Log[:n-1]
		// The store is the truth: forget the move by reloading.
		if lerr := t.load(); lerr != nil {
			t.log.Error("reload after a failed commit", "channel", t.rec.Channel, "err", lerr)
		}
		return outcome{}, err
	}
	t.rec.Due = due
	if snap != nil {
		t.snapMoves = n
	}
	if due != nil {
		t.alarm.due(due.At)
	}
	t.out.kickQueues(posts)
	return o, nil
}

// moveBoard is the outbox entry of the board after a move: its picture's scene, drawn at
// delivery; its narration, kept apart for merging; a person's move names its request's via
// (via.go). Moves and Locale name the position too, for a release that draws from it.
func (t *table) moveBoard(moves int, req *Request) store.OutboxEntry {
	var narration strings.Builder
	for _, l := range t.told.turn {
		narration.WriteString(l)
		narration.WriteByte('\n')
	}
	told := narration.String()
	p := outboxPayload{Message: t.boardText(), Picture: boardPicture(t.scene(t.locale()), t.boardAlt(t.locale())), Board: &boardAt{Moves: moves, Locale: t.locale()},
		Quiet: !pictureDue(t.rec, t.game)}
	if strings.HasPrefix(p.Content, told) { // not cut short by boardText
		p.Board.Narration = &told
	}
	t.viaFields(&p, req)
	payload, _ := json.Marshal(p) // a payload always marshals
	return entryOf(postBoard, payload)
}

// boardDue says whether a finished turn gets its board. Consecutive bot
// turns are narrated together under one board, posted when a person is to
// play next; a table of bots alone gets a board every turn.
func boardDue(rec *store.GameRecord, g *engine.Game, mover int) bool {
	if g.Phase() != engine.PhaseTurn || !isBot(rec, mover) || !isBot(rec, g.Current()) {
		return true
	}
	for i := range rec.Seats {
		if !isBot(rec, i) {
			return false
		}
	}
	return true
}

// pictureDue says whether the board about to be posted shows its picture:
// once a round, when the turns it follows began one (the table's turns in
// order once); the boards between are words, the status line among them,
// so that the thread is not a stream of pictures and the latest picture
// is at most a round of messages away (two when a round changed nothing on
// the map, see mapChanged). It is decided from the
// game alone, as the boards before were: the previous board was posted
// after the latest turn whose player or next player is a person
// (boardDue).
func pictureDue(rec *store.GameRecord, g *engine.Game) bool {
	if g.Phase() == engine.PhaseSetup {
		return true
	}
	seats, turn, cur := len(rec.Seats), g.Turn(), g.Current()
	seat := func(i int) int { return ((i % seats) + seats) % seats }
	back := 1 // turns since the previous board; a table of bots alone has one a turn
	people := slices.ContainsFunc(rec.Seats, func(st store.Seat) bool { return st.Bot == "" })
	for ; back < seats && people; back++ {
		if !isBot(rec, seat(cur-back-1)) || !isBot(rec, seat(cur-back)) {
			break
		}
	}
	round := func(t int) int {
		if t < 0 {
			return -1
		}
		return t / seats
	}
	return round(turn) != round(turn-back) && mapChanged(g.Log(), seats+back-1)
}

// mapChanged says whether a move of the last turns (a turn is a run of one
// seat's moves) changed the map: a claim, a station, a passenger. A round
// of draws alone leaves the last picture showing the map as it is, so its
// board goes without one (and the first turn's, after the start's picture).
func mapChanged(log []engine.Move, turns int) bool {
	for i := len(log) - 1; i >= 0 && turns > 0; i-- {
		switch log[i].Action.Kind {
		case engine.ActDraw, engine.ActDrawTickets, engine.ActKeep:
		default:
			return true
		}
		if i == 0 || log[i-1].Seat != log[i].Seat {
			turns--
		}
	}
	return false
}

// after follows an applied action: a finished game is archived, the
// queued posts are sent (outside the table's lock, by the channel's
// sender), and bots are scheduled.
func (t *table) after(o outcome) {
	if t.rec == nil {
		return
	}
	ch := t.rec.Channel
	if o.over {
		t.finish()
		t.out.kick(ch)
		return
	}
	t.out.kick(ch)
	t.bots.schedule(t)
}

// seatName is a seat's name as the table's texts show it: a person's name
// as typed, a bot named as a bot in the table's language ("🤖 Vera
// (difficile)", "🤖 bot normal pour bob" for a seat a bot took over).
// present escapes it in the texts it builds; a name put into a message
// here goes through present.EscapeMarkdown.
func seatName(rec *store.GameRecord, seat int) string {
	if seat < 0 || seat >= len(rec.Seats) {
		return "?"
	}
	return present.PlayerLabel(rec.Options[optLocale], seatPlayer(rec, seat))
}

// seatPlayer is a seat as the presentation shows it.
func seatPlayer(rec *store.GameRecord, seat int) present.Player {
	st := rec.Seats[seat]
	p := present.Player{Name: st.Name, Bot: st.Bot != "", Level: st.Bot}
	if st.TakenOver() {
		p.For = st.Name
	}
	return p
}

// scene builds the public board picture of a game: from its public view
// alone, so that no picture shows a hand, a ticket held or the deck.
func (t *table) scene(loc string) *imaging.Scene {
	return boardScene(loc, t.rec, t.game, &t.told)
}

// boardScene is the public board picture of a game whose narration is told.
func boardScene(loc string, rec *store.GameRecord, g *engine.Game, told *narration) *imaging.Scene {
	v := g.Public()
	return present.BoardScene(loc, &v, seatPlayers(rec), told.last())
}

// boardAlt is the board picture's alt text, from the same public view.
func (t *table) boardAlt(loc string) string {
	return boardAlt(loc, t.rec, t.game, &t.told)
}

// boardAlt is the alt text of the public board picture of a game whose
// narration is told.
func boardAlt(loc string, rec *store.GameRecord, g *engine.Game, told *narration) string {
	v := g.Public()
	return present.BoardAlt(loc, &v, seatPlayers(rec), told.last())
}

// seatPlayers are a game's seats as the presentation shows them.
func seatPlayers(rec *store.GameRecord) []present.Player {
	out := make([]present.Player, len(rec.Seats))
	for i := range rec.Seats {
		out[i] = seatPlayer(rec, i)
	}
	return out
}

// seatNames are the names of a game's seats, in seat order.
func seatNames(rec *store.GameRecord) []string {
	out := make([]string, len(rec.Seats))
	for i := range rec.Seats {
		out[i] = seatName(rec, i)
	}
	return out
}

// boardText is the public message after a turn without its picture:
// narration, a mention of the next player and one-click buttons.
func (t *table) boardText() Message {
	loc := t.locale()
	g, rec := t.game, t.rec
	var sb strings.Builder
	for _, l := range t.told.turn {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	t.told.turn = t.told.turn[:0]
	m := Message{IsBoard: true}
	switch g.Phase() {
	case engine.PhaseSetup:
		sb.WriteString(present.T(loc, "setup.choose"))
		m.Components = []Row{{{Kind: Button, ID: cid("setup", rec.ID, 0, ""), Label: present.T(loc, "button.choose_tickets"), Style: Primary, Emoji: present.TicketEmoji}}}
		for _, st := range rec.Seats {
			if st.Bot == "" && st.UserID != "" {
				m.Mentions = append(m.Mentions, st.UserID)
			}
		}
	default:
		cur := g.Current()
		st := rec.Seats[cur]
		if last, n := g.LastRound(); last {
			sb.WriteString(present.T(loc, "turn.last_round", "turns", n))
			sb.WriteByte('\n')
		}
		if st.Bot != "" {
			// A bot is not spoken to: the table reads that it is playing.
			sb.WriteString(present.T(loc, "turn.bot", "player", mention(loc, st), "color", present.ColorDot(cur)))
		} else {
			sb.WriteString(present.T(loc, "turn.next", "player", mention(loc, st), "color", present.ColorDot(cur)))
		}
		if st.Bot == "" && st.UserID != "" {
			m.Mentions = []string{st.UserID}
		}
		m.Components = t.controls().boardButtons(loc)
		v := g.Public()
		m.Status, m.BotNext = present.StatusLine(loc, &v, seatPlayers(rec)), st.Bot != ""
	}
	m.Content = truncate(sb.String(), 1900)
	return m
}

// truncate keeps s within n characters: its end, as the latest lines and
// the mention matter most.
func truncate(s string, n int) string { return present.Tail(s, n) }

// post queues a public message for the table's channel and has it sent.
func (t *table) post(e store.OutboxEntry) {
	if err := t.store.Enqueue(t.rec.Channel, e); err != nil {
		t.log.Error("queue a post", "channel", t.rec.Channel, "err", err)
		return
	}
	t.out.kick(t.rec.Channel)
}
