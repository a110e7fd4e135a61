package web_test

import (
	"net/http"
	"strings"
	"testing"

	"conductor/web"
)

// TestWhoMayFrameThePages: the Activity's page may be framed by Discord's
// clients only (and its own origin, where Discord's proxy serves it); a
// replay page, its data and its pictures by nobody, old browsers included;
// with an HTTPS public address every answer asks browsers to keep to HTTPS.
func TestWhoMayFrameThePages(t *testing.T) {
	s := newStack(t, stackOptions{web: func(o *web.Options) { o.PublicURL = "https://conductor.example.org" }})
	rec, _ := s.archive(s.guild.ID, "europe-classic-bots")
	link := s.web.ReplayURL(s.guild.ID, rec.ID)
	replay := strings.TrimPrefix(link, "https://conductor.example.org")
	if replay == link {
		t.Fatalf("replay link %q", link)
	}

	resp, _ := s.fetch("/")
	fa := frameAncestors(resp.Header.Get("Content-Security-Policy"))
	want := []string{"'self'", "https://discord.com", "https://ptb.discord.com", "https://canary.discord.com", "https://discordapp.com"}
	for _, w := range want {
		if !strings.Contains(" "+fa+" ", " "+w+" ") {
			t.Errorf("the Activity's frame-ancestors %q lack %s", fa, w)
		}
	}
	if fa == "" || strings.Contains(fa, "*") || strings.Contains(fa, "http:") || strings.Contains(fa, "'none'") {
		t.Errorf("the Activity's frame-ancestors: %q", fa)
	}
	if xfo := resp.Header.Get("X-Frame-Options"); xfo != "" {
		t.Errorf("the Activity's page says X-Frame-Options %q: Discord could not frame it", xfo)
	}

	for _, path := range []string{replay, replay + "/data.json", replay + "/turn/3.svg", "/r/forged.token"} {
		resp, _ := s.fetch(path)
		if fa := frameAncestors(resp.Header.Get("Content-Security-Policy")); fa != "'none'" {
			t.Errorf("%s (%d): frame-ancestors %q, want 'none'", path, resp.StatusCode, fa)
		}
		if xfo := resp.Header.Get("X-Frame-Options"); xfo != "DENY" {
			t.Errorf("%s: X-Frame-Options %q", path, xfo)
		}
	}

	for _, path := range []string{"/", replay, "/api/state"} {
		resp, _ := s.fetch(path)
		if hsts := resp.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(hsts, "max-age=") || hsts == "max-age=0" {
			t.Errorf("%s: Strict-Transport-Security %q", path, hsts)
		}
	}
	// An http:// public address (a test, a local run) asks nothing.
	plain := newStack(t)
	if resp, _ := plain.fetch("/"); resp.StatusCode != http.StatusOK || resp.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("the page over a plain-HTTP public address: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
}

// frameAncestors is a CSP's frame-ancestors sources, "" when it has none.
func frameAncestors(csp string) string {
	for _, d := range strings.Split(csp, ";") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(d), "frame-ancestors"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}
