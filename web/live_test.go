package web_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"conductor/commands"
	"conductor/internal/fakediscord"
	"conductor/present"
)

// page is an open page's WebSocket, recording every frame it is sent.
type page struct {
	t      testing.TB
	name   string
	ws     *websocket.Conn
	mu     sync.Mutex
	frames [][]byte
	closed chan struct{}
	code   int
}

func (s *stack) open(name, session string) *page {
	s.t.Helper()
	url := "ws" + strings.TrimPrefix(s.http.URL, "http") + "/ws"
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := ws.WriteJSON(map[string]string{"hello": session}); err != nil {
		s.t.Fatal(err)
	}
	p := &page{t: s.t, name: name, ws: ws, closed: make(chan struct{})}
	go func() {
		defer close(p.closed)
		for {
			_, msg, err := ws.ReadMessage()
			if err != nil {
				var ce *websocket.CloseError
				if ok := asClose(err, &ce); ok {
					p.mu.Lock()
					p.code = ce.Code
					p.mu.Unlock()
				}
				return
			}
			p.mu.Lock()
			p.frames = append(p.frames, msg)
			p.mu.Unlock()
		}
	}()
	s.t.Cleanup(func() { ws.Close() })
	return p
}

func asClose(err error, ce **websocket.CloseError) bool {
	c, ok := err.(*websocket.CloseError)
	*ce = c
	return ok
}

// latest is the newest frame's version and type.
func (p *page) latest() (uint64, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.frames) == 0 {
		return 0, ""
	}
	var f struct {
		Type    string `json:"type"`
		Version uint64 `json:"version"`
	}
	json.Unmarshal(p.frames[len(p.frames)-1], &f)
	return f.Version, f.Type
}

// waitVersion waits until the page got a frame of version v or later.
func (p *page) waitVersion(v uint64) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if got, _ := p.latest(); got >= v {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	got, _ := p.latest()
	p.t.Fatalf("%s's page is at version %d, the table at %d", p.name, got, v)
}

func (p *page) all() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([][]byte(nil), p.frames...)
}

// version is the table's version now.
func (s *stack) version(thread string) uint64 {
	s.t.Helper()
	v, err := s.svc.View(thread, "", "en")
	if err != nil {
		s.t.Fatal(err)
	}
	return v.Version
}

// secrets are what only a seat may see: its tickets (held and pending)
// and its hand, as the page writes them.
func (s *stack) secrets(thread string, u fakediscord.User) []string {
	s.t.Helper()
	v, err := s.svc.View(thread, u.ID, "en")
	if err != nil || v.Private == nil {
		s.t.Fatal(err)
	}
	var out []string
	for _, ts := range v.Private.Tickets {
		out = append(out, present.TicketLabel(v.Board, ts.Ticket))
	}
	for _, id := range v.Private.Pending {
		out = append(out, present.TicketLabel(v.Board, id))
	}
	if v.Prompt != nil {
		for _, row := range v.Prompt.Components {
			for _, c := range row {
				for _, o := range c.Options {
					out = append(out, o.Label)
				}
			}
		}
	}
	return out
}

// TestEveryPageFollowsEveryMove: three pages (two players, a spectator)
// are sent every move, from the page and from Discord, without asking;
// every frame a page gets is its own reader's, and none carries another
// seat's hand or tickets.
func TestEveryPageFollowsEveryMove(t *testing.T) {
	s := newStack(t)
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	s.srv.JoinActivity(carol.ID, inst)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob, carol} {
		ans, code := s.session(u, inst)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", u.Username, code, ans.raw)
		}
		sessions[u.ID] = ans.Session
	}
	pages := map[string]*page{}
	for _, u := range []fakediscord.User{alice, bob, carol} {
		pages[u.ID] = s.open(u.Username, sessions[u.ID])
	}
	v0 := s.version(thread)
	for _, p := range pages {
		p.waitVersion(v0)
	}
	secrets := map[string][]string{alice.ID: s.secrets(thread, alice), bob.ID: s.secrets(thread, bob)}
	users := []fakediscord.User{alice, bob}
	for turn := range 6 {
		mover := s.current(thread, users...)
		switch turn % 3 {
		case 0: // a claim from the page
			_, ref := s.claimable(thread, mover)
			s.act(sessions[mover.ID], map[string]any{"route": ref})
		case 1: // two cards through Discord's slash command
			for range 2 {
				h, err := s.srv.RunCommand(mover.ID, thread, "draw", fakediscord.StringOption("card", "deck"))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := h.WaitCallback(); err != nil {
					t.Fatal(err)
				}
			}
		case 2: // tickets from the page, all kept
			f := s.state(sessions[mover.ID])
			a, _ := s.act(sessions[mover.ID], map[string]any{"custom_id": f.TicketsButton.ID})
			var after frame
			json.Unmarshal(a.State, &after)
			if after.Prompt == nil {
				t.Fatalf("no ticket choice after drawing tickets: %s", a.text())
			}
			secrets[mover.ID] = append(secrets[mover.ID], s.secrets(thread, mover)...)
			for _, row := range after.Prompt.Rows {
				for _, c := range row {
					if c.Kind == "select" {
						var values []string
						for _, o := range c.Options {
							values = append(values, o.Value)
						}
						s.act(sessions[mover.ID], map[string]any{"custom_id": c.ID, "values": values})
					}
				}
			}
		}
		s.svc.Quiet()
		v := s.version(thread)
		for _, p := range pages {
			p.waitVersion(v)
		}
		secrets[mover.ID] = append(secrets[mover.ID], s.secrets(thread, mover)...)
	}
	// Every frame: the reader's own seat; a seat's secrets only to it.
	seats := map[string]int{}
	rec, _ := s.st.Get(thread)
	for _, u := range users {
		seats[u.ID] = seatOf(rec, u.ID)
	}
	seats[carol.ID] = -1
	checked := 0
	for reader, p := range pages {
		for _, raw := range p.all() {
			var f frame
			if err := json.Unmarshal(raw, &f); err != nil {
				t.Fatal(err)
			}
			if f.Type == "state" && f.Seat != seats[reader] {
				t.Errorf("%s got a frame of seat %d", p.name, f.Seat)
			}
			if seats[reader] < 0 && (f.Hand != nil || f.Tickets != nil || f.Prompt != nil) {
				t.Errorf("the spectator got a hand, tickets or a prompt: %s", raw)
			}
			for owner, list := range secrets {
				if owner == reader {
					continue
				}
				for _, secret := range list {
					checked++
					if strings.Contains(string(raw), secret) {
						t.Errorf("%s's page got %s's secret %q", p.name, owner, secret)
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d secret checks: the scan saw too little", checked)
	}
	for _, p := range pages {
		if n := len(p.all()); n < 4 {
			t.Errorf("%s's page got only %d frames for 6 turns", p.name, n)
		}
	}
}

// pipeListener serves HTTP over in-memory pipes: a write blocks until the
// other end reads, so a client that stops reading blocks the server's
// writes to it at once.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error { l.once.Do(func() { close(l.done) }); return nil }

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

func (l *pipeListener) dial(string, string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// TestAReaderThatNeverReadsDelaysNothing: a page that stops reading (its
// every frame blocks the server's write) delays no move and no other page.
func TestAReaderThatNeverReadsDelaysNothing(t *testing.T) {
	s := newStack(t)
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	s.srv.JoinActivity(carol.ID, inst)
	sessions := map[string]string{}
	for _, u := range []fakediscord.User{alice, bob, carol} {
		ans, _ := s.session(u, inst)
		sessions[u.ID] = ans.Session
	}
	// Carol's page, over a pipe, says hello and never reads again.
	pl := newPipeListener()
	hs := &http.Server{Handler: s.web.Handler()}
	go hs.Serve(pl)
	defer hs.Close()
	d := websocket.Dialer{NetDial: pl.dial, HandshakeTimeout: 5 * time.Second}
	stuck, _, err := d.Dial("ws://pipe/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	if err := stuck.WriteJSON(map[string]string{"hello": sessions[carol.ID]}); err != nil {
		t.Fatal(err)
	}
	// Bob's page reads.
	live := s.open("bob", sessions[bob.ID])
	users := []fakediscord.User{alice, bob}
	for range 4 {
		mover := s.current(thread, users...)
		f := s.state(sessions[mover.ID])
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.act(sessions[mover.ID], map[string]any{"custom_id": f.Deck.ID})
			f2 := s.state(sessions[mover.ID])
			s.act(sessions[mover.ID], map[string]any{"custom_id": f2.Deck.ID})
		}()
		select {
		case <-done:
		case <-time.After(8 * time.Second): // far beyond a move's time: a move waiting for the stuck page
			t.Fatal("a move did not complete while a page does not read")
		}
		live.waitVersion(s.version(thread))
	}
}

// TestTheGamesEndClosesItsPages: when the game is ended, every page is
// told, and offered the replay.
func TestTheGamesEndClosesItsPages(t *testing.T) {
	s := newStack(t)
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	ans, _ := s.session(bob, inst)
	p := s.open("bob", ans.Session)
	p.waitVersion(s.version(thread))
	// The host ends the game, scoring it as it stands.
	c := s.handle(alice, thread, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "end", CanManage: true})
	if len(c.Messages()) == 0 {
		t.Fatal("/ttr end answered nothing")
	}
	stop := ""
	for _, row := range c.Messages()[0].Components {
		for _, b := range row {
			if strings.HasSuffix(b.ID, ":stop") {
				stop = b.ID
			}
		}
	}
	s.handle(alice, thread, commands.Request{Type: commands.ComponentRequest, CustomID: stop, CanManage: true})
	select {
	case <-p.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the page was not closed")
	}
	_, typ := p.latest()
	if typ != "over" || p.code != 4003 {
		t.Errorf("last frame %q, close code %d", typ, p.code)
	}
	if st, raw := s.call(ans.Session, "GET", "/api/state", nil); st != http.StatusOK || !strings.Contains(string(raw), `"over"`) {
		t.Errorf("state after the end: %d %s", st, raw)
	}
}
