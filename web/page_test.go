package web_test

import (
	"encoding/xml"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
)

func (s *stack) fetch(path string, header ...string) (*http.Response, []byte) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.http.URL+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, raw
}

var staticRef = regexp.MustCompile(`s/([0-9a-f]{16})/app\.js`)

// TestThePageAndItsFiles: the page is never cached, allows only its own
// files and server, holds no game, speaks the browser's language before
// Discord says who reads, and answers under Discord's /.proxy prefix; its
// files are cached for ever under their hash.
func TestThePageAndItsFiles(t *testing.T) {
	s := newStack(t)
	for _, path := range []string{"/", "/.proxy/"} {
		resp, body := s.fetch(path, "Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("GET %s: %d %q", path, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("CSP %q", csp)
		}
		if !strings.Contains(string(body), `lang="fr"`) || !strings.Contains(string(body), `data-client-id="`+s.srv.AppID()+`"`) {
			t.Errorf("page: %s", body)
		}
		m := staticRef.FindStringSubmatch(string(body))
		if m == nil {
			t.Fatalf("the page loads no app.js: %s", body)
		}
		resp, js := s.fetch(strings.TrimSuffix(path, "/") + "/" + m[0])
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") ||
			!strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || !strings.Contains(string(js), "DiscordSDK") {
			t.Errorf("app.js: %d %v", resp.StatusCode, resp.Header)
		}
		resp, _ = s.fetch(strings.TrimSuffix(path, "/") + "/s/" + m[1] + "/sdk/discord-embedded-app-sdk@2.5.0/_virtual/index.mjs")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("an SDK module: %d", resp.StatusCode)
		}
	}
	// Another version's hash still serves the files, uncached.
	resp, _ := s.fetch("/s/0000000000000000/app.css")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("an old hash: %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	for _, bad := range []string{"/s/x/index.html", "/s/x/../server.go", "/s/x/nothing.js"} {
		if resp, _ := s.fetch(bad); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d", bad, resp.StatusCode)
		}
	}
}

// TestEveryBoardsSVGAsServed: each board's SVG, as the page gets it, names
// every track by the engine's reference (parsing back to the track), in
// the reader's language, over the board's art; the art is served.
func TestEveryBoardsSVGAsServed(t *testing.T) {
	s := newStack(t)
	for _, id := range data.Embedded().IDs() {
		b, _ := s.svc.Board(id)
		arts := map[string]string{}
		for _, lang := range []string{"en", "de"} {
			art := artName(b, lang)
			resp, png := s.fetch("/art/" + art)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
				t.Errorf("%s art: %d %v", id, resp.StatusCode, resp.Header)
			}
			arts[lang] = string(png)
			path := "/board/" + strings.TrimSuffix(imaging.ArtName(b), ".png") + "." + b.Variants[0].ID + "." + lang + ".svg"
			resp, doc := s.fetch(path)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %s", path, resp.StatusCode, doc)
			}
			tracks := 0
			dec := xml.NewDecoder(strings.NewReader(string(doc)))
			for {
				tok, err := dec.Token()
				if err != nil {
					break
				}
				el, ok := tok.(xml.StartElement)
				if !ok || el.Name.Local != "g" {
					continue
				}
				attr := map[string]string{}
				for _, a := range el.Attr {
					attr[a.Name.Local] = a.Value
				}
				if f := strings.Fields(attr["class"]); len(f) == 0 || f[0] != "track" {
					continue
				}
				n, _ := strconv.Atoi(attr["data-id"])
				got, err := engine.ParseTrackRef(b, attr["data-ref"])
				if err != nil || int(got) != n || n != tracks {
					t.Errorf("%s track %d: data-ref %q → %d (%v)", id, tracks, attr["data-ref"], got, err)
				}
				if attr["aria-label"] == "" || attr["data-owner"] != "-1" {
					t.Errorf("%s track %d: label %q owner %q", id, n, attr["aria-label"], attr["data-owner"])
				}
				tracks++
			}
			if tracks != len(b.Tracks) {
				t.Errorf("%s: %d tracks in the SVG, %d on the board", id, tracks, len(b.Tracks))
			}
			if !strings.Contains(string(doc), `href="art/`+art+`"`) {
				t.Errorf("%s: the SVG does not lie on its art", id)
			}
		}
		if arts["en"] == arts["de"] {
			// The tracks' colour letters are the reader's (S for schwarz).
			t.Errorf("%s: the German art is the English one", id)
		}
	}
	usa, _ := s.svc.Board("usa")
	for _, bad := range []string{"/board/usa-0.base.en.svg", "/art/usa-0.png", "/art/" + imaging.ArtName(usa), "/art/" + artName(usa, "xx"), "/board/x.svg"} {
		if resp, _ := s.fetch(bad); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d", bad, resp.StatusCode)
		}
	}
}

// artName is the address the page uses for a board's art in a language.
func artName(b *data.Board, lang string) string {
	return strings.TrimSuffix(imaging.ArtName(b), ".png") + "." + lang + ".png"
}
