package bot_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"conductor/bot"
	"conductor/commands"
	"conductor/internal/fakediscord"
)

// boardsAfter lists the public boards of the table posted after message id.
func (tb *table) boardsAfter(id string) []fakediscord.Message {
	var out []fakediscord.Message
	seen := false
	for _, m := range tb.e.srv.Messages(tb.ch.ID) {
		if m.ID == id {
			seen = true
			continue
		}
		if seen && !m.Deleted && isBoardPost(m) {
			out = append(out, m)
		}
	}
	return out
}

// oneBoardFollows waits for the board after a move and checks that the
// table got exactly one, naming the next player once.
func (tb *table) oneBoardFollows(before fakediscord.Message, next string) {
	e := tb.e
	e.t.Helper()
	if err := e.srv.WaitFor("the board after the move", func() bool { return len(tb.boardsAfter(before.ID)) > 0 }); err != nil {
		e.t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // a second board, if any, would come now
	boards := tb.boardsAfter(before.ID)
	if len(boards) != 1 {
		e.t.Fatalf("%d boards after one move", len(boards))
	}
	if n := strings.Count(boards[0].Body(), "<@"+next+">"); n != 1 {
		e.t.Fatalf("the next player is mentioned %d times: %q", n, boards[0].Body())
	}
}

// drawTurn plays the current player's turn as two blind draws and returns
// the board before it and the player who plays next.
func (tb *table) drawTurn() (before fakediscord.Message, next string) {
	e := tb.e
	e.t.Helper()
	b, _ := tb.board()
	cur, ok := tb.user(lastMention(b.Body()))
	if !ok {
		e.t.Fatalf("no player named on the board: %q", b.Body())
	}
	for _, p := range tb.players {
		if p.ID != cur.ID {
			next = p.ID
		}
	}
	a := tb.do(e.click(cur.ID, b.ID, button(b, "draw:", ":deck")))
	tb.do(e.click(cur.ID, a.msg.ID, button(a.msg, "draw:", ":deck")))
	return b, next
}

const boardPost = "/channels/{channel_id}/messages"

// followUpPost and followUpEdit are the interaction webhook's routes: a
// person's move posts its board as a follow-up of its interaction, and the
// buttons come off it later through the same webhook (via.go).
const (
	followUpPost = "/webhooks/{webhook_id}/{webhook_token}"
	followUpEdit = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
)

// boardPath is a way a board reaches the table: as a follow-up of the move's
// interaction, or posted to the channel (where the bot may not read the
// channel's history, so that a lost follow-up could not be looked for).
type boardPath struct {
	name  string
	route string
	// prepare makes the table's boards take this path.
	prepare func(tb *table)
}

var boardPaths = []boardPath{
	{"follow-up", followUpPost, func(*table) {}},
	{"channel", boardPost, func(tb *table) {
		tb.e.srv.SetOverwrite(tb.parent.ID, fakediscord.Overwrite{ID: tb.e.srv.Bot().ID, Type: 1, Deny: fakediscord.PermReadMessageHistory})
	}},
}

// fault injects f on the path's route, for the table's channel when the
// route names it.
func (bp boardPath) fault(tb *table, f fakediscord.Fault) {
	f.Method, f.Route = "POST", bp.route
	if bp.route == boardPost {
		f.Path = "/channels/" + tb.ch.ID + "/messages"
	}
	tb.e.srv.InjectFault(f)
}

// TestBoardPostFailingWith500IsRetried: Discord fails the board post once;
// the move stands and the table still gets exactly one board.
func TestBoardPostFailingWith500IsRetried(t *testing.T) {
	t.Parallel()
	for _, bp := range boardPaths {
		t.Run(bp.name, func(t *testing.T) {
			e := newEnv(t)
			tb := newTable(e, "table", "usa", "", "alice", "bob")
			tb.setup()
			bp.prepare(tb)
			bp.fault(tb, fakediscord.Fault{Times: 1, Status: http.StatusInternalServerError})
			before, next := tb.drawTurn()
			tb.oneBoardFollows(before, next)
			if hits := e.srv.FaultHits(); hits[0] != 1 {
				t.Fatalf("the fault was hit %d times", hits[0])
			}
		})
	}
}

// TestBoardPostFailingAfterCreationIsNotDoubled: Discord creates the board
// but answers 502. On the channel, the retry carries the same nonce and gets
// the message back; a follow-up has no nonce, so the channel's history is
// read first and the board found there: never a second board.
func TestBoardPostFailingAfterCreationIsNotDoubled(t *testing.T) {
	t.Parallel()
	for _, bp := range boardPaths {
		t.Run(bp.name, func(t *testing.T) {
			e := newEnv(t)
			tb := newTable(e, "table", "usa", "", "alice", "bob")
			tb.setup()
			bp.prepare(tb)
			followUps, reads := len(e.srv.RequestsTo("POST", followUpPost)), len(e.srv.RequestsTo("GET", boardPost))
			bp.fault(tb, fakediscord.Fault{Times: 1, Status: http.StatusBadGateway, AfterServe: true})
			before, next := tb.drawTurn()
			tb.oneBoardFollows(before, next)
			e.svc.Quiet() // the retry is done
			if len(tb.boardsAfter(before.ID)) != 1 {
				t.Fatal("a second board after the retry")
			}
			if hits := e.srv.FaultHits(); hits[0] != 1 {
				t.Fatalf("the fault was hit %d times", hits[0])
			}
			switch bp.route {
			case boardPost:
				posts := 0
				for _, r := range e.srv.RequestsTo("POST", boardPost) {
					if strings.Contains(r.Path, tb.ch.ID) && r.Fault == "" {
						posts++
					}
				}
				if posts == 0 {
					t.Fatal("the post was not retried after the 502")
				}
			default:
				if n := len(e.srv.RequestsTo("POST", followUpPost)) - followUps; n != 1 {
					t.Errorf("%d follow-ups: the lost one was posted again", n)
				}
				if n := len(e.srv.RequestsTo("GET", boardPost)) - reads; n != 1 {
					t.Errorf("the channel's history was read %d times, want once", n)
				}
				// The board found is the table's live board: the next one takes its
				// buttons off.
				b, _ := tb.board()
				before, next := tb.drawTurn()
				tb.oneBoardFollows(before, next)
				if m, _ := e.srv.Message(b.ID); button(m, "draw:", "") != "" {
					t.Error("the board found after the lost answer kept its buttons")
				}
			}
			e.srv.CheckClean(t)
		})
	}
}

// TestBoardQueuedBeforeACrashIsPostedAtStart: the move is committed but the
// process dies before Discord took the board; the next start posts it,
// once.
func TestBoardQueuedBeforeACrashIsPostedAtStart(t *testing.T) {
	t.Parallel()
	for _, bp := range boardPaths {
		t.Run(bp.name, func(t *testing.T) {
			e := newEnv(t)
			tb := newTable(e, "table", "usa", "", "alice", "bob")
			tb.setup()
			bp.prepare(tb)
			bp.fault(tb, fakediscord.Fault{Status: http.StatusServiceUnavailable})
			before, next := tb.drawTurn()
			if len(tb.boardsAfter(before.ID)) != 0 {
				t.Fatal("a board got through the failing Discord")
			}
			e.stop() // dies with the board still queued
			e.srv.ClearFaults()
			e.start()
			tb.oneBoardFollows(before, next)
		})
	}
}

const callbackRoute = "/interactions/{interaction_id}/{interaction_token}/callback"

// answeredInTime: the interaction's callback was accepted (the fake, like
// Discord, refuses one later than 3 s) and was the answer itself, not a
// deferral bought while waiting.
func answeredInTime(t *testing.T, a answer, what string) {
	t.Helper()
	cb, ok := a.h.Callback()
	if !ok {
		t.Fatalf("%s was not answered within Discord's window", what)
	}
	if cb.Type == fakediscord.CallbackDeferredMessage || cb.Type == fakediscord.CallbackDeferredUpdate {
		t.Fatalf("%s was answered only through a deferral (it waited)", what)
	}
}

// TestSlowReplyHoldsNoOtherPlayer: Discord takes 4 s to accept one
// player's reply; the other player's autocomplete and /hand in the same
// channel are answered in time.
func TestSlowReplyHoldsNoOtherPlayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	b, _ := tb.board()
	cur, _ := tb.user(lastMention(b.Body()))
	other := tb.players[0]
	if other.ID == cur.ID {
		other = tb.players[1]
	}
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: callbackRoute, Times: 1, Delay: 4 * time.Second})
	if _, err := e.srv.RunCommand(cur.ID, tb.ch.ID, "hand"); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.WaitFor("the slow reply under way", func() bool { return e.srv.FaultHits()[0] == 1 }); err != nil {
		t.Fatal(err)
	}
	if choices := e.complete(other.ID, tb.ch.ID, "claim", fakediscord.Focused(fakediscord.StringOption("route", ""))); len(choices) == 0 {
		t.Fatal("autocomplete offered nothing")
	}
	answeredInTime(t, e.run(other.ID, tb.ch.ID, "hand"), "the other player's /hand")
}

// TestSlowBoardPostHoldsNoOtherPlayer: the board after a move takes 4 s to
// post; meanwhile the other player is answered in time, and the board
// still comes once.
func TestSlowBoardPostHoldsNoOtherPlayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: followUpPost, Times: 1, Delay: 4 * time.Second})
	type turn struct {
		before fakediscord.Message
		next   string
	}
	done := make(chan turn, 1)
	go func() {
		before, next := tb.drawTurn()
		done <- turn{before, next}
	}()
	if err := e.srv.WaitFor("the slow board under way", func() bool { return e.srv.FaultHits()[0] == 1 }); err != nil {
		t.Fatal(err)
	}
	for _, p := range tb.players {
		e.complete(p.ID, tb.ch.ID, "claim", fakediscord.Focused(fakediscord.StringOption("route", "")))
		answeredInTime(t, e.run(p.ID, tb.ch.ID, "hand"), p.Username+"'s /hand while the board is slow")
	}
	tr := <-done
	tb.oneBoardFollows(tr.before, tr.next)
}

// TestRateLimitedCallbackDelaysNoOtherChannel: Discord answers one
// channel's reply with a 429; another channel's reply goes out meanwhile.
func TestRateLimitedCallbackDelaysNoOtherChannel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	x := newTable(e, "table-x", "usa", "", "xavier", "xena")
	x.setup()
	y := newTable(e, "table-y", "usa", "", "yann", "yvonne")
	y.setup()
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: callbackRoute, Times: 1, RetryAfter: 2 * time.Second})
	hx, err := e.srv.RunCommand(x.players[0].ID, x.ch.ID, "hand")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.WaitFor("the rate-limited reply", func() bool { return e.srv.FaultHits()[0] == 1 }); err != nil {
		t.Fatal(err)
	}
	ay := e.run(y.players[0].ID, y.ch.ID, "hand")
	answeredInTime(t, ay, "the other channel's /hand")
	if _, ok := hx.Callback(); ok {
		t.Fatal("the rate-limited reply was answered before its retry_after")
	}
	if _, err := hx.WaitCallback(); err != nil {
		t.Fatalf("the rate-limited reply is sent after its wait: %v", err)
	}
}

// TestUndoBoardFollowUpFailingAfterCreationIsNotDoubled: /ttr undo answers
// with the board in public after a private deferral, so the board is a
// follow-up of the interaction. Discord creates it but answers 502: the
// channel is read before it is sent again, and it is not, since it is
// there. One board, not two.
func TestUndoBoardFollowUpFailingAfterCreationIsNotDoubled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{deferAfter: 300 * time.Millisecond})
	tb := startedTable(t, e, "table")
	// Play until someone claims a route (no tunnel): that claim can be
	// taken back, at once, since nobody has moved since.
	var claimer fakediscord.User
	for claimer.ID == "" {
		cur, _ := tb.current()
		claims, tunnels := tb.stats.Claims, tb.stats.Tunnels
		if !tb.playTurn() {
			t.Fatal("the game ended before a claim")
		}
		if tb.stats.Claims > claims && tb.stats.Tunnels == tunnels {
			claimer = cur
		}
	}
	before, _ := tb.board()
	e.svc.Quiet()
	// The undo waits for its deferral, as a slow one would.
	e.tracker.h = afterDeferral{h: e.svc, e: e}
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: followUpPost, Times: 1, Status: http.StatusBadGateway, AfterServe: true})
	reads := len(e.srv.RequestsTo("GET", boardPost))
	a := e.ttr(claimer.ID, tb.ch.ID, "undo")
	if a.cb.Type != fakediscord.CallbackDeferredMessage {
		t.Fatalf("the undo was answered with callback %d, not a deferral", a.cb.Type)
	}
	if hits := e.srv.FaultHits(); hits[0] != 1 {
		t.Fatalf("the fault was hit %d times: the board did not go as a follow-up", hits[0])
	}
	e.svc.Quiet()
	var boards []fakediscord.Message
	for _, m := range a.h.Followups() {
		if isBoardPost(m) {
			boards = append(boards, m)
		}
	}
	if len(boards) != 1 {
		t.Errorf("%d boards follow the undo, want 1", len(boards))
	}
	if all := tb.boardsAfter(before.ID); len(all) != 1 {
		t.Errorf("%d boards after the undo in the thread, want 1", len(all))
	}
	if len(e.srv.RequestsTo("GET", boardPost)) == reads {
		t.Error("the channel was not read before the board was sent again")
	}
	e.srv.CheckClean(t)
}

// afterDeferral passes a request on once the bot has deferred its answer
// (its callback reached the fake), as a handler slower than the deferral
// delay would.
type afterDeferral struct {
	h bot.Handler
	e *env
}

func (d afterDeferral) Handle(ctx context.Context, req *commands.Request, resp commands.Responder) {
	if req.Type != commands.AutocompleteRequest {
		if err := d.e.srv.WaitFor("the deferral of "+req.ID, func() bool {
			for _, r := range d.e.srv.RequestsTo("POST", callbackRoute) {
				if strings.Contains(r.Path, "/interactions/"+req.ID+"/") {
					return true
				}
			}
			return false
		}); err != nil {
			d.e.t.Error(err)
		}
	}
	d.h.Handle(ctx, req, resp)
}
