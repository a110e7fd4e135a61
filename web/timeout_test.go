package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"conductor/internal/fakediscord"
	"conductor/web"
)

// shortTimeouts are the server's timeouts in these tests: a test waits a
// few of them, not minutes.
var shortTimeouts = web.Timeouts{Header: 300 * time.Millisecond, Read: 500 * time.Millisecond, Write: time.Second, Idle: time.Second}

// listen serves the page's HTTPServer, as `conductor run` does, on a
// loopback port; it returns the address.
func (s *stack) listen() string {
	s.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	hs := s.web.HTTPServer()
	go hs.Serve(ln)
	s.t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// closedWithin reads c until the server closes it, and says how long that
// took (false when it is still open after d).
func closedWithin(c net.Conn, d time.Duration) (time.Duration, bool) {
	start := time.Now()
	c.SetReadDeadline(start.Add(d))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return time.Since(start), false
	}
	return time.Since(start), true
}

// TestASlowRequestIsCut: a request whose body comes at a byte a tenth of a
// second (or whose headers never end) loses its connection once the
// server's read time is up, instead of holding it for ever.
func TestASlowRequestIsCut(t *testing.T) {
	s := newStack(t, stackOptions{web: func(o *web.Options) { o.Timeouts = shortTimeouts }})
	addr := s.listen()

	body, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	fmt.Fprintf(body, "POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := body.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	if took, ok := closedWithin(body, 5*time.Second); !ok {
		t.Errorf("a body sent at 10 bytes/s still holds its connection after %v", took)
	} else {
		t.Logf("a slow body: cut after %v", took.Round(time.Millisecond))
	}

	header, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer header.Close()
	fmt.Fprintf(header, "GET / HTTP/1.1\r\nHost: x\r\n")
	if took, ok := closedWithin(header, 5*time.Second); !ok {
		t.Errorf("headers that never end still hold their connection after %v", took)
	}
}

// TestLongLivedRoutesOutliveTheTimeouts: a long poll of /api/state and a
// WebSocket stay open past the server's read and write times, and get the
// next move.
func TestLongLivedRoutesOutliveTheTimeouts(t *testing.T) {
	s := newStack(t, stackOptions{web: func(o *web.Options) { o.Timeouts = shortTimeouts }})
	addr := s.listen()
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob} {
		ans, code := s.session(u, inst)
		if code != http.StatusOK {
			t.Fatalf("session: %d %s", code, ans.raw)
		}
		sessions[u.ID] = ans.Session
	}
	v0 := s.version(thread)

	ws, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteJSON(map[string]string{"hello": sessions[bob.ID]})

	type polled struct {
		code    int
		version uint64
		err     error
	}
	poll := make(chan polled, 1)
	go func() {
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://%s/api/state?after=%d", addr, v0), nil)
		req.Header.Set("Authorization", "Bearer "+sessions[bob.ID])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			poll <- polled{err: err}
			return
		}
		defer resp.Body.Close()
		var f frame
		err = json.NewDecoder(resp.Body).Decode(&f)
		poll <- polled{resp.StatusCode, f.Version, err}
	}()
	// Longer than the server's read and write times together.
	time.Sleep(shortTimeouts.Read + shortTimeouts.Write + 500*time.Millisecond)
	mover := s.current(thread, alice, bob)
	f := s.state(sessions[mover.ID])
	s.act(sessions[mover.ID], map[string]any{"custom_id": f.Deck.ID})
	s.svc.Quiet()
	v1 := s.version(thread)

	select {
	case p := <-poll:
		if p.err != nil || p.code != http.StatusOK || p.version < v1 {
			t.Errorf("the long poll: %d version %d (want %d): %v", p.code, p.version, v1, p.err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the long poll never answered")
	}
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("the WebSocket ended before the move's frame: %v", err)
		}
		var f frame
		json.Unmarshal(msg, &f)
		if f.Version >= v1 {
			break
		}
	}
}
