package commands

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/data"
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

// TestViewNamesTheClaimableTracksToTheSeatToPlay: the view of the seat to
// play lists exactly the tracks its legal claims name (the rules' own
// answer for its hand); the other seat, a spectator, and the seat to play
// once it may no longer claim, get none.
func TestViewNamesTheClaimableTracksToTheSeatToPlay(t *testing.T) {
	w, _ := newActivityWorld(t)
	w.cmd("u1", "ttr", "new", map[string]string{"map": "usa"})
	w.cmd("u2", "ttr", "join", nil)
	w.cmd("u1", "ttr", "start", nil)
	for _, u := range []string{"u1", "u2"} {
		v, _ := w.svc.View("c1", u, "en")
		menu := v.Prompt.Components[0][0]
		w.click(u, menu.ID, menu.Options[0].Value, menu.Options[1].Value)
	}
	g, _ := w.game("c1")
	cur := g.Current()
	want := map[data.TrackID]bool{}
	for _, a := range g.LegalActions(cur, nil) {
		if a.Kind == engine.ActClaim {
			want[a.Track] = true
		}
	}
	if len(want) == 0 {
		t.Fatal("the seat to play can claim nothing: the test needs a deal where it can")
	}
	users := []string{"u1", "u2"}
	v, _ := w.svc.View("c1", users[cur], "en")
	got := map[data.TrackID]bool{}
	for _, id := range v.Claimable {
		got[id] = true
	}
	if len(got) != len(v.Claimable) || !maps.Equal(got, want) {
		t.Errorf("claimable %v, the legal claims name %v", v.Claimable, want)
	}
	for _, u := range []string{users[1-cur], "watcher"} {
		if v, _ := w.svc.View("c1", u, "en"); v.Claimable != nil {
			t.Errorf("%s, not to play, is told the claimable tracks %v", u, v.Claimable)
		}
	}
	// A first card drawn from the deck: the turn goes on, claims do not.
	w.cmd(users[cur], "draw", "", map[string]string{"card": "deck"})
	if v, _ := w.svc.View("c1", users[cur], "en"); v.Claimable != nil || v.CanClaim {
		t.Errorf("after a first draw: claimable %v, can claim %v", v.Claimable, v.CanClaim)
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

// TestOpenTableFromThePage: the page's form opens a lobby as /ttr new
// does, its asker seated first and a bot per level asked; what /ttr new
// refuses it refuses with the same words, and a level the bot lacks seats
// no bot and says why. The Entry Point pressed in a channel without a game
// opens the page (to set a table up) instead of only saying so.
func TestOpenTableFromThePage(t *testing.T) {
	w, fa := newActivityWorld(t)
	w.svc.cfg.Bots = testBots
	w.svc.cfg.BotLevels = []string{"easy", "normal"}
	choices := w.svc.TableChoices()
	if len(choices.Boards) < 3 || !slices.Equal(choices.BotLevels, []string{"easy", "normal"}) {
		t.Fatalf("the choices: %d boards, levels %v", len(choices.Boards), choices.BotLevels)
	}
	req := &Request{Type: CommandRequest, ID: "web:1", Guild: "g1", Channel: "c1", User: "u1", UserName: "Ada", Locale: "fr",
		Options: map[string]string{"map": "europe"}}
	ch, game, ans := w.svc.OpenTable(context.Background(), req, []string{"easy", "normal"})
	if ch == "" || game == "" {
		t.Fatalf("no table opened: %s", ans.Content)
	}
	v, err := w.svc.View(ch, "u1", "fr")
	if err != nil || !v.Lobby || v.Game != game || v.Board.ID != "europe" || v.Seat != 0 {
		t.Fatalf("the table opened: %+v (%v)", v, err)
	}
	if len(v.Seats) != 3 || v.Seats[0].User != "u1" || !v.Seats[1].Bot || !v.Seats[2].Bot {
		t.Errorf("its seats: %+v", v.Seats)
	}
	if v.TableLocale != "fr" {
		t.Errorf("the table speaks %q, its creator fr", v.TableLocale)
	}
	// What /ttr new refuses, the form is refused with the same words.
	bad := *req
	bad.ID, bad.Channel, bad.Options = "web:2", "c2", map[string]string{"map": "atlantis"}
	if ch, _, ans := w.svc.OpenTable(context.Background(), &bad, nil); ch != "" || !strings.Contains(ans.Content, "atlantis") {
		t.Errorf("an unknown map: %q, %q", ch, ans.Content)
	}
	// A level the bot lacks: the table opens with its asker only.
	odd := *req
	odd.ID, odd.Channel, odd.User, odd.Options = "web:3", "c3", "u2", map[string]string{"map": "usa"}
	ch, _, ans = w.svc.OpenTable(context.Background(), &odd, []string{"grandmaster"})
	if v, err := w.svc.View(ch, "u2", "en"); ch == "" || err != nil || len(v.Seats) != 1 || !strings.Contains(ans.Content, "grandmaster") {
		t.Errorf("an unknown level: channel %q, answer %q", ch, ans.Content)
	}

	// The Entry Point in a channel without a game launches the page, for
	// no game; in a DM it says how to start one.
	l := &launcher{instance: "i-7"}
	w.svc.Handle(t.Context(), &Request{Type: CommandRequest, ID: "ep-1", Guild: "g1", Channel: "c9", User: "u3", Name: EntryPointName}, l)
	if l.launches != 1 || len(fa.launched) == 0 || fa.launched[len(fa.launched)-1] != (Launch{Instance: "i-7", Guild: "g1", Channel: "c9", User: "u3"}) {
		t.Errorf("the Entry Point in an empty channel: %d launches, %+v", l.launches, fa.launched)
	}
	dm := &launcher{instance: "i-8"}
	w.svc.Handle(t.Context(), &Request{Type: CommandRequest, ID: "ep-2", Channel: "d1", DM: true, User: "u3", Name: EntryPointName}, dm)
	if a := answerOf(t, &dm.Recorder); dm.launches != 0 || !strings.Contains(a.msg.Content, "/ttr new") {
		t.Errorf("the Entry Point in a DM: %d launches, %q", dm.launches, a.msg.Content)
	}
}
