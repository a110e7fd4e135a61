package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// tapOn taps the middle of the page's element sel with a finger.
func (tb *tab) tapOn(sel string) {
	tb.t.Helper()
	js, _ := json.Marshal(sel)
	pt := eval[[]float64](tb, fmt.Sprintf(`const f = document.getElementById('activity').getBoundingClientRect();
		const e = frame().querySelector(%s); if (!e) return [];
		e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect(); return [f.left + r.left + r.width / 2, f.top + r.top + r.height / 2];`, js))
	if len(pt) != 2 {
		tb.t.Fatalf("%s's page has no %s: %s", tb.name, sel, eval[string](tb, "return frame().body.innerText;"))
	}
	tb.tap(pt[0], pt[1])
}

// setupTable is the Entry Point pressed by host in a new channel without a
// game: the activity's instance, with others joined in it.
func (s *stack) setupTable(host fakediscord.User, others ...fakediscord.User) (channel, instance string) {
	s.t.Helper()
	empty := s.srv.CreateTextChannel(s.guild.ID, fmt.Sprint("empty-", s.seq.Add(1)))
	h, _, err := s.srv.RunEntryPoint(host.ID, empty.ID)
	if err != nil {
		s.t.Fatal(err)
	}
	cb, err := h.WaitCallback()
	if err != nil || cb.Type != fakediscord.CallbackLaunchActivity {
		s.t.Fatalf("the Entry Point in an empty channel answered %d %s (%v)", cb.Type, cb.Data, err)
	}
	for _, u := range others {
		s.srv.JoinActivity(u.ID, cb.ActivityInstance)
	}
	return empty.ID, cb.ActivityInstance
}

// TestBrowserLaunchInAnEmptyChannelSetsUpATable: on phones, "Launch" in a
// channel without a game opens the page on a table to set up; its host
// chooses USA and a bot and opens it; the other reader's page lists the
// table, opens it and joins with the lobby's Join; the host starts the
// game from the page, and the host's page shows the first tickets to
// choose.
func TestBrowserLaunchInAnEmptyChannelSetsUpATable(t *testing.T) {
	root := browser(t)
	s := newStack(t, stackOptions{mux: clientMux, entryPoint: fakediscord.HandlerDiscordLaunch, bots: true})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	channel, inst := s.setupTable(alice, bob)
	tabs := s.openTabs(root, inst, channel, phone, alice, bob)
	failed := true
	defer func() {
		if failed {
			dir := t.TempDir()
			for _, tb := range tabs {
				tb.screenshot(dir)
			}
		}
	}()
	host, guest := tabs[alice.ID], tabs[bob.ID]
	for _, tb := range tabs {
		if !tb.waitFor("the form", "frame().getElementById('setup-open')", 20*time.Second) {
			t.Fatalf("%s's page shows no form: %s", tb.name, eval[string](tb, "return frame() ? frame().body.innerText : 'no frame';"))
		}
	}
	eval[bool](host, `const d = frame(), set = (id, v) => { const e = d.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
		set('setup-board', 'usa'); set('setup-bots', '1'); set('setup-level', 'hard'); return true;`)
	if seats := eval[string](host, "return frame().getElementById('setup-seats').innerText;"); !strings.Contains(seats, "hard") {
		t.Errorf("the form's seats after one hard bot: %q", seats)
	}
	host.tapOn("#setup-open")
	if !host.waitFor("the lobby", "frame().querySelector('#lobby-box:not([hidden]) button[data-id]')", 10*time.Second) {
		t.Fatalf("no lobby after opening the table: %s", eval[string](host, "return frame().body.innerText;"))
	}
	threads := s.srv.Threads(channel)
	if len(threads) != 1 {
		t.Fatalf("the table opened %d threads", len(threads))
	}
	thread := threads[0].ID
	v, err := s.svc.View(thread, alice.ID, "en")
	if err != nil || !v.Lobby || v.Board.ID != "usa" || len(v.Seats) != 2 || v.Seat != 0 || !v.Seats[1].Bot {
		t.Fatalf("the table opened: %+v (%v)", v, err)
	}
	if n := eval[int](host, "return frame().querySelectorAll('#players .player').length;"); n != 2 {
		t.Errorf("the lobby shows %d seats, want alice and the bot", n)
	}
	// Bob's page, still on the form, finds the table and joins it.
	if !guest.waitFor("the table listed", "frame().querySelector('#setup-tables:not([hidden]) button[data-channel]')", 10*time.Second) {
		t.Fatalf("bob's form lists no table: %s", eval[string](guest, "return frame().body.innerText;"))
	}
	guest.tapOn("#setup-tables button[data-channel]")
	if !guest.waitFor("the lobby", "frame().querySelector('#lobby-box:not([hidden]) button[data-id*=\":join\"]')", 10*time.Second) {
		t.Fatalf("bob's page shows no lobby: %s", eval[string](guest, "return frame().body.innerText;"))
	}
	guest.tapOn("#lobby-box button[data-id*=':join']")
	if err := s.srv.WaitFor("bob seated", func() bool { v, _ := s.svc.View(thread, bob.ID, "en"); return v != nil && v.Seat == 2 }); err != nil {
		t.Fatalf("bob's Join seated nobody: %s", eval[string](guest, "return frame().getElementById('reply').innerText;"))
	}
	if !host.waitFor("bob in the lobby", "frame().querySelectorAll('#players .player').length === 3", 5*time.Second) {
		t.Error("the host's page does not show bob seated")
	}
	host.tapOn("#lobby-box button[data-id*=':start']")
	if !host.waitFor("the first tickets", "frame().querySelector('#prompt:not([hidden]) input[type=checkbox]')", 10*time.Second) {
		t.Fatalf("no tickets to choose after the start: %s", eval[string](host, "return frame().body.innerText;"))
	}
	if v, _ := s.svc.View(thread, "", "en"); v == nil || v.Lobby {
		t.Error("the game did not start")
	}
	s.srv.CheckClean(t)
	failed = t.Failed()
}
