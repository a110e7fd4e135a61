package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"conductor/commands"
)

// TestBrowserARefusedPageFollowsByPolling: a page whose WebSocket is
// refused (its reader already has 8 pages open) does not retry it every
// half second: it follows the game by long polls of /api/state, and shows
// the next move.
func TestBrowserARefusedPageFollowsByPolling(t *testing.T) {
	root := browser(t)
	var sockets, polls atomic.Int64
	count := func(page http.Handler) http.Handler {
		return clientMux(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			path := strings.TrimPrefix(r.URL.Path, "/.proxy")
			switch {
			case path == "/ws":
				sockets.Add(1)
			case path == "/api/state" && r.URL.Query().Get("after") != "":
				polls.Add(1)
			}
			page.ServeHTTP(w, r)
		}))
	}
	s := newStack(t, stackOptions{mux: count})
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	s.srv.JoinActivity(carol.ID, inst)
	// Carol already has 8 pages open elsewhere.
	ans, _ := s.session(carol, inst)
	for range 8 {
		ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.http.URL, "http")+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		ws.WriteJSON(map[string]string{"hello": ans.Session})
		ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := ws.ReadMessage(); err != nil {
			t.Fatalf("carol's page %v", err)
		}
	}
	before := sockets.Load()
	tb := s.openTabs(root, inst, thread, desktop, carol)[carol.ID]
	if !tb.waitFor("the board", "frame().querySelector('svg g.track[data-ref]') && frame().getElementById('status').textContent", 20*time.Second) {
		t.Fatalf("carol's page shows no board: %s", eval[string](tb, "return frame() ? frame().body.innerText : 'no frame';"))
	}
	time.Sleep(5 * time.Second)
	tries, polled := sockets.Load()-before, polls.Load()
	t.Logf("in the 5 s after its socket was refused, the page tried %d sockets and made %d long polls", tries, polled)
	if tries > 2 || polled < 1 {
		t.Errorf("a refused page: %d sockets tried in 5 s, %d long polls (want at most 2, and polls)", tries, polled)
	}
	// The next move reaches it through its poll.
	logBefore := eval[string](tb, "return frame().getElementById('log').innerText;")
	mover := s.current(thread, alice, bob)
	s.handle(mover, thread, commands.Request{Type: commands.CommandRequest, Name: "draw", Options: map[string]string{"card": "deck"}})
	quoted, _ := json.Marshal(logBefore) // a JSON string is a JavaScript one
	if !tb.waitFor("the move", "frame().getElementById('log').innerText !== "+string(quoted), 10*time.Second) {
		t.Error("the polling page does not show the next move")
	}
}
