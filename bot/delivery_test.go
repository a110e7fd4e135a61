package bot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

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
		if seen && !m.Deleted && isBoard(m) {
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
	if n := strings.Count(boards[0].Content, "<@"+next+">"); n != 1 {
		e.t.Fatalf("the next player is mentioned %d times: %q", n, boards[0].Content)
	}
}

// drawTurn plays the current player's turn as two blind draws and returns
// the board before it and the player who plays next.
func (tb *table) drawTurn() (before fakediscord.Message, next string) {
	e := tb.e
	e.t.Helper()
	b, _ := tb.board()
	cur, ok := tb.user(lastMention(b.Content))
	if !ok {
		e.t.Fatalf("no player named on the board: %q", b.Content)
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

// TestBoardPostFailingWith500IsRetried: Discord fails the board post once;
// the move stands and the table still gets exactly one board.
func TestBoardPostFailingWith500IsRetried(t *testing.T) {
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: boardPost, Path: "/channels/" + tb.ch.ID + "/messages", Times: 1, Status: http.StatusInternalServerError})
	before, next := tb.drawTurn()
	tb.oneBoardFollows(before, next)
	if hits := e.srv.FaultHits(); hits[0] != 1 {
		t.Fatalf("the fault was hit %d times", hits[0])
	}
}

// TestBoardPostFailingAfterCreationIsNotDoubled: Discord creates the board
// but answers 502; the retry carries the same nonce and gets the message
// back instead of a second board.
func TestBoardPostFailingAfterCreationIsNotDoubled(t *testing.T) {
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: boardPost, Path: "/channels/" + tb.ch.ID + "/messages", Times: 1,
		Status: http.StatusBadGateway, AfterServe: true})
	before, next := tb.drawTurn()
	tb.oneBoardFollows(before, next)
	posts := 0
	for _, r := range e.srv.RequestsTo("POST", boardPost) {
		if strings.Contains(r.Path, tb.ch.ID) && r.Fault == "" {
			posts++
		}
	}
	if posts == 0 {
		t.Fatal("the post was not retried after the 502")
	}
}

// TestBoardQueuedBeforeACrashIsPostedAtStart: the move is committed but the
// process dies before Discord took the board; the next start posts it,
// once.
func TestBoardQueuedBeforeACrashIsPostedAtStart(t *testing.T) {
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: boardPost, Path: "/channels/" + tb.ch.ID + "/messages", Status: http.StatusServiceUnavailable})
	before, next := tb.drawTurn()
	if len(tb.boardsAfter(before.ID)) != 0 {
		t.Fatal("a board got through the failing Discord")
	}
	e.stop() // dies with the board still queued
	e.srv.ClearFaults()
	e.start()
	tb.oneBoardFollows(before, next)
}
