package bot_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// table is a game played by people through the fake Discord client: they
// see only what Discord shows them (public posts, their own ephemeral
// replies) and act with slash commands, buttons and menus.
type table struct {
	e *env
	// ch is the game's channel (its thread); parent, where /ttr new was
	// typed and the lobby is.
	ch, parent fakediscord.Channel
	players    []fakediscord.User
	host       fakediscord.User
	// Ticket labels each player was offered; the kept ones are private
	// until the final scoring, the others forever.
	kept, returned map[string]bool
	// interactions counts what the players did.
	interactions int
	stats        turnStats
	// bots: some seats are bots, whose turns come by themselves.
	bots bool
}

// turnStats counts the kinds of turns played.
type turnStats struct {
	Claims, Tunnels, Draws, TicketDraws, Refused, BotTurns, PaymentChoices int
	// Recovered counts private prompts dismissed and brought back.
	Recovered int
}

// newTable opens a lobby with /ttr new, lets the others join with the
// lobby's Join button and starts with its Start button.
func newTable(e *env, channel string, mapID, variant string, names ...string) *table {
	e.t.Helper()
	return newTableIn(e, e.channel(channel), mapID, variant, names...)
}

// newTableIn opens the table in an existing channel.
func newTableIn(e *env, parent fakediscord.Channel, mapID, variant string, names ...string) *table {
	e.t.Helper()
	tb := &table{e: e, parent: parent, kept: map[string]bool{}, returned: map[string]bool{}}
	for _, n := range names {
		tb.players = append(tb.players, e.user(n))
	}
	tb.host = tb.players[0]
	opts := []fakediscord.CommandOption{fakediscord.StringOption("map", mapID)}
	if variant != "" {
		opts = append(opts, fakediscord.StringOption("variant", variant))
	}
	lobby, ch := e.newGame(tb.host.ID, tb.parent.ID, opts...)
	tb.ch = ch
	tb.do(lobby)
	if lobby.msg.Ephemeral() || button(lobby.msg, "lobby:", ":join") == "" {
		e.t.Fatalf("/ttr new: %q", lobby.msg.Body())
	}
	for _, p := range tb.players[1:] {
		m, _ := e.srv.Message(lobby.msg.ID)
		a := tb.do(e.click(p.ID, m.ID, button(m, "lobby:", ":join")))
		if a.cb.Type != fakediscord.CallbackUpdateMessage {
			e.t.Fatalf("join answered with type %d: %q", a.cb.Type, a.msg.Body())
		}
	}
	m, _ := e.srv.Message(lobby.msg.ID)
	tb.do(e.click(tb.host.ID, m.ID, button(m, "lobby:", ":start")))
	if _, ok := tb.board(); !ok {
		e.t.Fatal("no board after the start")
	}
	return tb
}

func (tb *table) do(a answer) answer {
	tb.interactions++
	return a
}

// board is the latest public board post.
func (tb *table) board() (fakediscord.Message, bool) {
	return tb.e.latest(tb.ch.ID, isBoard)
}

func (tb *table) user(id string) (fakediscord.User, bool) {
	for _, p := range tb.players {
		if p.ID == id {
			return p, true
		}
	}
	return fakediscord.User{}, false
}

// over reports whether the final score sheet was posted.
func (tb *table) over() bool {
	_, ok := tb.e.latest(tb.ch.ID, func(m fakediscord.Message) bool {
		_, ok := m.Attachment("final.png")
		return ok && m.Public()
	})
	return ok
}

// setup lets every player choose their first tickets from the start
// board's button: Märklin asks first how many long tickets to draw.
func (tb *table) setup() {
	e := tb.e
	e.t.Helper()
	b, _ := tb.board()
	setupID := button(b, "setup:", "")
	if setupID == "" {
		e.t.Fatalf("the start board has no ticket button: %q", b.Body())
	}
	for i, p := range tb.players {
		a := tb.do(e.click(p.ID, b.ID, setupID))
		if !a.msg.Ephemeral() {
			e.t.Fatalf("the ticket choice of %s is not ephemeral", p.Username)
		}
		if i == len(tb.players)-1 {
			// The last player dismisses the prompt (the client never answers
			// it) and gets it back from /hand, controls included.
			a = tb.do(e.run(p.ID, tb.ch.ID, "hand"))
			if _, menu := selectMenu(a.msg); !menu && button(a.msg, "mix:", "") == "" {
				e.t.Fatalf("/hand does not bring back %s's dismissed ticket choice: %q", p.Username, a.msg.Body())
			}
			tb.stats.Recovered++
		}
		if mix := button(a.msg, "mix:", ""); mix != "" {
			a = tb.do(e.click(p.ID, a.msg.ID, mix))
		}
		tb.keepFewest(p, a)
	}
}

// keepFewest keeps the fewest tickets the menu allows (the first ones).
func (tb *table) keepFewest(p fakediscord.User, a answer) answer {
	e := tb.e
	e.t.Helper()
	menu, ok := selectMenu(a.msg)
	if !ok {
		e.t.Fatalf("%s expected a ticket menu, got %q", p.Username, a.msg.Body())
	}
	n := 1
	if menu.MinValues != nil {
		n = *menu.MinValues
	}
	var values []string
	for i, o := range menu.Options {
		if i < n {
			values = append(values, o.Value)
			tb.kept[o.Label] = true
		} else {
			tb.returned[o.Label] = true
		}
	}
	if n == 0 {
		return tb.do(e.click(p.ID, a.msg.ID, button(a.msg, "keep:", ":none")))
	}
	return tb.do(e.choose(p.ID, a.msg.ID, menu.CustomID, values...))
}

// playTurn plays the current player's turn with a simple policy: claim
// the first route autocomplete offers; when it offers none the player can
// claim now (its first line says so), draw two cards from the deck; pay a
// tunnel when possible. It returns false once the game is over.
func (tb *table) playTurn() bool {
	e := tb.e
	e.t.Helper()
	// A bot may have ended the game since: the final reveal takes the
	// last board's buttons.
	var b fakediscord.Message
	ok := false
	if err := e.srv.WaitFor("a board or the end", func() bool {
		b, ok = tb.board()
		return ok || tb.over()
	}); err != nil {
		e.t.Fatal("no board")
	}
	if !ok {
		return false
	}
	cur, ok := tb.user(lastMention(b.Body()))
	if !ok && tb.bots {
		// A bot's turn: it plays by itself and posts the next board.
		if err := e.srv.WaitFor("the bot's move", func() bool { return tb.turnMoved(b) }); err != nil {
			e.t.Fatal(err)
		}
		tb.stats.BotTurns++
		return !tb.over()
	}
	if !ok {
		e.t.Fatalf("the board names no player to play: %q", b.Body())
	}
	choices := e.complete(cur.ID, tb.ch.ID, "claim", fakediscord.Focused(fakediscord.StringOption("route", "")))
	tb.interactions++
	// A first line whose value starts with "?" says no route fits the
	// cards now: the player draws instead.
	route := ""
	if len(choices) > 0 {
		route, _ = choices[0].Value.(string)
	}
	if route != "" && !strings.HasPrefix(route, "?") {
		a := tb.do(e.run(cur.ID, tb.ch.ID, "claim", fakediscord.StringOption("route", route)))
		if !a.msg.Ephemeral() {
			e.t.Fatalf("the answer to /claim is public: %q", a.msg.Body())
		}
		if pay := button(a.msg, "pay:", ""); pay != "" && !strings.HasSuffix(pay, ":cancel") {
			// Several colours pay this grey route: the player chooses.
			tb.stats.PaymentChoices++
			a = tb.do(e.click(cur.ID, a.msg.ID, pay))
		}
		if tb.turnMoved(b) {
			tb.stats.Claims++
			return !tb.over()
		}
		if pay := button(a.msg, "tunnel:", ""); pay != "" {
			if p := button(a.msg, "tunnel:", "pay0"); p != "" {
				pay = p
			}
			tb.stats.Tunnels++
			tb.do(e.click(cur.ID, a.msg.ID, pay))
			if !tb.turnMoved(b) {
				e.t.Fatalf("the tunnel was answered but the turn did not move on")
			}
			return !tb.over()
		}
		if !strings.HasPrefix(a.msg.Body(), "⛔") {
			e.t.Fatalf("/claim %s neither played nor refused: %q", route, a.msg.Body())
		}
		tb.stats.Refused++
	}
	tb.draw(cur, b)
	if !tb.turnMoved(b) {
		e.t.Fatalf("%s drew but the turn did not move on", cur.Username)
	}
	return !tb.over()
}

// turnMoved: a new board was posted, or the game ended.
func (tb *table) turnMoved(before fakediscord.Message) bool {
	b, _ := tb.board()
	return b.ID != before.ID || tb.over()
}

// draw takes two cards (the deck first, else a face-up card), or tickets
// when no card is left.
func (tb *table) draw(p fakediscord.User, b fakediscord.Message) {
	e := tb.e
	id := button(b, "draw:", ":deck")
	if id == "" {
		id = button(b, "draw:", "")
	}
	if id == "" {
		tb.stats.TicketDraws++
		a := tb.do(e.click(p.ID, b.ID, button(b, "tickets:", "")))
		tb.keepFewest(p, a)
		return
	}
	tb.stats.Draws++
	a := tb.do(e.click(p.ID, b.ID, id))
	if !a.msg.Ephemeral() {
		e.t.Fatalf("the drawn card was shown publicly: %q", a.msg.Body())
	}
	second := button(a.msg, "draw:", ":deck")
	if second == "" {
		second = button(a.msg, "draw:", "")
	}
	if second != "" && !tb.turnMoved(b) {
		tb.do(e.click(p.ID, a.msg.ID, second))
	}
}

// audit checks what everyone could see of a finished game: the final
// score sheet came; no ticket label reached a public message before the
// final scoring (and returned tickets never); no hand picture was public;
// every attached picture decodes; every request was valid.
func (tb *table) audit() {
	e := tb.e
	t := e.t
	t.Helper()
	final, ok := e.latest(tb.ch.ID, func(m fakediscord.Message) bool {
		_, ok := m.Attachment("final.png")
		return ok && m.Public() && strings.Contains(m.Body(), "🎉")
	})
	if !ok {
		t.Fatal("no final score sheet")
	}
	if len(tb.kept) == 0 {
		t.Fatal("no ticket was seen: the audit would prove nothing")
	}
	finalStart := ""
	for _, m := range e.srv.Messages(tb.ch.ID) {
		if m.Public() && strings.Contains(m.Body(), "🏁") {
			finalStart = m.ID
			break
		}
	}
	if finalStart == "" {
		t.Fatal("the final scoring has no opening message")
	}
	pics := map[string]fakediscord.Attachment{} // by id: each picture once
	scoring := false
	for _, m := range e.srv.PublicHistory() {
		if m.ChannelID != tb.ch.ID {
			continue
		}
		scoring = scoring || m.ID == finalStart
		for _, f := range m.Text() {
			for label := range tb.kept {
				if !scoring && strings.Contains(f.Text, label) {
					t.Errorf("kept ticket %q is public before the final scoring: message %s at %s", label, m.ID, f.Where)
				}
			}
			for label := range tb.returned {
				if !tb.kept[label] && strings.Contains(f.Text, label) {
					t.Errorf("returned ticket %q is public: message %s at %s", label, m.ID, f.Where)
				}
			}
		}
		for _, a := range m.Attachments {
			if a.Filename == "hand.png" {
				t.Errorf("a hand picture is public: message %s", m.ID)
			}
			pics[a.ID] = a
		}
	}
	// Ephemeral messages and DMs.
	channels := []string{tb.ch.ID}
	for _, p := range tb.players {
		if dm, ok := e.srv.DMChannel(p.ID); ok {
			channels = append(channels, dm.ID)
		}
	}
	for _, ch := range channels {
		for _, m := range e.srv.Messages(ch) {
			for _, a := range m.Attachments {
				pics[a.ID] = a
			}
		}
	}
	for _, err := range decodeAll(pics) {
		t.Error(err)
	}
	if len(pics) < tb.interactions/10 {
		t.Errorf("only %d pictures for %d interactions", len(pics), tb.interactions)
	}
	if _, ok := pics[final.Attachments[0].ID]; !ok {
		t.Error("the final score sheet was not among the pictures checked")
	}
	e.srv.CheckClean(t)
}

// decodeAll decodes every picture, on every core.
func decodeAll(pics map[string]fakediscord.Attachment) []error {
	work := make(chan fakediscord.Attachment)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for a := range work {
				if _, err := a.Image(); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s (attachment %s): %w", a.Filename, a.ID, err))
					mu.Unlock()
				}
			}
		}()
	}
	for _, a := range pics {
		work <- a
	}
	close(work)
	wg.Wait()
	return errs
}

// showHands asks every player for their hand (ephemeral) and checks that
// it shows the tickets they kept, with a hand picture.
func (tb *table) showHands() {
	e := tb.e
	e.t.Helper()
	for _, p := range tb.players {
		a := tb.do(e.run(p.ID, tb.ch.ID, "hand"))
		if !a.msg.Ephemeral() || a.msg.VisibleTo != p.ID {
			e.t.Fatalf("/hand of %s is not ephemeral to them", p.Username)
		}
		if _, ok := a.msg.Attachment("hand.png"); !ok {
			e.t.Fatalf("/hand of %s has no picture", p.Username)
		}
		seen := 0
		for label := range tb.kept {
			if a.msg.Contains(label) {
				seen++
			}
		}
		if seen == 0 {
			e.t.Fatalf("/hand of %s shows none of the kept tickets", p.Username)
		}
	}
}

// restart restarts the bot (a new process on the same database) and
// checks that the public counts and every hand are as they were.
func (tb *table) restart() {
	e := tb.e
	e.t.Helper()
	before := tb.snapshot()
	e.restart()
	if after := tb.snapshot(); after != before {
		e.t.Fatalf("the restart changed the game:\nbefore %s\nafter  %s", before, after)
	}
}

// snapshot is what /score and every /hand show, as text.
func (tb *table) snapshot() string {
	e := tb.e
	var sb strings.Builder
	show := func(m fakediscord.Message) {
		sb.WriteString(m.Body())
		for _, em := range m.Embeds {
			sb.WriteString("|" + em.Title + "|" + em.Description)
			for _, f := range em.Fields {
				sb.WriteString("|" + f.Name + "=" + f.Value)
			}
			if em.Footer != nil {
				sb.WriteString("|" + em.Footer.Text)
			}
		}
		sb.WriteString("\n")
	}
	show(tb.do(e.run(tb.host.ID, tb.ch.ID, "score")).msg)
	show(tb.do(e.run(tb.host.ID, tb.ch.ID, "log")).msg)
	for _, p := range tb.players {
		show(tb.do(e.run(p.ID, tb.ch.ID, "hand")).msg)
	}
	return sb.String()
}

// liveBoards counts the channel's boards that still have buttons.
func (tb *table) liveBoards() int {
	n := 0
	for _, m := range tb.e.srv.Messages(tb.ch.ID) {
		if isBoard(m) {
			n++
		}
	}
	return n
}

// playToTheEnd plays turns until the final scoring and audits the game.
func (tb *table) playToTheEnd() {
	t := tb.e.t
	t.Helper()
	turns := 0
	for tb.playTurn() {
		if turns++; turns > 600 {
			t.Fatal("the game does not end")
		}
		// One live set of controls: a new board takes the buttons off the
		// one before (a bot's board may still be on its way).
		if err := tb.e.srv.WaitFor("one live board", func() bool { return tb.liveBoards() == 1 || tb.over() }); err != nil {
			t.Fatalf("after turn %d: %d boards with buttons", turns, tb.liveBoards())
		}
	}
	if n := tb.liveBoards(); n != 0 {
		t.Errorf("the game is over and %d boards still have buttons", n)
	}
	start := time.Now()
	tb.audit()
	t.Logf("audit took %v", time.Since(start))
	t.Logf("%d turns, %d interactions, %+v", turns, tb.interactions, tb.stats)
}

// TestWholeGames plays a game of each edition from /ttr new to the final
// scoring, the three at once in three channels of one server, every move
// made by people clicking and typing; and a fourth game of a person
// against a bot, whose moves are posted outside any interaction.
func TestWholeGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{bots: true})
	for _, c := range []struct{ mapID, variant string }{{"usa", ""}, {"europe", "classic"}, {"marklin", ""}} {
		t.Run(c.mapID, func(t *testing.T) {
			t.Parallel()
			tb := newTable(e.as(t), c.mapID, c.mapID, c.variant, c.mapID+"-alice", c.mapID+"-bob")
			tb.setup()
			tb.showHands()
			tb.playToTheEnd()
			if c.mapID == "europe" && tb.stats.Tunnels == 0 {
				t.Log("no tunnel was claimed in this game")
			}
		})
	}
	t.Run("usa-against-a-bot", func(t *testing.T) {
		t.Parallel()
		tb := withBot(t, e.as(t), "bot-table")
		tb.playToTheEnd()
		// Every turn ends with a board; those alice did not play are the
		// bot's (its boards may follow hers before she looks).
		boards := 0
		for _, m := range e.srv.Messages(tb.ch.ID) {
			if isBoardPost(m) {
				boards++
			}
		}
		human := tb.stats.Claims + tb.stats.Draws + tb.stats.TicketDraws
		if bot := boards - 1 - human; bot < 10 {
			t.Errorf("only %d bot turns (%d boards, %d of alice's turns)", bot, boards, human)
		}
	})
}

// TestWholeGameOnPostgres plays a game from /ttr new to the final scoring
// through the fake Discord with its games in PostgreSQL, the bot
// restarted twice on the database mid-game, and a person against a bot
// beside it (CONDUCTOR_REQUIRE_POSTGRES=1, as in CI, makes a machine
// without PostgreSQL a failure rather than a skip).
func TestWholeGameOnPostgres(t *testing.T) {
	e := newEnv(t, envOptions{bots: true, postgres: true})
	if !strings.HasPrefix(e.dbPath, "postgres") {
		t.Fatalf("the env's database is %s", e.dbPath)
	}
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	for turns := 1; tb.playTurn(); turns++ {
		if turns == 5 || turns == 25 {
			tb.restart()
		}
		if turns > 600 {
			t.Fatal("the game does not end")
		}
	}
	tb.audit()
	vs := withBot(t, e, "bot-table")
	vs.playToTheEnd()
}

// TestRestartMidGame stops the bot twice during a game and starts a new
// one on the same database: scores, hands and the move log are as they
// were, the buttons of the board posted before the restart still work,
// and the game goes on to its end.
func TestRestartMidGame(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "europe", "classic", "alice", "bob")
	tb.setup()
	for turns := 1; tb.playTurn(); turns++ {
		if turns == 5 || turns == 25 {
			tb.restart()
		}
		if turns > 600 {
			t.Fatal("the game does not end")
		}
	}
	tb.audit()
}
