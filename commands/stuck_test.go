package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"conductor/engine"
	"conductor/store"
)

// stuckPoster is a Discord that never answers a post or a DM (until the
// test ends).
type stuckPoster struct {
	*fakePoster
	release <-chan struct{}
}

func (p stuckPoster) Post(ctx context.Context, ch string, m Message) (string, error) {
	<-p.release
	return p.fakePoster.Post(ctx, ch, m)
}

func (p stuckPoster) DM(ctx context.Context, user string, m Message) error {
	<-p.release
	return p.fakePoster.DM(ctx, user, m)
}

// stuckResponder never finishes answering (until the test ends).
type stuckResponder struct{ release <-chan struct{} }

func (r stuckResponder) Reply(Message) error    { <-r.release; return nil }
func (r stuckResponder) Update(Message) error   { <-r.release; return nil }
func (r stuckResponder) Ack() error             { <-r.release; return nil }
func (r stuckResponder) Choices([]Choice) error { <-r.release; return nil }
func (r stuckResponder) FollowUp(Message) error { <-r.release; return nil }

// TestStuckDiscordBlocksNobodyElse: Discord stops answering, the posts
// and DMs of the table and one player's answers hang forever, and every
// other request at the table is still answered: a move, /hand, /score, the
// turn timer, a bot's turn and the end of the game. Nothing waits for the
// network while it holds the table.
func TestStuckDiscordBlocksNobodyElse(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.bots(testBots, "easy", "normal")
	gid := startedGame(t, w, map[string]string{"turn_timer": "9"})
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // before the service closes
	w.setPoster(stuckPoster{w.poster, release})

	n := 0
	send := func(req *Request, r Responder) {
		n++
		req.ID, req.Channel, req.Guild, req.UserName = fmt.Sprint("stuck", n), "c1", "g1", "name-"+req.User
		go w.svc.Handle(context.Background(), req, r)
	}
	// answered sends a request and waits for its answer. The wait is a
	// liveness bound, not a measure: what it catches waits forever.
	answered := func(what string, req *Request) answer {
		t.Helper()
		r := &Recorder{}
		send(req, r)
		select {
		case <-r.Answered():
			return answerOf(t, r)
		case <-time.After(20 * time.Second):
			t.Fatalf("%s was never answered: the table waits for Discord", what)
			return answer{}
		}
	}
	cmd := func(user, name, sub string, opts map[string]string) *Request {
		return &Request{Type: CommandRequest, User: user, Name: name, Sub: sub, Options: opts}
	}
	click := func(user, id string) *Request { return &Request{Type: ComponentRequest, User: user, CustomID: id} }

	// u1 draws twice; the board's post hangs, and so does u1's answer.
	send(click("u1", "draw:"+gid+":0:deck"), stuckResponder{release})
	waitFor(t, func() bool {
		return w.under("c1", func(g *engine.Game) bool { return g.Phase() == engine.PhaseSecondDraw })
	}, "u1's first draw")
	send(click("u1", "draw:"+gid+":0:deck"), stuckResponder{release})
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 1 }) }, "u1's turn ends")
	// u2's hand sent by DM hangs; u2 and u1 are answered meanwhile.
	send(cmd("u2", "hand", "", map[string]string{"dm": "true"}), stuckResponder{release})
	answered("/hand", cmd("u2", "hand", "", nil))
	answered("/score", cmd("u1", "score", "", nil))
	answered("/board", cmd("u1", "board", "", nil))
	if a := answered("u2's draw", click("u2", "draw:"+gid+":1:deck")); a.kind != "update" && a.kind != "reply" {
		t.Fatalf("u2's draw: %+v", a)
	}
	answered("u2's second draw", click("u2", "draw:"+gid+":1:deck"))
	// The turn timer reminds u1 and then plays for u1.
	for _, step := range []time.Duration{4 * time.Minute, 6 * time.Minute} {
		w.now = w.now.Add(step)
		fired := make(chan struct{})
		go func() { w.svc.CheckTimers(); close(fired) }()
		select {
		case <-fired:
		case <-time.After(20 * time.Second):
			t.Fatal("the turn timer waits for Discord")
		}
	}
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 1 }) }, "the timer plays u1's turn")
	// u2 leaves: a bot takes the seat and plays its turns.
	answered("/ttr leave", cmd("u2", "ttr", "leave", nil))
	waitFor(t, func() bool { return w.under("c1", func(g *engine.Game) bool { return g.Current() == 0 }) }, "the bot plays")
	answered("/hand after the bot", cmd("u1", "hand", "", nil))
	end := cmd("u1", "ttr", "end", nil)
	end.CanManage = true
	ask := answered("/ttr end", end)
	score := findButton(ask.msg, "end:")
	for _, row := range ask.msg.Components {
		for _, c := range row {
			if strings.HasSuffix(c.ID, ":score") {
				score = c.ID
			}
		}
	}
	scored := click("u1", score)
	scored.CanManage = true
	answered("ending the game with its score", scored)
	if rec, err := w.store.Get("c1"); err == nil && rec.Status == store.StatusPlaying {
		t.Fatalf("the game was not ended: %+v", rec.Status)
	}
}

// hangingPoster is a Discord that answers no post until the request's
// context ends.
type hangingPoster struct {
	*fakePoster
	started chan struct{}
}

func (p hangingPoster) Post(ctx context.Context, ch string, m Message) (string, error) {
	select {
	case p.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return "", ctx.Err()
}

// TestCloseEndsAPostInFlight: the service closes while Discord holds a
// board's post. Close ends the request instead of waiting for Discord;
// the board stays queued and goes out after the restart.
func TestCloseEndsAPostInFlight(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gid := startedGame(t, w, nil)
	started := make(chan struct{}, 1)
	w.setPoster(hangingPoster{w.poster, started})
	r := &Recorder{}
	go w.svc.Handle(context.Background(), &Request{Type: ComponentRequest, ID: "d1", Channel: "c1", Guild: "g1", User: "u1", CustomID: "draw:" + gid + ":0:deck"}, r)
	<-r.Answered()
	r = &Recorder{}
	go w.svc.Handle(context.Background(), &Request{Type: ComponentRequest, ID: "d2", Channel: "c1", Guild: "g1", User: "u1", CustomID: "draw:" + gid + ":0:deck"}, r)
	<-r.Answered()
	<-started
	closed := make(chan struct{})
	go func() { w.svc.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close waits for Discord to answer a post")
	}
	if entries, err := w.store.Outbox("c1"); err != nil || len(entries) == 0 {
		t.Fatalf("the board left the outbox unsent: %d entries, %v", len(entries), err)
	}
	before := len(w.poster.all("c1"))
	w.restart()
	if err := w.svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.svc.Quiet()
	if len(w.poster.all("c1")) <= before {
		t.Fatal("the board was not posted after the restart")
	}
}
