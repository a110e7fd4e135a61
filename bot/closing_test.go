package bot

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// The gateway's socket tells Close when the close frame has gone out whole,
// as gorilla/websocket frames it: a message or a close frame before Close
// started does not count.
func TestCloseFrameIsSeenGoingOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	var cl closing
	cl.init()
	conn, _, err := cl.dialer().Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sent := func() bool {
		select {
		case <-cl.sent:
			return true
		default:
			return false
		}
	}
	// A reconnect's close frame (before Close) and the session's messages.
	if err := conn.WriteMessage(websocket.TextMessage, []byte(`{"op":1,"d":null}`)); err != nil {
		t.Fatal(err)
	}
	cl.started.Store(true)
	if err := conn.WriteMessage(websocket.TextMessage, []byte{0x88, 0x82, 1, 2, 3, 4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	if sent() {
		t.Fatal("a text message counted as the close frame")
	}
	if err := conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")); err != nil {
		t.Fatal(err)
	}
	if !sent() {
		t.Fatal("the close frame written whole was not seen")
	}
}

func TestIsCloseFrame(t *testing.T) {
	for _, c := range []struct {
		p    []byte
		want bool
	}{
		{[]byte{0x88, 0x82, 1, 2, 3, 4, 5, 6}, true},  // code 1000, masked
		{[]byte{0x88, 0x80, 1, 2, 3, 4}, true},        // no payload
		{[]byte{0x88, 0x82, 1, 2, 3, 4, 5}, false},    // cut short
		{[]byte{0x81, 0x82, 1, 2, 3, 4, 5, 6}, false}, // a text frame
		{[]byte{0x88, 0x02, 5, 6}, false},             // unmasked: a server's
		{nil, false},
	} {
		if got := isCloseFrame(c.p); got != c.want {
			t.Errorf("% x: %v, want %v", c.p, got, c.want)
		}
	}
}
