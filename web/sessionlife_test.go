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
	"conductor/internal/fakediscord"
)

// testClock is the real clock moved forward at will.
type testClock struct{ skew atomic.Int64 }

func (c *testClock) now() time.Time          { return time.Now().Add(time.Duration(c.skew.Load())) }
func (c *testClock) advance(d time.Duration) { c.skew.Add(int64(d)) }

// endGame has its host end a channel's game without a score.
func (s *stack) endGame(host fakediscord.User, channel string) {
	s.t.Helper()
	c := s.handle(host, channel, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "end", CanManage: true})
	stop := ""
	for _, m := range c.Messages() {
		for _, row := range m.Components {
			for _, b := range row {
				if strings.HasSuffix(b.ID, ":stop") {
					stop = b.ID
				}
			}
		}
	}
	if stop == "" {
		s.t.Fatalf("/ttr end offers no stop: %s", textOf(c))
	}
	s.handle(host, channel, commands.Request{Type: commands.ComponentRequest, CustomID: stop, CanManage: true})
	s.svc.Quiet()
}

// dialWS opens a page's WebSocket with a session and returns what the
// server sent before closing it (frames and close code), waiting up to d.
func (s *stack) dialWS(session string, d time.Duration) (frames []string, code int) {
	s.t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.http.URL, "http")+"/ws", nil)
	if err != nil {
		s.t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteJSON(map[string]string{"hello": session})
	ws.SetReadDeadline(time.Now().Add(d))
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			if ce, ok := err.(*websocket.CloseError); ok {
				return frames, ce.Code
			}
			return frames, 0
		}
		frames = append(frames, string(msg))
	}
}

// TestOneUsersSessionsEndOnlyTheirOwn: a user opening sessions in a loop
// ends their own oldest past their cap, never another user's.
func TestOneUsersSessionsEndOnlyTheirOwn(t *testing.T) {
	clock := &testClock{}
	s := newStack(t, stackOptions{now: clock.now})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	bobs, code := s.session(bob, inst)
	if code != http.StatusOK {
		t.Fatalf("bob: %d %s", code, bobs.raw)
	}
	first, _ := s.session(alice, inst)
	var last string
	for range 40 {
		clock.advance(10 * time.Second) // under the limit of sign-ins a minute
		ans, code := s.session(alice, inst)
		if code != http.StatusOK {
			t.Fatalf("alice's session: %d %s", code, ans.raw)
		}
		last = ans.Session
	}
	if st, _ := s.call(bobs.Session, "GET", "/api/state", nil); st != http.StatusOK {
		t.Errorf("bob's session after alice opened 41: %d", st)
	}
	if st, _ := s.call(last, "GET", "/api/state", nil); st != http.StatusOK {
		t.Errorf("alice's newest session: %d", st)
	}
	if st, _ := s.call(first.Session, "GET", "/api/state", nil); st != http.StatusUnauthorized {
		t.Errorf("alice's oldest of 41 sessions still answers: %d", st)
	}
}

// TestASessionIsBoundToItsGame: once a game ends and another begins in
// the same channel, a session opened for the first reads nothing of the
// second and plays nothing in it; its page is told its game is over.
func TestASessionIsBoundToItsGame(t *testing.T) {
	s := newStack(t)
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	ch := s.srv.CreateTextChannel(s.guild.ID, "in-channel")
	here := map[string]string{"map": "europe", "thread": "false"}
	if got := s.gameIn(ch.ID, here, alice, bob); got != ch.ID {
		t.Fatalf("the game plays in %s, not the channel", got)
	}
	inst := s.srv.CreateActivityInstance(s.guild.ID, ch.ID, alice.ID, bob.ID, carol.ID)
	old := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob, carol} {
		ans, code := s.session(u, inst)
		if code != http.StatusOK || ans.Game == nil {
			t.Fatalf("%s: %d %s", u.Username, code, ans.raw)
		}
		old[u.ID] = ans.Session
	}
	first := s.state(old[alice.ID]).Game

	s.endGame(alice, ch.ID)
	s.gameIn(ch.ID, here, alice, bob)
	second, _ := s.svc.View(ch.ID, "", "en")
	if second.Game == first {
		t.Fatal("no new game")
	}
	// The old sessions read the end of their game, not the new one.
	for _, u := range []fakediscord.User{alice, bob, carol} {
		f := s.state(old[u.ID])
		if f.Type != "over" || f.Game == second.Game || f.Owners != nil {
			t.Errorf("%s's old session reads %q of game %q", u.Username, f.Type, f.Game)
		}
	}
	// Nor plays in it: a draw sent with the new game's own button changes
	// nothing.
	mover := s.current(ch.ID, alice, bob)
	fresh, _ := s.session(mover, inst)
	f := s.state(fresh.Session)
	if f.Deck == nil || f.Game != second.Game {
		t.Fatalf("the new game's frame: %+v", f)
	}
	v0 := s.version(ch.ID)
	a, _ := s.act(old[mover.ID], map[string]any{"custom_id": f.Deck.ID})
	var st frame
	json.Unmarshal(a.State, &st)
	s.svc.Quiet()
	if v := s.version(ch.ID); v != v0 || st.Type != "over" {
		t.Errorf("a move with the old game's session: version %d → %d, answered %q", v0, v, st.Type)
	}
	// Its page is told the game is over and closed.
	frames, code := s.dialWS(old[carol.ID], 5*time.Second)
	if code != 4003 || len(frames) == 0 || !strings.Contains(frames[len(frames)-1], `"over"`) || strings.Contains(strings.Join(frames, ""), second.Game) {
		t.Errorf("the old session's page: close %d, frames %.200q", code, frames)
	}
	// The new game's session works.
	if f := s.state(fresh.Session); f.Type != "state" || f.Game != second.Game {
		t.Errorf("the new session: %+v", f)
	}
}

// TestASessionLivesTwelveHoursAtMost: a session in use every hour still
// ends 12 hours after it was opened, for the API and for the page's
// WebSocket (which is closed at the next frame, the page then authorising
// again).
func TestASessionLivesTwelveHoursAtMost(t *testing.T) {
	clock := &testClock{}
	s := newStack(t, stackOptions{now: clock.now})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	ans, _ := s.session(bob, inst)
	for h := range 11 {
		clock.advance(time.Hour)
		if st, _ := s.call(ans.Session, "GET", "/api/state", nil); st != http.StatusOK {
			t.Fatalf("after %d hours of use: %d", h+1, st)
		}
	}
	p := s.open("bob", ans.Session)
	p.waitVersion(s.version(thread))
	clock.advance(time.Hour + time.Minute)
	if st, _ := s.call(ans.Session, "GET", "/api/state", nil); st != http.StatusUnauthorized {
		t.Errorf("12 hours after it was opened, a session in use answers %d", st)
	}
	if _, code := s.dialWS(ans.Session, 5*time.Second); code != 4001 {
		t.Errorf("a page's WebSocket after 12 hours: close %d, want 4001", code)
	}
	// The page open across the 12 hours is closed at the next move.
	mover := s.current(thread, alice, bob)
	s.handle(mover, thread, commands.Request{Type: commands.CommandRequest, Name: "draw", Options: map[string]string{"card": "deck"}})
	select {
	case <-p.closed:
		if p.code != 4001 {
			t.Errorf("the open page was closed with %d, want 4001", p.code)
		}
	case <-time.After(10 * time.Second):
		t.Error("the page open past 12 hours is still open after a move")
	}
}

// TestAReaderWhoLeftTheActivityIsCheckedAgain: a spectator who left the
// activity (or was removed from the server) cannot reconnect once
// Discord's answer about the instance is older than its cache allows; a
// seated player who left may. A reconnecting crowd costs Discord one
// request.
func TestAReaderWhoLeftTheActivityIsCheckedAgain(t *testing.T) {
	clock := &testClock{}
	s := newStack(t, stackOptions{now: clock.now})
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	s.srv.JoinActivity(bob.ID, inst)
	s.srv.JoinActivity(carol.ID, inst)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob, carol} {
		ans, code := s.session(u, inst)
		if code != http.StatusOK {
			t.Fatalf("%s: %d", u.Username, code)
		}
		sessions[u.ID] = ans.Session
	}
	// Reconnecting pages within the cache's time ask Discord nothing more.
	asked := len(s.srv.RequestsTo("GET", "/applications/{application_id}/activity-instances/{instance_id}"))
	if asked == 0 {
		t.Fatal("the fake recorded no request for the instance: the count below would prove nothing")
	}
	for range 5 {
		if frames, _ := s.dialWS(sessions[carol.ID], 300*time.Millisecond); len(frames) == 0 {
			t.Fatal("carol's page got no frame")
		}
	}
	if n := len(s.srv.RequestsTo("GET", "/applications/{application_id}/activity-instances/{instance_id}")) - asked; n > 1 {
		t.Errorf("5 reconnections asked Discord about the instance %d times", n)
	}

	s.srv.LeaveActivity(carol.ID, inst)
	s.srv.LeaveActivity(bob.ID, inst)
	clock.advance(time.Minute)
	if _, code := s.dialWS(sessions[carol.ID], 5*time.Second); code != 4001 {
		t.Errorf("carol, out of the activity, reconnects: close %d, want 4001", code)
	}
	if st, _ := s.call(sessions[carol.ID], "GET", "/api/state", nil); st != http.StatusUnauthorized {
		t.Errorf("carol, out of the activity, reads the state: %d", st)
	}
	if frames, code := s.dialWS(sessions[bob.ID], 300*time.Millisecond); len(frames) == 0 || code == 4001 {
		t.Errorf("bob, seated, out of the activity: %d frames, close %d", len(frames), code)
	}
}
