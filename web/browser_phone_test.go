package web_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/fakediscord"
)

// The phone: a 390 × 844 viewport with touch, as in Discord's mobile
// clients. A finger is input.DispatchTouchEvent: Chromium makes of it the
// pointer events (pointerType "touch") the page reads.

// touch sends one touch event with fingers at the points (top-level CSS
// pixels; the page fills the client's frame).
func (tb *tab) touch(kind input.DispatchTouchEventType, pts ...[2]float64) {
	tb.t.Helper()
	tps := []*input.TouchPoint{}
	for i, p := range pts {
		id, r := float64(i), 6.0
		tps = append(tps, &input.TouchPoint{X: p[0], Y: p[1], ID: &id, RadiusX: &r, RadiusY: &r})
	}
	if _, err := chromedp.Call(tb.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: kind, TouchPoints: tps}); err != nil {
		tb.t.Fatalf("%s: touch: %v", tb.name, err)
	}
}

// tap touches one point and lifts the finger.
func (tb *tab) tap(x, y float64) {
	tb.t.Helper()
	tb.touch(input.DispatchTouchEventTypeTouchStart, [2]float64{x, y})
	time.Sleep(40 * time.Millisecond)
	tb.touch(input.DispatchTouchEventTypeTouchEnd)
}

// drag moves one finger from a to b in steps.
func (tb *tab) drag(a, b [2]float64) {
	tb.t.Helper()
	tb.touch(input.DispatchTouchEventTypeTouchStart, a)
	for i := 1; i <= 8; i++ {
		f := float64(i) / 8
		tb.touch(input.DispatchTouchEventTypeTouchMove, [2]float64{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f})
		time.Sleep(16 * time.Millisecond)
	}
	tb.touch(input.DispatchTouchEventTypeTouchEnd)
}

// pinch spreads two fingers around c from d0 to d1 pixels apart.
func (tb *tab) pinch(c [2]float64, d0, d1 float64) {
	tb.t.Helper()
	at := func(d float64) [][2]float64 { return [][2]float64{{c[0] - d/2, c[1]}, {c[0] + d/2, c[1]}} }
	tb.touch(input.DispatchTouchEventTypeTouchStart, at(d0)...)
	for i := 1; i <= 10; i++ {
		tb.touch(input.DispatchTouchEventTypeTouchMove, at(d0+(d1-d0)*float64(i)/10)...)
		time.Sleep(16 * time.Millisecond)
	}
	tb.touch(input.DispatchTouchEventTypeTouchEnd)
}

// payIfAsked taps the first answer when the page asks how to pay (a gray
// route several colours fit).
func (tb *tab) payIfAsked() {
	tb.t.Helper()
	if !tb.waitFor("a payment's question", "frame().querySelector('#prompt:not([hidden]) button[data-id]')", 3*time.Second) {
		return
	}
	pay := eval[[]float64](tb, `const f = document.getElementById('activity').getBoundingClientRect();
		const b = frame().querySelector('#prompt button[data-id]'); b.scrollIntoView({block: 'center'});
		const r = b.getBoundingClientRect(); return [f.left + r.left + r.width / 2, f.top + r.top + r.height / 2];`)
	tb.tap(pay[0], pay[1])
}

// trackOnScreen is where a track's first car is on the screen: its centre,
// the unit vector across it, its width and length (CSS pixels), and the
// board frame's centre.
type trackOnScreen struct {
	X, Y, NX, NY, Width, Length, FrameX, FrameY float64
}

func (tb *tab) trackOnScreen(ref string) trackOnScreen {
	tb.t.Helper()
	js, _ := json.Marshal(ref)
	raw := eval[string](tb, fmt.Sprintf(`
		const f = document.getElementById('activity').getBoundingClientRect(), d = frame();
		const svg = d.querySelector('#board svg'), wrap = d.getElementById('board-wrap').getBoundingClientRect();
		const r = svg.getBoundingClientRect(), u = r.width / svg.viewBox.baseVal.width;
		const g = d.querySelector('g.track[data-ref=' + CSS.escape(%s) + ']');
		const ps = g.querySelector('polygon.car').getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number));
		const sc = ps.map(([x, y]) => [f.left + r.left + x * u, f.top + r.top + y * u]);
		const cx = sc.reduce((a, p) => a + p[0], 0) / 4, cy = sc.reduce((a, p) => a + p[1], 0) / 4;
		const e1 = Math.hypot(sc[1][0] - sc[0][0], sc[1][1] - sc[0][1]), e2 = Math.hypot(sc[2][0] - sc[1][0], sc[2][1] - sc[1][1]);
		// Across the car: along its shorter edge.
		const [a, b] = e1 < e2 ? [sc[0], sc[1]] : [sc[1], sc[2]];
		const w = Math.min(e1, e2);
		return JSON.stringify({X: cx, Y: cy, NX: (b[0] - a[0]) / w, NY: (b[1] - a[1]) / w, Width: w, Length: Math.max(e1, e2),
			FrameX: f.left + wrap.left + wrap.width / 2, FrameY: f.top + wrap.top + wrap.height / 2});`, js))
	var p trackOnScreen
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		tb.t.Fatal(err)
	}
	return p
}

// trackBetween finds the tracks of a board between two cities.
func trackBetween(b *data.Board, a, c string) []data.TrackID {
	var out []data.TrackID
	for i, tr := range b.Tracks {
		x, y := b.Cities[tr.A].Name, b.Cities[tr.B].Name
		if (x == a && y == c) || (x == c && y == a) {
			out = append(out, data.TrackID(i))
		}
	}
	return out
}

// TestBrowserPhoneTapClaimsAOneSpaceRoute: on a phone (390 × 844, touch)
// the page opens zoomed on the reader's tickets with exactly their cities
// ringed and the routes they may claim lit. The player to play drags the
// map to bring Atlanta – Nashville (one space) to the middle, pinches it
// closer, and taps beside it, off its car but within a finger's reach: the
// engine has the claim. The other player then taps between the two Dallas
// – Houston routes (one space each, side by side): the page asks which,
// lights both, and the route tapped in its list is claimed.
func TestBrowserPhoneTapClaimsAOneSpaceRoute(t *testing.T) {
	root := browser(t)
	s := newStack(t, stackOptions{mux: clientMux})
	alice, bob := s.srv.CreateUser("alice"), s.srv.CreateUser("bob")
	_, thread := s.gameWith(map[string]string{"map": "usa"}, alice, bob)
	inst := s.launch(alice, thread)
	s.srv.JoinActivity(bob.ID, inst)
	mover := s.current(thread, alice, bob)
	other := bob
	if mover.ID == bob.ID {
		other = alice
	}
	b, _ := s.svc.Board("usa")
	short := trackBetween(b, "Atlanta", "Nashville")
	twins := trackBetween(b, "Dallas", "Houston")
	if len(short) != 1 || b.Tracks[short[0]].Length != 1 || len(twins) != 2 {
		t.Fatalf("the USA map changed: Atlanta – Nashville %v, Dallas – Houston %v", short, twins)
	}
	if !s.claimableNow(thread, mover)[int(short[0])] {
		t.Fatalf("%s cannot claim Atlanta – Nashville", mover.Username)
	}
	tabs := s.openTabs(root, inst, thread, phone, mover, other)
	failed := true
	defer func() {
		if failed {
			dir := t.TempDir()
			for _, tb := range tabs {
				tb.screenshot(dir)
			}
		}
	}()
	tb := tabs[mover.ID]
	for _, x := range tabs {
		if !x.waitFor("the board", "frame().querySelector('svg g.track[data-ref]') && frame().getElementById('status').textContent", 20*time.Second) {
			t.Fatalf("%s's page shows no board: %s", x.name, eval[string](x, "return frame() ? frame().body.innerText : 'no frame';"))
		}
	}
	if !tb.waitFor("the lit routes", "frame().querySelector('g.track.can')", 5*time.Second) {
		t.Fatal("the player to play sees no route lit")
	}

	// (a) What the page opens on: the reader's own tickets, ringed, and
	// the routes they may claim, lit; the map closer than its whole.
	for _, u := range []fakediscord.User{mover, other} {
		x := tabs[u.ID]
		var ringed []int
		json.Unmarshal([]byte(eval[string](x, "return JSON.stringify(Array.from(frame().querySelectorAll('g.city.ticket'), (c) => Number(c.getAttribute('data-city'))));")), &ringed)
		got := map[int]bool{}
		for _, c := range ringed {
			got[c] = true
		}
		if want := s.ticketCities(thread, u); !maps.Equal(got, want) {
			t.Errorf("%s's page rings cities %v, their tickets' are %v", u.Username, ringed, want)
		}
		zoom := eval[float64](x, "const d = frame(); return d.querySelector('#board svg').getBoundingClientRect().width / d.getElementById('board-wrap').clientWidth;")
		if zoom < 1.3 {
			t.Errorf("%s's page opens with the map %.2f× its frame's width: not zoomed on the tickets", u.Username, zoom)
		}
	}
	var lit []int
	json.Unmarshal([]byte(eval[string](tb, "return JSON.stringify(Array.from(frame().querySelectorAll('g.track.can'), (g) => Number(g.getAttribute('data-id'))));")), &lit)
	litSet := map[int]bool{}
	for _, id := range lit {
		litSet[id] = true
	}
	if want := s.claimableNow(thread, mover); !maps.Equal(litSet, want) {
		t.Errorf("the page lights %v, the engine lets %s claim %v", lit, mover.Username, want)
	}
	if n := eval[int](tabs[other.ID], "return frame().querySelectorAll('g.track.can').length;"); n != 0 {
		t.Errorf("%s, not to play, sees %d routes lit", other.Username, n)
	}

	// (b) Drag Atlanta – Nashville to the middle of the map's frame.
	ref := engine.TrackRef(b, short[0])
	// It may be out of sight: each drag starts in the frame's middle and
	// goes at most 150 px.
	p := tb.trackOnScreen(ref)
	q := p
	for range 6 {
		dx, dy := q.FrameX-q.X, q.FrameY-q.Y
		if math.Hypot(dx, dy) < 20 {
			break
		}
		f := math.Min(1, 150/math.Hypot(dx, dy))
		tb.drag([2]float64{q.FrameX, q.FrameY}, [2]float64{q.FrameX + dx*f, q.FrameY + dy*f})
		q = tb.trackOnScreen(ref)
	}
	// (The map stops at its edge: Atlanta is near it.)
	if d, d0 := math.Hypot(q.X-q.FrameX, q.Y-q.FrameY), math.Hypot(p.X-p.FrameX, p.Y-p.FrameY); d > 100 || d > d0-50 {
		t.Errorf("after the drags the route is %.0f px from the middle of the map's frame (was %.0f)", d, d0)
	}
	if s.engineGame(thread).Owner(short[0]) >= 0 {
		t.Fatal("the drag claimed the route")
	}
	// (c) Pinch it closer.
	tb.pinch([2]float64{q.X, q.Y}, 60, 150)
	r := tb.trackOnScreen(ref)
	if r.Length < q.Length*1.8 {
		t.Errorf("the pinch zoomed %.2f× (a car %.0f px long, then %.0f)", r.Length/q.Length, q.Length, r.Length)
	}
	t.Logf("the one-space route: a car %.0f × %.0f px at first, %.0f × %.0f px after the pinch", p.Length, p.Width, r.Length, r.Width)
	// (d) Tap beside it: off the car, within a finger's reach.
	off := r.Width/2 + 8
	tb.tap(r.X+r.NX*off, r.Y+r.NY*off)
	// Gray: the page asks which colour to pay with when several fit.
	tb.payIfAsked()
	if err := s.srv.WaitFor("the claim in the engine", func() bool { return s.engineGame(thread).Owner(short[0]) >= 0 }); err != nil {
		t.Fatalf("the tap %.0f px from the route's middle claimed nothing: the page shows %q, its menu %q", off,
			eval[string](tb, "return frame().getElementById('reply').innerText;"), eval[string](tb, "return frame().getElementById('menu').innerText;"))
	}
	rec, _ := s.st.Get(thread)
	if last := rec.Log[len(rec.Log)-1]; last.Seat != seatOf(rec, mover.ID) || !strings.HasPrefix(last.Interaction, "web:") {
		t.Errorf("the claim was seat %d's through %q", last.Seat, last.Interaction)
	}
	s.svc.Quiet()

	// (e) The other player taps between the twins: the page asks which.
	ot := tabs[other.ID]
	if !ot.waitFor("the turn", "frame().querySelector('g.track.can')", 5*time.Second) {
		t.Fatalf("%s sees no route lit on their turn", other.Username)
	}
	t1, t2 := ot.trackOnScreen(engine.TrackRef(b, twins[0])), ot.trackOnScreen(engine.TrackRef(b, twins[1]))
	ot.tap((t1.X+t2.X)/2, (t1.Y+t2.Y)/2)
	if !ot.waitFor("the question", "!frame().getElementById('menu').hidden", 3*time.Second) {
		t.Fatalf("a tap between the twins asked nothing (%s)", eval[string](ot, "return frame().getElementById('reply').innerText;"))
	}
	if n := eval[int](ot, "return frame().querySelectorAll('g.track.pick').length;"); n != 2 {
		t.Errorf("%d routes lit while the page asks which, want the 2 twins", n)
	}
	label := eval[string](ot, "return frame().querySelector('#menu button').textContent;")
	if !strings.Contains(label, "Dallas") || !strings.Contains(label, "Houston") {
		t.Errorf("the page asks first about %q", label)
	}
	btn := eval[[]float64](ot, `const f = document.getElementById('activity').getBoundingClientRect();
		const r = frame().querySelector('#menu button').getBoundingClientRect(); return [f.left + r.left + r.width / 2, f.top + r.top + r.height / 2];`)
	time.Sleep(400 * time.Millisecond) // a person reads the question
	ot.tap(btn[0], btn[1])
	ot.payIfAsked()
	if err := s.srv.WaitFor("the twin's claim", func() bool {
		g := s.engineGame(thread)
		return g.Owner(twins[0]) >= 0 || g.Owner(twins[1]) >= 0
	}); err != nil {
		t.Fatalf("choosing a twin claimed nothing: %s", eval[string](ot, "return frame().getElementById('reply').innerText;"))
	}
	s.srv.CheckClean(t)
	failed = t.Failed()
}
