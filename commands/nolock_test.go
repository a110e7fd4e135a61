package commands

import (
	"context"
	"sync"
	"testing"
	"time"
)

// lockSpy reports any table lock held while the service talks to the
// network: a post, a DM or an interaction's answer.
type lockSpy struct {
	svc        *Service
	mu         sync.Mutex
	violations []string
}

func (l *lockSpy) check(what string) {
	l.svc.mu.Lock()
	tables := make([]*table, 0, len(l.svc.channels))
	for _, t := range l.svc.channels {
		tables = append(tables, t)
	}
	l.svc.mu.Unlock()
	for _, t := range tables {
		if !t.mu.TryLock() {
			l.mu.Lock()
			l.violations = append(l.violations, what)
			l.mu.Unlock()
			continue
		}
		t.mu.Unlock()
	}
}

type spyPoster struct {
	*fakePoster
	spy *lockSpy
}

func (p spyPoster) Post(ch string, m Message) (string, error) {
	p.spy.check("post")
	return p.fakePoster.Post(ch, m)
}

func (p spyPoster) DM(user string, m Message) error {
	p.spy.check("dm")
	return p.fakePoster.DM(user, m)
}

type spyResponder struct {
	fakeResponder
	spy *lockSpy
}

func (r *spyResponder) Reply(m Message) error { r.spy.check("reply"); return r.fakeResponder.Reply(m) }
func (r *spyResponder) Update(m Message) error {
	r.spy.check("update")
	return r.fakeResponder.Update(m)
}

// TestNoNetworkUnderATableLock: moves, a DM'd hand, an undo, the turn
// timer's reminder and move, a bot's turn and the end all reach the
// network with no table locked.
func TestNoNetworkUnderATableLock(t *testing.T) {
	w := newWorld(t)
	spy := &lockSpy{}
	w.svc.cfg.Poster = spyPoster{w.poster, spy}
	w.svc.cfg.Bots = testBots
	w.svc.cfg.BotLevels = []string{"easy", "normal"}
	spy.svc = w.svc
	do := func(req *Request) {
		w.nextID++
		req.ID, req.Channel, req.Guild, req.UserName = "s"+time.Now().String(), "c1", "g1", "name-"+req.User
		r := &spyResponder{spy: spy}
		w.svc.Handle(context.Background(), req, r)
		w.svc.Quiet()
	}
	gid := startedGame(t, w, map[string]string{"turn_timer": "9"})
	do(&Request{Type: ComponentRequest, User: "u1", CustomID: "draw:" + gid + ":0:deck"})
	do(&Request{Type: ComponentRequest, User: "u1", CustomID: "draw:" + gid + ":0:deck"})
	do(&Request{Type: CommandRequest, User: "u2", Name: "hand", Options: map[string]string{"dm": "true"}})
	do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "undo"})
	w.now = w.now.Add(4 * time.Minute)
	w.svc.CheckTimers() // a reminder
	w.now = w.now.Add(6 * time.Minute)
	w.svc.CheckTimers() // u2's turn played by the timer
	w.svc.Quiet()
	do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "leave"}) // a bot takes u1's seat and plays
	waitFor(t, func() bool { g, _ := w.game("c1"); return g != nil && g.Current() == 1 }, "the bot plays")
	w.svc.Quiet()
	do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "end", CanManage: true})
	if len(w.poster.all("c1")) < 3 || len(w.poster.dms["u2"]) != 1 {
		t.Fatalf("the scenario posted %d messages and %d DMs", len(w.poster.all("c1")), len(w.poster.dms["u2"]))
	}
	spy.mu.Lock()
	defer spy.mu.Unlock()
	if len(spy.violations) > 0 {
		t.Fatalf("network under a table lock: %v", spy.violations)
	}
}
