package msgshots

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"testing"
)

// pngOf is a w×h picture's PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// assets knows one board picture, one custom emoji and one user.
func assets(t *testing.T) Assets {
	board, emoji := pngOf(t, 1600, 1000), pngOf(t, 64, 64)
	return Assets{
		Media: func(url string) ([]byte, bool) {
			return board, url == "http://127.0.0.1:1/attachments/1/2/board.png"
		},
		Emoji: func(id string) ([]byte, bool) { return emoji, id == "1111" },
		User: func(id string) (string, bool) {
			return "Ada", id == "42"
		},
	}
}

// mustHTML renders doc 400 px wide.
func mustHTML(t *testing.T, doc string) string {
	t.Helper()
	page, err := HTML([]byte(doc), Options{Width: 400, Assets: assets(t)})
	if err != nil {
		t.Fatal(err)
	}
	// The page loads nothing: every src is a data: URI, and the policy
	// refuses the rest.
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "data:") {
			t.Errorf("the page would load %q", m[1])
		}
	}
	if !strings.Contains(page, `default-src 'none'`) {
		t.Error("the page has no content security policy")
	}
	return page
}

func wantIn(t *testing.T, page string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(page, p) {
			t.Errorf("the page lacks %q", p)
		}
	}
}

func wantNotIn(t *testing.T, page string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(page, p) {
			t.Errorf("the page holds %q", p)
		}
	}
}

// A board message as the bot sends it today (V1): content, the board's
// picture, rows of buttons.
const boardV1 = `{
 "id": "9", "type": 0, "content": "🚂 **Bo** claimed Dallas – Houston\n-# the deck is reshuffled\n<@42>, it's your turn! <:loco:1111> <:ticket:2222>\n> ▶ 🔴 Ada 30 pts · 17 trains\n> longest path: Bo",
 "author": {"id": "7", "username": "Conductor", "global_name": null, "bot": true},
 "timestamp": "2026-11-28T21:38:00.000000+00:00", "flags": 0, "mentions": [],
 "attachments": [{"id": "2", "filename": "board.png", "content_type": "image/png", "description": "The USA map: Ada to play", "url": "http://127.0.0.1:1/attachments/1/2/board.png", "width": 1600, "height": 1000}],
 "embeds": [],
 "components": [{"type": 1, "components": [
   {"type": 2, "style": 1, "label": "Deck (73)", "custom_id": "draw:1:deck", "emoji": {"name": "🎴"}},
   {"type": 2, "style": 2, "label": "locomotive", "custom_id": "draw:1:4", "emoji": {"id": "1111", "name": "loco"}, "disabled": true},
   {"type": 2, "style": 4, "label": "Resign", "custom_id": "resign:1"},
   {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules"}]},
  {"type": 1, "components": [{"type": 3, "custom_id": "pick:1", "placeholder": "Choose a ticket", "options": [{"label": "A", "value": "a"}]}]}]
}`

func TestV1BoardMessage(t *testing.T) {
	page := mustHTML(t, boardV1)
	wantIn(t, page,
		`<span class="username">Conductor</span><span class="app-tag">APP</span>`,
		`<span class="timestamp">9:38 PM</span>`,
		`<strong>Bo</strong> claimed Dallas – Houston`,
		`<div class="md-subtext">the deck is reshuffled</div>`,
		`<span class="mention">@Ada</span>, it&#39;s your turn!`,
		`<blockquote class="md-quote"><div class="md-text">▶ 🔴 Ada 30 pts · 17 trains<br>longest path: Bo</div></blockquote>`,
		// A known custom emoji is drawn from its picture, an unknown one
		// as :name:.
		`<img class="emoji" src="data:image/png;base64,`, `alt=":loco:">`, `:ticket:`,
		// The picture keeps its aspect at the column's width: 400 less
		// the 72 px gutter and 16 px margin is 312; 1000×312/1600 = 195.
		`alt="The USA map: Ada to play" width="312" height="195">`,
		`<span class="button primary"><span class="button-emoji">🎴</span><span class="button-label">Deck (73)</span></span>`,
		`<span class="button secondary disabled" aria-disabled="true"><span class="button-emoji"><img class="emoji"`,
		`<span class="button danger"><span class="button-label">Resign</span></span>`,
		`<span class="button link"><span class="button-label">Rules</span><span class="link-mark">↗</span></span>`,
		`<span class="placeholder">Choose a ticket</span>`,
	)
	// Only one button is disabled.
	if n := strings.Count(page, `aria-disabled="true"`); n != 1 {
		t.Errorf("%d disabled components, want 1", n)
	}
}

// Content is text: HTML in it is shown, never run.
func TestContentIsEscaped(t *testing.T) {
	page := mustHTML(t, `{"content": "<script>alert(1)</script> **<b>x</b>** <img src=x onerror=alert(1)>", "author": {"username": "<i>Eve</i>"},
		"embeds": [{"title": "<script>", "description": "a & b", "fields": [{"name": "<u>", "value": "\"q\""}]}],
		"components": [{"type": 1, "components": [{"type": 2, "style": 2, "label": "<svg onload=x>", "custom_id": "a"}]}]}`)
	wantNotIn(t, page, "<script>", "<b>x", "<img src=x", "<i>Eve", "<u>&", "<svg")
	wantIn(t, page, "&lt;script&gt;alert(1)&lt;/script&gt;", "<strong>&lt;b&gt;x&lt;/b&gt;</strong>", "&lt;i&gt;Eve&lt;/i&gt;",
		"a &amp; b", "&lt;svg onload=x&gt;", "&#34;q&#34;")
}

// A board message in Components V2: a container with an accent bar, its
// text displays, the board in a media gallery, a separator, a section with
// a thumbnail, and the buttons.
const boardV2 = `{
 "content": "", "flags": 32768, "author": {"id": "7", "username": "Conductor", "bot": true},
 "attachments": [{"id": "2", "filename": "board.png", "content_type": "image/png", "url": "http://127.0.0.1:1/attachments/1/2/board.png", "width": 1600, "height": 1000}],
 "components": [
  {"type": 17, "accent_color": 703487, "components": [
    {"type": 10, "content": "## Ada to play\n- 🔴 Ada 30 pts · 17 trains\n- 🔵 Bo 29 pts · 4 trains"},
    {"type": 12, "items": [{"media": {"url": "attachment://board.png"}, "description": "The USA map"}]},
    {"type": 14, "divider": true, "spacing": 2},
    {"type": 9, "components": [{"type": 10, "content": "-# last round <:loco:1111>"}], "accessory": {"type": 11, "media": {"url": "http://127.0.0.1:1/attachments/1/2/board.png"}, "description": "hand"}},
    {"type": 1, "components": [{"type": 2, "style": 3, "label": "Claim", "custom_id": "c"}, {"type": 2, "style": 2, "label": "Old", "custom_id": "o", "disabled": true}]}
  ]},
  {"type": 10, "content": "outside the box"}
 ]
}`

func TestV2BoardMessage(t *testing.T) {
	page := mustHTML(t, boardV2)
	wantIn(t, page,
		`<div class="container accented" style="border-left-color:#0abbff">`,
		`<h2 class="md-heading">Ada to play</h2><ul class="md-list"><li>🔴 Ada 30 pts · 17 trains</li><li>🔵 Bo 29 pts · 4 trains</li></ul>`,
		// attachment://board.png is the uploaded picture; the container's
		// padding and bar leave 312-36 = 276 px: 1000×276/1600 = 172.5.
		`<div class="gallery single"><img class="media" src="data:image/png;base64,`, `alt="The USA map" width="276" height="173">`,
		`<div class="separator large divider"></div>`,
		`<div class="section"><div class="section-text"><div class="text-display"><div class="md-subtext">last round <img class="emoji"`,
		`<div class="section-accessory"><img class="thumbnail" src="data:image/png;base64,`, `alt="hand">`,
		`<span class="button success"><span class="button-label">Claim</span></span>`,
		`<span class="button secondary disabled" aria-disabled="true"><span class="button-label">Old</span></span>`,
		`<div class="text-display"><div class="md-text">outside the box</div></div>`,
	)
	// In V2 the components are the message: the attachment is drawn where
	// the gallery puts it, not again below.
	if n := strings.Count(page, `src="data:image/png;base64,iVBOR`); n != 3 { // the gallery, the thumbnail, the emoji
		t.Errorf("%d pictures, want 3", n)
	}
	if strings.Contains(page, `class="attachment"`) {
		t.Error("a V2 message's attachment is drawn on its own")
	}
}

// A picture the renderer cannot get is a placeholder, never a link to the
// network.
func TestUnknownMediaIsAPlaceholder(t *testing.T) {
	page := mustHTML(t, `{"flags": 32768, "components": [{"type": 12, "items": [
		{"media": {"url": "https://cdn.example/a.png", "width": 800, "height": 400}, "description": "a"},
		{"media": {"url": "https://cdn.example/b.png"}}, {"media": {"url": "https://cdn.example/c.png"}}]}],
		"author": {"username": "x"}}`)
	wantIn(t, page, `<div class="gallery three"`, `<div class="tile missing" style="grid-row:span 2" title="a"></div>`)
	wantNotIn(t, page, "cdn.example")
}

func TestEmbed(t *testing.T) {
	page := mustHTML(t, `{"author": {"username": "x"}, "embeds": [{"title": "Final scores", "description": "**Ada** wins", "color": 2845872,
		"fields": [{"name": "Ada", "value": "120", "inline": true}, {"name": "Bo", "value": "98", "inline": true}, {"name": "Tie-break", "value": "tickets"}],
		"footer": {"text": "game 3"}}]}`)
	wantIn(t, page, `border-left-color:#2b6cb0`, `<div class="embed-title">Final scores</div>`,
		`<div class="embed-description"><div class="md-text"><strong>Ada</strong> wins</div></div>`,
		`<div class="embed-field" style="grid-column:span 6"><div class="embed-field-name">Ada</div>`,
		`<div class="embed-field" style="grid-column:span 12"><div class="embed-field-name">Tie-break</div>`,
		`<div class="embed-footer">game 3</div>`)
}

func TestInlineMarkdown(t *testing.T) {
	r := &renderer{}
	for in, want := range map[string]string{
		"snake_case_name":                  "snake_case_name",
		"*a* and _b_":                      "<em>a</em> and <em>b</em>",
		"**a *b* c**":                      "<strong>a <em>b</em> c</strong>",
		"__u__ ~~s~~ ||p||":                `<u>u</u> <s>s</s> <span class="md-spoiler">p</span>`,
		"`<b>` * not italic *":             `<code class="md-code">&lt;b&gt;</code> * not italic *`,
		`\*not\*`:                          "*not*",
		"<@99> <a:dance:5>":                `<span class="mention">@unknown-user</span> :dance:`,
		"see [the rules](https://x.org/r)": `see <span class="md-link">the rules</span>`,
		"<t:0:D>":                          `<span class="md-timestamp">January 1, 1970</span>`,
	} {
		if got := r.inline(in); got != want {
			t.Errorf("inline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBlockMarkdown(t *testing.T) {
	r := &renderer{}
	got := r.markdown("# Title\nline one\nline two\n> q1\n> q2\nafter\n1. one\n2. two\n  - nested\n```\n<code>\n```\n>>> all\nthe rest")
	want := `<h1 class="md-heading">Title</h1><div class="md-text">line one<br>line two</div>` +
		`<blockquote class="md-quote"><div class="md-text">q1<br>q2</div></blockquote><div class="md-text">after</div>` +
		`<ol class="md-list" start="1"><li>one</li><li>two</li><ul class="md-list"><li>nested</li></ul></ol>` +
		`<pre class="md-codeblock">&lt;code&gt;</pre>` +
		`<blockquote class="md-quote"><div class="md-text">all<br>the rest</div></blockquote>`
	if got != want {
		t.Errorf("markdown:\n got %s\nwant %s", got, want)
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct{ w, h, maxW, maxH, ww, wh int }{
		{1600, 1000, 312, 350, 312, 195}, // wide: the column's width
		{700, 1400, 312, 350, 175, 350},  // tall: 350 px high at most
		{100, 50, 312, 350, 100, 50},     // small: never enlarged
	} {
		if w, h := fit(c.w, c.h, c.maxW, c.maxH); w != c.ww || h != c.wh {
			t.Errorf("fit(%d×%d in %d×%d) = %d×%d, want %d×%d", c.w, c.h, c.maxW, c.maxH, w, h, c.ww, c.wh)
		}
	}
}
