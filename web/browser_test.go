package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"conductor/internal/fakediscord"
	"conductor/present"
)

// The browser test: real Chromium (Debian's chromium), the real page with
// the real Embedded App SDK, in an iframe of a test page that plays the
// Discord client (testdata/discord-client.js), three readers at once.

// requireBrowser, set by CI (.ci/run), turns a missing Chromium into a
// failure instead of a skip.
const requireBrowser = "CONDUCTOR_REQUIRE_BROWSER"

// chromiumPath finds Chromium, or skips (fails under CI) saying how to get it.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CONDUCTOR_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "Chromium is not installed, so the browser test of the live page did not run: install it (Debian: apt-get install chromium) or set CONDUCTOR_CHROMIUM to a Chrome binary"
	if os.Getenv(requireBrowser) == "1" {
		t.Fatal(msg + " (" + requireBrowser + "=1: required here)")
	}
	t.Skip(msg)
	return ""
}

// browser starts a headless Chromium for the test, with a fresh profile.
func browser(t testing.TB) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// The viewports of the page: a desktop client's and a phone's.
var (
	desktop = chromedp.EmulateViewport(1280, 800)
	phone   = chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait, chromedp.EmulateTouch)
	// phoneHiDPI is the phone at two device pixels a CSS pixel, as phones
	// show pages (the documentation's pictures, to judge what reads).
	phoneHiDPI = chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait, chromedp.EmulateTouch, chromedp.EmulateScale(2))
)

// tab is one reader's Discord client, in a browser context of its own.
type tab struct {
	t    testing.TB
	name string
	ctx  context.Context
}

// clientMux serves the test's Discord client beside the page.
func clientMux(page http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/_test/", http.StripPrefix("/_test/", http.FileServer(http.Dir("testdata"))))
	mux.Handle("/", page)
	return mux
}

// openTabs opens the page as each user inside the test's Discord client,
// all at once.
func (s *stack) openTabs(root context.Context, instance, channel string, viewport chromedp.Action[chromedp.Void], users ...fakediscord.User) map[string]*tab {
	s.t.Helper()
	tabs := map[string]*tab{}
	errs := make(chan error, len(users))
	for _, u := range users {
		ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
		s.t.Cleanup(cancel)
		tabs[u.ID] = &tab{t: s.t, name: u.Username, ctx: ctx}
		q := url.Values{"user": {u.ID}, "name": {u.Username}, "code": {s.srv.OAuthCode(u.ID)}, "instance": {instance},
			"guild": {s.guild.ID}, "channel": {channel}, "app": {s.srv.AppID()}}
		go func() {
			errs <- chromedp.Do(ctx, viewport, chromedp.Navigate(s.http.URL+"/_test/discord-client.html?"+q.Encode()))
		}()
	}
	for range users {
		if err := <-errs; err != nil {
			s.t.Fatal(err)
		}
	}
	return tabs
}

// eval runs JavaScript in the client's top frame; frame() is the page's
// document, frameWin() its window.
func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	expr := "(() => { const frame = () => (document.getElementById('activity') || {}).contentDocument || document; " +
		"const frameWin = () => document.getElementById('activity').contentWindow; " + js + " })()"
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("%s: %v\n%s", tb.name, err, js)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds or the time is up.
func (tb *tab) waitFor(what, js string, within time.Duration) bool {
	tb.t.Helper()
	deadline := time.Now().Add(within)
	for {
		if eval[bool](tb, "try { return !!("+js+"); } catch (e) { return false; }") {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// screenshot saves the tab's picture for a failing test.
func (tb *tab) screenshot(dir string) {
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Logf("%s: no screenshot: %v", tb.name, err)
		return
	}
	p := filepath.Join(dir, tb.name+".png")
	os.WriteFile(p, png, 0o644)
	tb.t.Logf("%s's page: %s", tb.name, p)
}

// TestBrowserThreeReadersAndAClick: two players and a spectator open the
// board in Chromium through the real SDK and a page that plays Discord;
// the player to play clicks a route. The engine has the claim, the
// thread gets its board, the two other pages show the new owner within 2 s
// without a reload, and neither ever holds the mover's hand or tickets.
func TestBrowserThreeReadersAndAClick(t *testing.T) {
	begin := time.Now()
	step := func(what string) { t.Logf("%6.2fs %s", time.Since(begin).Seconds(), what) }
	root := browser(t)
	step("Chromium started")
	s := newStack(t, stackOptions{mux: clientMux})
	alice, bob, carol := s.srv.CreateUser("alice"), s.srv.CreateUser("bob"), s.srv.CreateUser("carol")
	_, thread := s.game(alice, bob)
	inst := s.launch(alice, thread)
	if err := s.srv.JoinActivity(bob.ID, inst); err != nil {
		t.Fatal(err)
	}
	s.srv.JoinActivity(carol.ID, inst)
	mover := s.current(thread, alice, bob)
	other := bob
	if mover.ID == bob.ID {
		other = alice
	}
	step("game ready")
	tabs := s.openTabs(root, inst, thread, desktop, mover, other, carol)
	step("three pages opened")
	failed := true
	defer func() {
		if failed {
			dir := t.TempDir()
			for _, tb := range tabs {
				tb.screenshot(dir)
				t.Logf("%s's SDK frames: %v", tb.name, eval[[]string](tb, "return window.sdkLog || [];"))
			}
		}
	}()
	for _, tb := range tabs {
		if !tb.waitFor("the board", "frame().querySelector('svg g.track[data-ref]') && frame().getElementById('status').textContent", 20*time.Second) {
			t.Fatalf("%s's page shows no board: %s", tb.name, eval[string](tb, "return frame() ? frame().body.innerText : 'no frame';"))
		}
		step(tb.name + "'s board")
		// A mark in the page's window: gone if the page reloads.
		eval[bool](tb, "frameWin().__noReload = true; return true;")
	}
	step("three pages show the board")
	// The SDK spoke the protocol: handshake, then authorise.
	if log := eval[[]string](tabs[mover.ID], "return window.sdkLog;"); len(log) < 2 || log[0] != "HANDSHAKE" || log[1] != "AUTHORIZE" {
		t.Errorf("the SDK's frames: %v", log)
	}
	moverSecrets := s.secrets(thread, mover)
	scan := func(when string) {
		for _, u := range []fakediscord.User{other, carol} {
			dom := eval[string](tabs[u.ID], "return frame().documentElement.outerHTML + frame().documentElement.textContent;")
			for _, secret := range moverSecrets {
				if strings.Contains(dom, secret) {
					t.Errorf("%s: %s's page holds %s's %q", when, u.Username, mover.Username, secret)
				}
			}
		}
		if eval[bool](tabs[carol.ID], "return !frame().getElementById('hand-box').hidden || frame().getElementById('hand').children.length > 0 || frame().getElementById('tickets').children.length > 0;") {
			t.Errorf("%s: the spectator's page shows a hand or tickets", when)
		}
	}
	scan("before the move")
	// The other player's page shows their own hand, and only it.
	ov, _ := s.svc.View(thread, other.ID, "en")
	wantKinds := 0
	for _, n := range ov.Private.Hand {
		if n > 0 {
			wantKinds++
		}
	}
	if got := eval[int](tabs[other.ID], "return frame().querySelectorAll('#hand .card').length;"); got != wantKinds {
		t.Errorf("%s's page shows %d kinds of cards, %s holds %d", other.Username, got, other.Username, wantKinds)
	}

	// The mover clicks a route: a real mouse click where the track is drawn.
	tr, ref := s.claimable(thread, mover)
	js, _ := json.Marshal(ref)
	pt := eval[[]float64](tabs[mover.ID], fmt.Sprintf(`
		const f = document.getElementById('activity'), d = frame();
		const g = d.querySelector('g.track[data-ref=' + CSS.escape(%s) + ']');
		g.scrollIntoView({block: 'center', inline: 'center'});
		const fr = f.getBoundingClientRect();
		for (const car of g.querySelectorAll('.car')) {
			const r = car.getBoundingClientRect();
			const x = r.left + r.width / 2, y = r.top + r.height / 2;
			const hit = d.elementFromPoint(x, y);
			if (hit && hit.closest('g.track') === g) return [fr.left + x, fr.top + y];
		}
		return [];`, js))
	if len(pt) != 2 {
		t.Fatalf("the track %s cannot be clicked: covered everywhere", ref)
	}
	if err := chromedp.Do(tabs[mover.ID].ctx, chromedp.MouseClickXY(pt[0], pt[1])); err != nil {
		t.Fatal(err)
	}
	step("clicked")
	// (a) The engine has the claim.
	seat := -1
	if err := s.srv.WaitFor("the claim in the engine", func() bool {
		v, err := s.svc.View(thread, "", "en")
		if err == nil {
			seat = int(v.Public.Owners[tr])
		}
		return seat >= 0
	}); err != nil {
		t.Fatalf("the click claimed nothing: %s", eval[string](tabs[mover.ID], "return frame().getElementById('reply').innerText;"))
	}
	committed := time.Now()
	rec, _ := s.st.Get(thread)
	if seat != seatOf(rec, mover.ID) || !strings.HasPrefix(rec.Log[len(rec.Log)-1].Interaction, "web:") {
		t.Errorf("the track went to seat %d by %q", seat, rec.Log[len(rec.Log)-1].Interaction)
	}
	// (b) The other pages show the new owner within 2 s, without a reload.
	owned := fmt.Sprintf("frame().querySelector('g.track[data-ref=' + CSS.escape(%s) + ']').getAttribute('data-owner') === '%d'", js, seat)
	for _, u := range []fakediscord.User{other, carol} {
		if !tabs[u.ID].waitFor("the new owner", owned, 2*time.Second-time.Since(committed)) {
			t.Errorf("%s's page does not show the claim within 2 s of the move", u.Username)
		} else {
			t.Logf("%s's page showed the claim %v after the move", u.Username, time.Since(committed).Round(time.Millisecond))
		}
		if !eval[bool](tabs[u.ID], "return frameWin().__noReload === true;") {
			t.Errorf("%s's page reloaded", u.Username)
		}
	}
	// (c) The thread got its board, naming the next player.
	if _, err := s.srv.WaitMessage(thread, func(m fakediscord.Message) bool {
		return isBoardPost(m) && strings.Contains(m.Body(), "<@"+other.ID+">") && strings.Contains(m.Body(), present.T("", "turn.next", "player", "<@"+other.ID+">", "color", present.ColorDot(seatOf(rec, other.ID))))
	}); err != nil {
		t.Errorf("the thread got no board after the click: %v", err)
	}
	// (d) No page ever held the mover's secrets.
	moverSecrets = append(moverSecrets, s.secrets(thread, mover)...)
	scan("after the move")
	step("checked")
	s.srv.CheckClean(t)
	failed = t.Failed()
}
