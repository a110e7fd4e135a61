package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"conductor/internal/fakediscord"
)

// TestSeatedPlayersAlwaysHaveRoom: 32 spectator accounts opening 8 pages
// each fill what spectators may hold of the game, never the players'
// places: a seated player's page then opens and follows the game.
func TestSeatedPlayersAlwaysHaveRoom(t *testing.T) {
	clock := &testClock{}
	s := newStack(t, stackOptions{now: clock.now})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	url := "ws" + strings.TrimPrefix(s.http.URL, "http") + "/ws"
	opened, refused := 0, 0
	for i := range 32 {
		u := s.srv.CreateUser(fmt.Sprint("watcher", i))
		s.srv.JoinActivity(u.ID, inst)
		clock.advance(2 * time.Second) // within one address's sign-ins a minute
		ans, code := s.session(u, inst)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", u.Username, code, ans.raw)
		}
		for range 8 {
			ws, _, err := websocket.DefaultDialer.Dial(url, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			ws.WriteJSON(map[string]string{"hello": ans.Session})
			ws.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, _, err := ws.ReadMessage(); err != nil {
				if ce, ok := err.(*websocket.CloseError); ok && ce.Code == 4008 {
					refused++
					continue
				}
				t.Fatalf("a spectator's page: %v", err)
			}
			opened++
		}
	}
	t.Logf("spectators' pages: %d open, %d refused (4008)", opened, refused)
	if refused == 0 {
		t.Fatal("256 spectators' pages were all let in: no room is kept for the players")
	}
	for _, user := range []fakediscord.User{alice, bob} {
		clock.advance(2 * time.Second)
		ans, _ := s.session(user, inst)
		frames, code := s.dialWS(ans.Session, 500*time.Millisecond)
		if code == 4008 || len(frames) == 0 {
			t.Errorf("%s, seated, with the spectators' pages full: close %d, %d frames", user.Username, code, len(frames))
		}
	}
}
