package web_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"conductor/commands"
	"conductor/internal/fakediscord"
)

// TestScreenshots writes the documentation's pictures of the live page
// (a player's page mid-game, on a desktop client and on a phone, the table
// to set up and its lobby on a phone, in English and in French) and of a
// replay page, when CONDUCTOR_WEBSHOTS names the
// directory to write them to: `go run ./internal/webshots`.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("CONDUCTOR_WEBSHOTS")
	if dir == "" {
		t.Skip("writes docs/images/web-*.png when CONDUCTOR_WEBSHOTS is set: go run ./internal/webshots")
	}
	root := browser(t)
	shot := func(tb *tab, name string) {
		t.Helper()
		// The map's picture is decoded after the SVG is in place.
		time.Sleep(800 * time.Millisecond)
		png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", filepath.Join(dir, name))
	}
	names := map[string][]string{"en": {"Alice", "Bob", "Chloé"}, "fr": {"Amélie", "Benoît", "Claire"}}
	for _, lang := range []string{"en", "fr"} {
		s := newStack(t, stackOptions{mux: clientMux})
		var users []fakediscord.User
		for _, n := range names[lang] {
			u := s.srv.CreateUser(n)
			s.srv.SetUserLocale(u.ID, lang)
			users = append(users, u)
		}
		_, thread := s.gameWith(map[string]string{"map": "europe", "language": lang}, users...)
		inst := s.launch(users[0], thread)
		sessions := map[string]string{}
		for _, u := range users {
			s.srv.JoinActivity(u.ID, inst)
			ans, _ := s.session(u, inst)
			sessions[u.ID] = ans.Session
		}
		s.playTurns(thread, sessions, users, 42)
		mover := s.current(thread, users...)
		for _, view := range []struct {
			name     string
			viewport chromedp.Action[chromedp.Void]
		}{{"desktop", desktop}, {"phone", phoneHiDPI}} {
			tabs := s.openTabs(root, inst, thread, view.viewport, mover)
			tb := tabs[mover.ID]
			if !tb.waitFor("the board", "frame().querySelector('svg g.track[data-owner=\"0\"]')", 20*time.Second) {
				t.Fatalf("no board: %s", eval[string](tb, "return frame().body.innerText;"))
			}
			shot(tb, "web-"+view.name+"."+lang+".png")
		}
		// "Launch" in a channel without a game: the table to set up, and
		// its lobby once opened with a bot.
		{
			s := newStack(t, stackOptions{mux: clientMux, entryPoint: fakediscord.HandlerDiscordLaunch, bots: true})
			host, guest := s.srv.CreateUser(names[lang][0]), s.srv.CreateUser(names[lang][1])
			for _, u := range []fakediscord.User{host, guest} {
				s.srv.SetUserLocale(u.ID, lang)
			}
			channel, inst := s.setupTable(host, guest)
			tb := s.openTabs(root, inst, channel, phoneHiDPI, host)[host.ID]
			if !tb.waitFor("the form", "frame().getElementById('setup-open')", 20*time.Second) {
				t.Fatalf("no form: %s", eval[string](tb, "return frame().body.innerText;"))
			}
			eval[bool](tb, `const d = frame(), set = (id, v) => { const e = d.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };
				set('setup-board', 'europe'); set('setup-bots', '1'); return true;`)
			shot(tb, "web-setup."+lang+".png")
			tb.tapOn("#setup-open")
			if !tb.waitFor("the lobby", "frame().querySelector('#lobby-box:not([hidden]) button[data-id]') && frame().querySelector('svg g.track')", 10*time.Second) {
				t.Fatalf("no lobby: %s", eval[string](tb, "return frame().body.innerText;"))
			}
			thread := s.srv.Threads(channel)[0].ID
			s.handle(guest, thread, commands.Request{Type: commands.CommandRequest, Name: "ttr", Sub: "join", Locale: lang})
			if !tb.waitFor("the guest", "frame().querySelectorAll('#players .player').length === 3", 5*time.Second) {
				t.Fatal("the lobby does not show the guest")
			}
			shot(tb, "web-lobby."+lang+".png")
		}
		if lang == "en" {
			rec, _ := s.archive(s.guild.ID, "europe-classic-bots")
			tabCtx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
			defer cancel()
			tb := &tab{t: t, name: "replay", ctx: tabCtx}
			if err := chromedp.Do(tabCtx, desktop, chromedp.Navigate(s.web.ReplayURL(s.guild.ID, rec.ID))); err != nil {
				t.Fatal(err)
			}
			if !tb.waitFor("the replay", "document.querySelector('svg g.track') && document.getElementById('status').textContent", 20*time.Second) {
				t.Fatal("the replay page shows no board")
			}
			shot(tb, "web-replay.png")
		}
	}
}
