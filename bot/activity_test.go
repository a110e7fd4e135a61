package bot_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"conductor/commands"
	"conductor/internal/fakediscord"
	"conductor/present"
	"conductor/store"
)

// liveStub is the live page as the commands see it (web/ in production):
// it records the instances launched.
type liveStub struct {
	mu       sync.Mutex
	launched []commands.Launch
}

func (l *liveStub) Launched(x commands.Launch) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.launched = append(l.launched, x)
}
func (l *liveStub) Changed(string)                      {}
func (l *liveStub) Forgotten(string)                    {}
func (l *liveStub) ReplayURL(guild, game string) string { return "" }

func (l *liveStub) launches() []commands.Launch {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.launched)
}

// handled waits until the bot has handled the interaction (every answer it
// makes has then been tried) and returns its callback, if Discord took one.
func (e *env) handled(h *fakediscord.InteractionHandle, err error) (fakediscord.Callback, bool) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.tracker.wait(h.ID, 1); err != nil {
		e.t.Fatal(err)
	}
	return h.Callback()
}

// openBoard presses the live board's "Open the board" button.
func (tb *table) openBoard(user fakediscord.User) (*fakediscord.InteractionHandle, error) {
	tb.e.t.Helper()
	b, ok := tb.board()
	id := button(b, "activity:", "")
	if !ok || id == "" {
		tb.e.t.Fatalf("the board has no button to open the live page: %+v", b.Buttons())
	}
	return tb.e.srv.ClickButton(user.ID, b.ID, id)
}

// TestRefusedLaunchIsAnsweredWithANote: Discord refuses LAUNCH_ACTIVITY
// (the application's Activities are off): the interaction is still
// unanswered, so the player's note is its first answer, not a follow-up of
// an interaction Discord never acknowledged ("This interaction failed").
func TestRefusedLaunchIsAnsweredWithANote(t *testing.T) {
	t.Parallel()
	live := &liveStub{}
	e := newEnv(t, envOptions{activity: live})
	e.srv.CreateEntryPoint(fakediscord.HandlerApp)
	tb := startedTable(t, e, "table")
	e.srv.TurnOffActivities()
	alice := tb.players[0]
	for _, c := range []struct {
		name   string
		launch func() (*fakediscord.InteractionHandle, error)
	}{
		{"board button", func() (*fakediscord.InteractionHandle, error) { return tb.openBoard(alice) }},
		{"Entry Point", func() (*fakediscord.InteractionHandle, error) {
			h, _, err := e.srv.RunEntryPoint(alice.ID, tb.ch.ID)
			return h, err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := e.as(t)
			h, err := c.launch()
			cb, ok := e.handled(h, err)
			if !ok || cb.Type != fakediscord.CallbackMessage {
				t.Fatalf("the refused launch was answered with %+v (answered: %v), not the note", cb, ok)
			}
			m, _ := h.Original()
			if !m.Ephemeral() || m.VisibleTo != alice.ID || m.Body() != present.T("", "web.launch_failed") {
				t.Errorf("the note: %+v", m)
			}
			if fs := h.Followups(); len(fs) != 0 {
				t.Errorf("follow-ups after the note: %+v", fs)
			}
		})
	}
	if l := live.launches(); len(l) != 0 {
		t.Errorf("a refused launch was recorded: %+v", l)
	}
	e.srv.CheckClean(t)
}

// TestLaunchReadsTheInstanceWhereverDiscordNamesIt: the answer to
// LAUNCH_ACTIVITY names the instance in interaction.activity_instance_id,
// in resource.activity_instance.id or in both (each optional in Discord's
// pages): the launch is recorded with it in every case.
func TestLaunchReadsTheInstanceWhereverDiscordNamesIt(t *testing.T) {
	t.Parallel()
	live := &liveStub{}
	e := newEnv(t, envOptions{activity: live})
	tb := startedTable(t, e, "table")
	for i, names := range []fakediscord.LaunchNames{fakediscord.LaunchNamesInteraction, fakediscord.LaunchNamesResource, fakediscord.LaunchNamesBoth} {
		e.srv.SetLaunchNames(names)
		p := tb.players[i%len(tb.players)]
		before := len(live.launches())
		h, err := tb.openBoard(p)
		cb, ok := e.handled(h, err)
		if !ok || cb.Type != fakediscord.CallbackLaunchActivity || cb.ActivityInstance == "" {
			t.Fatalf("names %d: answered with %+v (answered: %v)", names, cb, ok)
		}
		got := live.launches()[before:]
		if len(got) != 1 || got[0].Instance != cb.ActivityInstance || got[0].User != p.ID || got[0].Channel != tb.ch.ID || got[0].Game == "" {
			t.Errorf("names %d: launches %+v, want one of the instance %s", names, got, cb.ActivityInstance)
		}
		if fs := h.Followups(); len(fs) != 0 {
			t.Errorf("names %d: a follow-up after the launch: %q", names, fs[0].Body())
		}
	}
	e.srv.CheckClean(t)
}

// errHeld rolls back the transaction that holds the store.
var errHeld = errors.New("the test held the store")

// TestBoardButtonLaunchesWhileTheTableIsBusy: a move holds the table's lock
// (its commit waits for the store) past the deferral delay; the "Open the
// board" button is still answered with LAUNCH_ACTIVITY, from the table's
// snapshot, and not with a deferral after which no launch can follow.
func TestBoardButtonLaunchesWhileTheTableIsBusy(t *testing.T) {
	t.Parallel()
	live := &liveStub{}
	e := newEnv(t, envOptions{activity: live, deferAfter: 400 * time.Millisecond})
	tb := startedTable(t, e, "table")
	cur, b := tb.current()
	var other fakediscord.User
	for _, p := range tb.players {
		if p.ID != cur.ID {
			other = p
		}
	}
	// The store is held: the move's commit waits, the table locked.
	entered, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- e.st.Update(tb.ch.ID, func(*store.GameRecord) error {
			close(entered)
			<-release
			return errHeld
		})
	}()
	<-entered
	released := false
	free := func() {
		if !released {
			released = true
			close(release)
			if err := <-held; !errors.Is(err, errHeld) {
				t.Errorf("holding the store: %v", err)
			}
		}
	}
	defer free()
	move, err := e.srv.ClickButton(cur.ID, b.ID, button(b, "draw:", ":deck"))
	if err != nil {
		t.Fatal(err)
	}
	// Deferred: the move has been waiting, with the table locked, past the
	// delay.
	if _, err := move.WaitCallback(); err != nil {
		t.Fatal(err)
	}
	h, err := tb.openBoard(other)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	free()
	if err != nil {
		t.Fatal(err)
	}
	if cb.Type != fakediscord.CallbackLaunchActivity {
		t.Fatalf("the button was answered with callback %d while the table was busy, not LAUNCH_ACTIVITY", cb.Type)
	}
	e.handled(h, nil)
	if got := live.launches(); len(got) != 1 || got[0].Instance != cb.ActivityInstance || got[0].User != other.ID {
		t.Errorf("launches %+v", got)
	}
	e.finish(move, nil)
	e.srv.CheckClean(t)
}
