package commands

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/engine"
	"conductor/present"
)

// fakeActivity records what the service tells the live page.
type fakeActivity struct {
	mu        sync.Mutex
	changed   []string
	launched  []Launch
	forgotten []string
}

func (a *fakeActivity) Launched(l Launch) {
	a.mu.Lock()
	a.launched = append(a.launched, l)
	a.mu.Unlock()
}

func (a *fakeActivity) Changed(ch string) {
	a.mu.Lock()
	a.changed = append(a.changed, ch)
	a.mu.Unlock()
}

func (a *fakeActivity) Forgotten(g string) {
	a.mu.Lock()
	a.forgotten = append(a.forgotten, g)
	a.mu.Unlock()
}

func (a *fakeActivity) ReplayURL(guild, game string) string {
	return "https://conductor.test/r/" + guild + "-" + game
}

// changes counts the changes told since the last call.
func (a *fakeActivity) changes() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := len(a.changed)
	a.changed = nil
	return n
}

// newActivityWorld is a world with the live page on.
func newActivityWorld(t *testing.T) (*world, *fakeActivity) {
	w := newWorld(t)
	fa := &fakeActivity{}
	w.configure(func(c *Config) { c.Activity, c.BotDelay = fa, 0 })
	return w, fa
}

// TestTheLivePageIsToldOfEveryChange: a lobby change, the start, a move,
// an undo, the end each tell the page; reading (the hand, the score) does
// not, and a view's version moves with the changes only.
func TestTheLivePageIsToldOfEveryChange(t *testing.T) {
	t.Parallel()
	w, fa := newActivityWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	if fa.changes() == 0 {
		t.Error("/ttr new: no change told")
	}
	w.cmd("u2", "ttr", "join", nil)
	if fa.changes() == 0 {
		t.Error("/ttr join: no change told")
	}
	w.cmd("u1", "ttr", "start", nil)
	if fa.changes() == 0 {
		t.Error("/ttr start: no change told")
	}
	for _, u := range []string{"u1", "u2"} {
		v, err := w.svc.View("c1", u, "en")
		if err != nil || v.Prompt == nil {
			t.Fatalf("%s: no ticket choice (%v)", u, err)
		}
		menu := v.Prompt.Components[0][0]
		w.click(u, menu.ID, menu.Options[0].Value, menu.Options[1].Value)
		if fa.changes() == 0 {
			t.Errorf("%s's first tickets: no change told", u)
		}
	}
	v1, _ := w.svc.View("c1", "", "en")
	w.cmd("u1", "score", "", nil)
	w.cmd("u2", "hand", "", nil)
	if n := fa.changes(); n != 0 {
		t.Errorf("reading the score and a hand told %d changes", n)
	}
	if v2, _ := w.svc.View("c1", "", "en"); v2.Version != v1.Version {
		t.Errorf("reading moved the version %d → %d", v1.Version, v2.Version)
	}
	g, gid := w.game("c1")
	cur := []string{"u1", "u2"}[g.Current()]
	var claim engine.Action
	for _, a := range g.LegalActions(g.Current(), nil) {
		if a.Kind == engine.ActClaim {
			claim = a
		}
	}
	if claim.Kind != engine.ActClaim {
		t.Fatal("nothing to claim")
	}
	w.playRequest(g, gid, cur, claim)
	if fa.changes() == 0 {
		t.Error("a claim: no change told")
	}
	a := w.cmd(cur, "ttr", "undo", nil)
	if fa.changes() == 0 {
		t.Errorf("an undo vote: no change told (%s)", a.msg.Content)
	}
	v3, _ := w.svc.View("c1", "", "en")
	if v3.Version <= v1.Version {
		t.Errorf("the version did not move with the moves: %d → %d", v1.Version, v3.Version)
	}
	end := w.do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "end", CanManage: true})
	stop := ""
	for _, row := range end.msg.Components {
		for _, c := range row {
			if strings.HasSuffix(c.ID, ":stop") {
				stop = c.ID
			}
		}
	}
	w.do(&Request{Type: ComponentRequest, User: "u1", CustomID: stop, CanManage: true})
	if fa.changes() == 0 {
		t.Error("the end: no change told")
	}
	if _, err := w.svc.View("c1", "u1", "en"); err != ErrNoGame {
		t.Errorf("the view of an ended game: %v", err)
	}
	w.do(&Request{Type: CommandRequest, User: "u1", Name: "ttr", Sub: "forget", CanManageServer: true, Options: map[string]string{"confirm": "true"}})
	if !slices.Equal(fa.forgotten, []string{"g1"}) {
		t.Errorf("forgotten %v", fa.forgotten)
	}
}

// TestViewShowsAHandOnlyToItsSeat: the private view, the prompt and the
// draws go to the seat's own user; another seat and a spectator get the
// public board only.
func TestViewShowsAHandOnlyToItsSeat(t *testing.T) {
	t.Parallel()
	w, _ := newActivityWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "europe"})
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	for _, u := range []string{"u1", "u2"} {
		v, _ := w.svc.View("c1", u, "en")
		menu := v.Prompt.Components[0][0]
		w.click(u, menu.ID, menu.Options[0].Value, menu.Options[1].Value, menu.Options[2].Value)
	}
	g, _ := w.game("c1")
	cur := g.Current()
	for i, u := range []string{"u1", "u2", "watcher"} {
		v, err := w.svc.View("c1", u, "fr")
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case u == "watcher":
			if v.Seat != -1 || v.Private != nil || v.Prompt != nil || v.Draws != nil || v.CanClaim {
				t.Errorf("the spectator's view: %+v", v)
			}
		default:
			if v.Seat != i || v.Private == nil || v.Private.Seat != i || len(v.Private.Tickets) != 3 {
				t.Errorf("%s's view: seat %d, private %v", u, v.Seat, v.Private != nil)
			}
			if (i == cur) != (v.Draws != nil && v.CanClaim) {
				t.Errorf("%s may draw %v and claim %v, current seat %d", u, v.Draws != nil, v.CanClaim, cur)
			}
		}
		if v.Public == nil || len(v.Public.Owners) != len(v.Board.Tracks) {
			t.Errorf("%s: no public board", u)
		}
	}
	v, _ := w.svc.View("c1", []string{"u1", "u2"}[cur], "fr")
	if len(v.Draws.FaceUp) != 5 || v.Draws.Deck == nil || v.Draws.Tickets == nil || !strings.HasPrefix(v.Draws.Deck.ID, "draw:") {
		t.Errorf("draws: %+v", v.Draws)
	}
	if v.Draws.Deck.Label != present.T("fr", "button.deck", "n", v.Public.Deck) {
		t.Errorf("the deck's label %q is not in the reader's language", v.Draws.Deck.Label)
	}
}

// TestLaunchAnswersWithTheActivity: the board's button, from a responder
// that can open Activities, opens one and reports the instance with the
// game; from one that cannot (the terminal) it says so.
func TestLaunchAnswersWithTheActivity(t *testing.T) {
	t.Parallel()
	w, fa := newActivityWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	_, gid := w.game("c1")
	id := cid("activity", gid, 0, "")
	r := &launcher{instance: "i-42"}
	w.nextID++
	w.svc.Handle(t.Context(), &Request{Type: ComponentRequest, ID: "launch-1", Guild: "g1", Channel: "c1", User: "u2", CustomID: id}, r)
	if r.launches != 1 || len(fa.launched) != 1 || fa.launched[0] != (Launch{Instance: "i-42", Guild: "g1", Channel: "c1", Game: gid, User: "u2"}) {
		t.Errorf("launch: %d, %+v", r.launches, fa.launched)
	}
	// A button of another game is old.
	r2 := &launcher{instance: "i-43"}
	w.svc.Handle(t.Context(), &Request{Type: ComponentRequest, ID: "launch-2", Guild: "g1", Channel: "c1", User: "u2", CustomID: cid("activity", "other", 0, "")}, r2)
	if a := answerOf(t, &r2.Recorder); r2.launches != 0 || !strings.Contains(a.msg.Content, present.T("", "stale.game")) {
		t.Errorf("an old game's button: %d launches, %q", r2.launches, a.msg.Content)
	}
	// A responder without Activities says the page is off.
	a := w.click("u2", id)
	if !strings.Contains(a.msg.Content, present.T("", "web.off")) {
		t.Errorf("the terminal's answer: %q", a.msg.Content)
	}
}

// launcher is a responder that opens Activities.
type launcher struct {
	Recorder
	instance string
	launches int
}

func (l *launcher) LaunchActivity() (string, error) {
	l.launches++
	return l.instance, nil
}

// TestTimerMovesTellThePage: a move the turn timer plays for an absent
// player tells the page, like any other.
func TestTimerMovesTellThePage(t *testing.T) {
	t.Parallel()
	w, fa := newActivityWorld(t)
	startedGame(t, w, map[string]string{"turn_timer": "9"})
	v1, _ := w.svc.View("c1", "", "en")
	fa.changes()
	for _, after := range []time.Duration{4 * time.Minute, 3 * time.Minute, 3 * time.Minute} {
		w.now = w.now.Add(after)
		w.svc.CheckTimers()
		w.svc.Quiet()
	}
	if fa.changes() == 0 {
		t.Fatal("the timer's moves told no change")
	}
	if v2, _ := w.svc.View("c1", "", "en"); v2.Version <= v1.Version {
		t.Errorf("the version did not move with the timer's moves: %d → %d", v1.Version, v2.Version)
	}
}
