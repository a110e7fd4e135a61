package msgshots

import (
	"bytes"
	"errors"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
)

// testBrowser starts Chromium, or skips (fails under CI, as web's browser
// tests do) saying how to get it.
func testBrowser(t *testing.T) *Browser {
	t.Helper()
	b, err := NewBrowser(t.TempDir())
	if errors.Is(err, ErrNoChromium) && os.Getenv("CONDUCTOR_REQUIRE_BROWSER") != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// TestV2InChromium lays the V2 board message out in Chromium: the picture
// is 400 px at two device pixels a CSS pixel; the container carries its
// accent bar; the board fills the container's column; the disabled button
// is dimmed; the text display's text is on the page.
func TestV2InChromium(t *testing.T) {
	b := testBrowser(t)
	page := mustHTML(t, boardV2)
	tab, done, err := b.open(page, 400, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	type facts struct {
		Accent, Text             string
		GalleryWidth, ThumbWidth float64
		Disabled, Enabled        string
		Resources                int
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[facts](`(() => {
		const q = s => document.querySelector(s);
		return {
			Accent: getComputedStyle(q('.container')).borderLeftColor,
			Text: document.body.innerText,
			GalleryWidth: q('.gallery img').getBoundingClientRect().width,
			ThumbWidth: q('img.thumbnail').getBoundingClientRect().width,
			Disabled: getComputedStyle(q('.button.disabled')).opacity,
			Enabled: getComputedStyle(q('.button.success')).opacity,
			Resources: performance.getEntriesByType('resource').length,
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Accent != "rgb(10, 187, 255)" {
		t.Errorf("the container's bar is %s, want rgb(10, 187, 255)", got.Accent)
	}
	for _, s := range []string{"Ada to play", "Bo 29 pts · 4 trains", "last round", "outside the box", "Claim"} {
		if !strings.Contains(got.Text, s) {
			t.Errorf("the page does not show %q: %q", s, got.Text)
		}
	}
	if got.GalleryWidth != 276 || got.ThumbWidth != 85 {
		t.Errorf("the board is %v px wide (want 276), the thumbnail %v (want 85)", got.GalleryWidth, got.ThumbWidth)
	}
	if got.Disabled != "0.5" || got.Enabled != "1" {
		t.Errorf("opacity of the disabled button %s, of an enabled one %s", got.Disabled, got.Enabled)
	}
	if got.Resources != 0 {
		t.Errorf("the page fetched %d resources", got.Resources)
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != 800 {
		t.Errorf("the picture is %d px wide, want 800 (400 CSS px at 2×)", w)
	}
}

// TestPageLoadsNothing: a page holding a picture and a style sheet from a
// server loads neither, under its content security policy; without the
// policy, the same page does (the check can fail).
func TestPageLoadsNothing(t *testing.T) {
	b := testBrowser(t)
	var hits atomic.Int32
	ext := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	defer ext.Close()
	page := mustHTML(t, boardV1)
	sneak := `<img src="` + ext.URL + `/a.png"><link rel="stylesheet" href="` + ext.URL + `/b.css"></body>`
	for _, c := range []struct {
		name string
		page string
		want bool
	}{
		{"with the policy", strings.Replace(page, "</body>", sneak, 1), false},
		{"without it", strings.Replace(strings.Replace(page, "</body>", sneak, 1), "Content-Security-Policy", "X-No-Policy", 1), true},
	} {
		hits.Store(0)
		if _, err := b.Shoot(c.page, 400, 1); err != nil {
			t.Fatal(err)
		}
		if loaded := hits.Load() > 0; loaded != c.want {
			t.Errorf("%s: the server was asked %d times", c.name, hits.Load())
		}
	}
}
