package commands

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/engine"
)

// lockSpy reports any network call made where a table's lock may be held.
// Table locks are held only inside the handlers, the timer and the bots'
// turns; so a post must come from a channel's sender, an answer from the
// answers held until the handler returned, and a DM from outside atTable.
// (A spy that tried the locks themselves would see other goroutines'
// legitimate holds.)
type lockSpy struct {
	mu         sync.Mutex
	violations []string
}

func (l *lockSpy) check(what string, must string, mustNot ...string) {
	buf := make([]byte, 64<<10)
	stack := string(buf[:runtime.Stack(buf, false)])
	bad := !strings.Contains(stack, must)
	for _, f := range mustNot {
		bad = bad || strings.Contains(stack, f)
	}
	if bad {
		l.mu.Lock()
		l.violations = append(l.violations, what+":\n"+stack)
		l.mu.Unlock()
	}
}

type spyPoster struct {
	*fakePoster
	spy *lockSpy
}

func (p spyPoster) Post(ch string, m Message) (string, error) {
	p.spy.check("post", "commands.(*Service).deliver(")
	return p.fakePoster.Post(ch, m)
}

func (p spyPoster) DM(user string, m Message) error {
	p.spy.check("dm", "commands.(*Service).handCommand(", "commands.(*Service).atTable(")
	return p.fakePoster.DM(user, m)
}

type spyResponder struct {
	fakeResponder
	spy *lockSpy
}

func (r *spyResponder) Reply(m Message) error {
	r.spy.check("reply", "(*heldReplies).sendTo(")
	return r.fakeResponder.Reply(m)
}
func (r *spyResponder) Update(m Message) error {
	r.spy.check("update", "(*heldReplies).sendTo(")
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
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 1 }) }, "the bot plays")
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
