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
	t.narrate(t.rec, g, ev)
	o := outcome{events: ev, over: g.Phase() == engine.PhaseOver}
	o.turnDone = o.over || g.Turn() != turn || (phase == engine.PhaseSetup && g.Phase() != engine.PhaseSetup)
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
	entry := store.LogEntry{Seat: seat, Action: engine.FormatAction(g.Board(), a), At: t.cfg.Now().UTC().Truncate(time.Millisecond)}
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
	commit := store.MoveCommit{Entry: entry, Posts: posts, SetDue: true, Due: due, Snapshot: snap}
	if _, err := t.cfg.Store.Commit(t.rec.Channel, commit); err != nil {
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
	if req != nil && o.turnDone {
		t.countMove()
	}
	return o, nil
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
	t.bots.scheduleBots(t)
}

// refusal turns an error from apply on table t into an ephemeral reply.
func (s *Service) refusal(req *Request, t *table, err error) Message {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return note("⛔ " + present.Refusal(req.Locale, ee, t.game.Board(), seatNamer(t.rec)))
	}
	if errors.Is(err, store.ErrDuplicate) {
		return note(present.T(req.Locale, "error.duplicate"))
	}
	s.log.Error("action failed", "channel", req.Channel, "err", err)
	return s.oops(req, err.Error())
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

// scene builds the public board picture of a game.
func (t *table) scene(loc string) *imaging.Scene {
	v := t.game.Public()
	last := ""
	if len(t.history) > 0 {
		last = t.history[len(t.history)-1]
	}
	return present.BoardScene(loc, &v, seatPlayers(t.rec), last)
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

// boardPNG renders the public board.
func (t *table) boardPNG(loc string) ([]byte, error) {
	var buf bytes.Buffer
	if err := t.cfg.Renderer.Board(&buf, t.scene(loc)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// boardText is the public message after a turn without its picture:
// narration, a mention of the next player and one-click buttons.
func (t *table) boardText() Message {
	loc := t.locale()
	g, rec := t.game, t.rec
	var sb strings.Builder
	for _, l := range t.turnLog {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	t.turnLog = t.turnLog[:0]
	m := Message{}
	switch g.Phase() {
	case engine.PhaseSetup:
		sb.WriteString(present.T(loc, "setup.choose"))
		m.Components = []Row{{{Kind: Button, ID: cid("setup", rec.ID, 0, ""), Label: present.T(loc, "button.choose_tickets"), Style: Primary, Emoji: "🎫"}}}
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
		m.Components = t.boardButtons(loc)
		v := g.Public()
		m.Status, m.BotNext = present.StatusLine(loc, &v, seatPlayers(rec)), st.Bot != ""
	}
	m.Content = truncate(sb.String(), 1900)
	return m
}

// boardMessage is boardText with the board's picture.
func (t *table) boardMessage() Message {
	m := t.boardText()
	if png, err := t.boardPNG(t.locale()); err == nil {
		m.Files = []File{{Name: "board.png", ContentType: "image/png", Data: png}}
	} else {
		t.log.Error("render board", "channel", t.rec.Channel, "err", err)
	}
	return m
}

// truncate keeps s within n characters: its end, as the latest lines and
// the mention matter most.
func truncate(s string, n int) string { return present.Tail(s, n) }

// boardButtons are the one-click actions under a board: the face-up cards,
// the deck, tickets and the player's hand.
func (t *table) boardButtons(loc string) []Row {
	g, rec := t.game, t.rec
	turn := g.Turn()
	v := g.Public()
	var cards Row
	for i, c := range g.FaceUp() {
		if c == engine.NoCard {
			cards = append(cards, Component{Kind: Button, ID: cid("draw", rec.ID, turn, fmt.Sprint(i+1)), Label: "—", Style: Secondary, Disabled: true})
			continue
		}
		cards = append(cards, Component{Kind: Button, ID: cid("draw", rec.ID, turn, faceUpArg(i, c)), Label: present.CardName(loc, c), Emoji: present.CardEmoji(c), Style: Secondary})
	}
	actions := Row{
		{Kind: Button, ID: cid("draw", rec.ID, turn, "deck"), Label: present.T(loc, "button.deck", "n", present.DeckCount(&v)), Style: Primary, Emoji: "🎴", Disabled: v.Deck+v.Discards == 0},
		{Kind: Button, ID: cid("tickets", rec.ID, turn, ""), Label: present.T(loc, "button.tickets"), Style: Primary, Emoji: "🎫"},
		{Kind: Button, ID: cid("hand", rec.ID, 0, ""), Label: present.T(loc, "button.hand"), Style: Secondary, Emoji: "🃏"},
	}
	actions = append(actions, t.activityButtons(rec.ID, loc)...)
	return []Row{cards, actions}
}

// post queues a public message for the table's channel and has it sent.
func (t *table) post(kind postKind, m Message) {
	if err := t.cfg.Store.Enqueue(t.rec.Channel, outboxEntry(kind, m)); err != nil {
		t.log.Error("queue a post", "channel", t.rec.Channel, "err", err)
		return
	}
	t.out.kick(t.rec.Channel)
}

// locale is the language of a table's public messages.
func (t *table) locale() string {
	if t.rec != nil && t.rec.Options != nil {
		return t.rec.Options[optLocale]
	}
	return ""
}
