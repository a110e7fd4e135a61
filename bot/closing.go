package bot

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// discordgo's Session.Close writes the websocket close frame, then sleeps a
// second before it closes the socket ("TODO: Wait for Discord to actually
// close the connection"), holding the session's lock. Close waits only for
// the close frame to be written: that is what tells Discord the session
// ends. discordgo's sleep and its socket close finish in the background,
// and the Disconnect they report then is no news.

// closing follows a Close of the gateway.
type closing struct {
	started atomic.Bool // Close was called: a close frame written now is the one
	once    sync.Once
	sent    chan struct{} // closed once that close frame is written whole
}

func (c *closing) init() { c.sent = make(chan struct{}) }

// dialer is discordgo's default websocket dialer, its connections watched
// for the close frame.
func (c *closing) dialer() *websocket.Dialer {
	return &websocket.Dialer{Proxy: http.ProxyFromEnvironment, HandshakeTimeout: 45 * time.Second,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &watchedConn{Conn: conn, closing: c}, nil
		}}
}

// watchedConn is the gateway's socket.
type watchedConn struct {
	net.Conn
	closing *closing
}

func (w *watchedConn) Write(p []byte) (int, error) {
	n, err := w.Conn.Write(p)
	if err == nil && w.closing.started.Load() && isCloseFrame(p[:n]) {
		w.closing.once.Do(func() { close(w.closing.sent) })
	}
	return n, err
}

// isCloseFrame reports whether p is a whole masked close frame, as
// gorilla/websocket writes a client's control frame: in one write, a final
// frame with opcode 8, a 4-byte mask and at most 125 bytes of payload.
func isCloseFrame(p []byte) bool {
	return len(p) >= 6 && p[0] == 0x80|websocket.CloseMessage && p[1]&0x80 != 0 && len(p) == 6+int(p[1]&0x7f)
}

// Close closes the gateway connection. Call Stop first. It returns once
// the close frame is written (or discordgo's own close has returned).
func (b *Bot) Close() error {
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
	}
	b.mu.Unlock()
	// discordgo's heartbeat goroutine may start a reconnect while Close
	// waits; turning reconnection off under the session lock prevents it.
	b.s.Lock()
	b.s.ShouldReconnectOnError = false
	b.s.Unlock()
	b.closing.started.Store(true)
	b.health.down()
	done := make(chan error, 1)
	go func() { done <- b.s.Close() }()
	select {
	case err := <-done:
		return err
	case <-b.closing.sent:
		return nil
	}
}
