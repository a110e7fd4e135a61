package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"conductor/engine"
	"conductor/store"
)

// A new table has a day's turn timer unless it asks for none; tables stored
// before keep what they had.
func TestNewTablesHaveADayTurnTimer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	rec, err := w.store.Get("c1")
	if err != nil || rec.Options["turn_timer"] != "1440" {
		t.Fatalf("default turn timer: %v %v", rec.Options, err)
	}
	w.cmd("u1", "ttr", "end", nil)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	if rec, _ := w.store.Get("c1"); rec.Options["turn_timer"] != "" {
		t.Fatalf("turn_timer:0 turns it off: %v", rec.Options)
	}
	w.cmd("u1", "ttr", "end", nil)
	if a := w.cmd("u1", "ttr", "new", map[string]string{"turn_timer": "20000"}); !strings.Contains(a.msg.Content, "10080") {
		t.Fatalf("a timer over a week is refused with the range: %q", a.msg.Content)
	}
}

// A player who leaves a running game hands the seat to a bot, told
// publicly; the bot plays the turn and the game goes on.
func TestLeavingARunningGameHandsTheSeatToABot(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, map[string]string{"turn_timer": "0"})
	played, err := w.store.Get("c1")
	if err != nil {
		t.Fatal(err)
	}
	a := w.cmd("u1", "ttr", "leave", nil)
	if a.msg.Ephemeral || !strings.Contains(a.msg.Content, "left the game") || !strings.Contains(a.msg.Content, "bot") {
		t.Fatalf("leaving is told publicly: %+v", a.msg)
	}
	rec, _ := w.store.Get("c1")
	// (The bot may have played already: the seat was left after the
	// moves played before.)
	if !rec.Seats[0].TakenOver() || rec.Seats[0].UserID != "u1" || rec.Seats[0].LeftAt != len(played.Log) {
		t.Fatalf("the seat is a bot's in the store, for the player who left: %+v", rec.Seats[0])
	}
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 1 }) }, "the bot plays the seat's turn")
	if a := w.cmd("u1", "draw", "", nil); !strings.Contains(a.msg.Content, "not playing") {
		t.Fatalf("the player who left no longer plays: %q", a.msg.Content)
	}
	// After a restart the seat is still a bot's.
	w.restart()
	w.click("u2", "draw:"+rec.ID+":1:deck")
	w.click("u2", "draw:"+rec.ID+":1:deck")
	waitFor(t, func() bool {
		w.svc.CheckTimers()
		return w.under("c1", func(g *engine.Game) bool { return g.Turn() >= 3 })
	}, "the bot plays on after a restart")
}

// The host removes any seat: in the lobby bots too (by seat number), in a
// running game a person's seat goes to a bot; others may not.
func TestHostRemovesSeats(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.bots(testBots, "easy", "normal")
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa", "turn_timer": "0"})
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	ac := w.do(&Request{Type: AutocompleteRequest, User: "u1", Name: "ttr", Sub: "kick", Focused: "seat", Options: map[string]string{"seat": ""}})
	if len(ac.choices) != 3 || !strings.Contains(ac.choices[2].Name, "easy") {
		t.Fatalf("kick autocompletes the seats, bots included: %+v", ac.choices)
	}
	if a := w.cmd("u2", "ttr", "kick", map[string]string{"seat": "3"}); !strings.Contains(a.msg.Content, "host") {
		t.Fatalf("only the host kicks: %q", a.msg.Content)
	}
	w.cmd("u1", "ttr", "kick", map[string]string{"seat": ac.choices[2].Value})
	if rec, _ := w.store.Get("c1"); len(rec.Seats) != 2 {
		t.Fatalf("the bot seat is removed from the lobby: %+v", rec.Seats)
	}
	w.cmd("u1", "ttr", "addbot", map[string]string{"level": "easy"})
	w.cmd("u1", "ttr", "start", nil)
	if a := w.cmd("u1", "ttr", "kick", map[string]string{"seat": "3"}); !strings.Contains(a.msg.Content, "/ttr end") {
		t.Fatalf("a bot in a running game keeps its seat, and the reply says what to do: %q", a.msg.Content)
	}
	a := w.cmd("u1", "ttr", "kick", map[string]string{"player": "u2"})
	if a.msg.Ephemeral || !strings.Contains(a.msg.Content, "removed") {
		t.Fatalf("removing a player is public: %+v", a.msg)
	}
	if rec, _ := w.store.Get("c1"); rec.Seats[1].Bot == "" {
		t.Fatalf("u2's seat went to a bot: %+v", rec.Seats[1])
	}
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.SetupDone(1) }) }, "the bot chooses the seat's first tickets")
}

// /ttr end on a running game asks; "score" scores it as it stands, posts
// the final sheet and archives it with a winner.
func TestEndScoresTheGameAsItStands(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	w.click("u1", "draw:"+gid+":0:deck")
	w.click("u1", "draw:"+gid+":0:deck")
	a := w.cmd("u2", "ttr", "end", nil)
	if !strings.Contains(a.msg.Content, "host") {
		t.Fatalf("only the host ends: %q", a.msg.Content)
	}
	a = w.cmd("u1", "ttr", "end", nil)
	score, cancel := findButton(a.msg, "end:"), ""
	for _, row := range a.msg.Components {
		for _, c := range row {
			if strings.HasSuffix(c.ID, ":cancel") {
				cancel = c.ID
			}
		}
	}
	if !a.msg.Ephemeral || !strings.HasSuffix(score, ":score") || cancel == "" {
		t.Fatalf("end asks with score/stop/cancel: %+v", a.msg)
	}
	if r := w.click("u1", cancel); !strings.Contains(r.msg.Content, "goes on") {
		t.Fatalf("cancel: %q", r.msg.Content)
	}
	if g, _ := w.game("c1"); g == nil {
		t.Fatal("cancel kept the game")
	}
	w.click("u1", score)
	if g, _ := w.game("c1"); g != nil {
		t.Fatal("the scored game is no longer live")
	}
	last := w.poster.last("c1")
	if len(last.Files) == 0 || !strings.Contains(strings.Join(contents(w.poster.all("c1")), "\n"), "scored as it stands") {
		t.Fatalf("the final sheet is posted and says why: %q", last.Content)
	}
	arch, err := w.store.Archived("g1")
	if err != nil || len(arch) != 1 || arch[0].Status != store.StatusFinished {
		t.Fatalf("archived as finished: %+v %v", arch, err)
	}
}

func contents(ms []Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Content)
	}
	return out
}

// under evaluates f on a channel's game with its table locked, as bots
// move in their own goroutines.
func (w *world) under(ch string, f func(*engine.Game) bool) bool {
	t, _ := w.svc.tables.loaded(ch)
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.game != nil && f(t.game)
}

// waitFor polls a condition a bot's timer makes true.
func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for range 2000 {
		if ok() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("timed out: %s", what)
}

// firstLegal is a test bot: it plays the first legal action.
type firstLegal struct{}

func (firstLegal) Choose(_ context.Context, _ engine.PlayerView, legal []engine.Action) engine.Action {
	return legal[0]
}

func testBots(level string, _ uint64) (Bot, error) {
	switch level {
	case "easy", "normal":
		return firstLegal{}, nil
	}
	return nil, fmt.Errorf("no level %q", level)
}

// A table chosen French speaks French in public (lobby, board, narration),
// while each player's private replies follow their own language.
func TestTableLanguageIsPublicAndPlayersKeepTheirs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "europe", "language": "fr"})
	lobby, ok := w.lobby("c1")
	if !ok || !strings.Contains(lobby.Content+lobby.Embeds[0].Title+lobby.Embeds[0].Description, "Aventuriers") {
		t.Fatalf("the lobby is French: %+v", lobby)
	}
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	if st := w.poster.last("c1"); !strings.Contains(st.Content, "La partie commence") || len(st.Files) == 0 {
		t.Fatalf("the board is French: %q", st.Content)
	}
	if a := w.cmd("u2", "score", "", nil); strings.Contains(a.msg.Content, "trains") {
		t.Fatalf("/score is the table's French: %q", a.msg.Content)
	}
	hand := w.do(&Request{Type: CommandRequest, User: "u2", Name: "hand", Locale: "en-US"})
	if len(hand.msg.Embeds) == 0 || !strings.Contains(hand.msg.Embeds[0].Title, "hand") {
		t.Fatalf("a player's private reply is in their own language: %+v", hand.msg.Embeds)
	}
	if a := w.do(&Request{Type: CommandRequest, Channel: "c2", User: "u1", Name: "ttr", Sub: "new", Options: map[string]string{"language": "klingon"}}); !strings.Contains(a.msg.Content, "klingon") {
		t.Fatalf("an unknown language is refused: %q", a.msg.Content)
	}
}

// Forgetting a server's games needs Manage Server, not just Manage Channel.
func TestForgetNeedsManageServer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.cmd("u1", "ttr", "new", nil)
	a := w.do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "forget", CanManage: true, Options: map[string]string{"confirm": "true"}})
	if _, err := w.store.Get("c1"); err != nil || !a.msg.Ephemeral {
		t.Fatalf("Manage Channel alone forgot the server: %q %v", a.msg.Content, err)
	}
	w.do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "forget", CanManageServer: true, Options: map[string]string{"confirm": "true"}})
	if _, err := w.store.Get("c1"); err == nil {
		t.Fatal("Manage Server forgets the server's games")
	}
}

// /board reposts the board at most once per cooldown per table.
func TestBoardRepostHasACooldown(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	startedGame(t, w, nil)
	if a := w.cmd("u2", "board", "", nil); len(a.msg.Files) == 0 || a.msg.Ephemeral {
		t.Fatalf("/board reposts the board: %+v", a.msg)
	}
	if a := w.cmd("u1", "board", "", nil); !a.msg.Ephemeral || len(a.msg.Files) != 0 || !strings.Contains(a.msg.Content, "seconds") {
		t.Fatalf("a second /board at once is refused kindly: %+v", a.msg)
	}
	w.now = w.now.Add(31 * time.Second)
	if a := w.cmd("u1", "board", "", nil); len(a.msg.Files) == 0 {
		t.Fatalf("after the cooldown /board works again: %q", a.msg.Content)
	}
}
