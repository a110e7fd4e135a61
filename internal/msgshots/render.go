package msgshots

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	_ "image/gif"  // attachments may be GIFs
	_ "image/jpeg" // or JPEGs
	_ "image/png"  // boards are PNGs
	"net/http"
	"strings"
	"time"
)

// Assets give the renderer what a client would download: it never fetches
// anything itself, and the page it writes loads nothing.
type Assets struct {
	// Media returns the bytes behind an attachment's or a media item's URL.
	Media func(url string) ([]byte, bool)
	// Emoji returns a custom emoji's image, by the emoji's id.
	Emoji func(id string) ([]byte, bool)
	// User names a mentioned user as a client would (display name); the
	// message's mentions are asked when it is nil or does not know.
	User func(id string) (string, bool)
}

// Options say how wide a window shows the message.
type Options struct {
	// Width is the window's width in CSS pixels (default 400).
	Width int
	Assets
}

// The client's layout at a narrow width, in CSS pixels: a message starts
// right of the 40 px avatar (72 px from the window's edge) and keeps 16 px
// at its right.
const (
	gutterLeft  = 72
	gutterRight = 16
	// Discord's client shows a picture at most 350 px high (a single
	// attachment, a single gallery item; observed, not documented), an
	// embed's image at most 400×300 and an embed's thumbnail 80×80, all
	// keeping their aspect; a section's thumbnail is 85 px square.
	maxImageHeight   = 350
	maxEmbedImageW   = 400
	maxEmbedImageH   = 300
	embedThumbSize   = 80
	sectionThumbSize = 85
	// An embed is at most 432 px wide (its 4 px bar included).
	maxEmbedWidth = 432
	// A container's padding and bar take 16 px a side plus 4 px.
	containerInset = 2*16 + 4
)

type renderer struct {
	msg    Message
	assets Assets
	width  int // the message column's width
}

// HTML renders a message object (Discord's JSON) as a page: the message as
// Discord's dark theme draws it in a window opts.Width wide.
func HTML(doc []byte, opts Options) (string, error) {
	m, err := Parse(doc)
	if err != nil {
		return "", fmt.Errorf("msgshots: the message is not Discord's message JSON: %w", err)
	}
	return Render(m, opts), nil
}

// Render renders a parsed message as a page.
func Render(m Message, opts Options) string {
	w := opts.Width
	if w <= 0 {
		w = 400
	}
	r := &renderer{msg: m, assets: opts.Assets, width: w - gutterLeft - gutterRight}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
	// Nothing but inline styles and data: pictures may load.
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:">`)
	fmt.Fprintf(&b, `<meta name="viewport" content="width=%d"><style>%s</style></head><body style="width:%dpx">`, w, css, w)
	b.WriteString(`<div class="message">`)
	b.WriteString(`<div class="avatar"></div>`)
	b.WriteString(`<div class="header"><span class="username">` + html.EscapeString(m.Author.name()) + `</span>`)
	if m.Author.Bot {
		// Discord tags an application's messages APP (it said BOT before 2024).
		b.WriteString(`<span class="app-tag">APP</span>`)
	}
	if t, err := time.Parse(time.RFC3339Nano, m.Timestamp); err == nil {
		b.WriteString(`<span class="timestamp">` + t.UTC().Format("3:04 PM") + `</span>`)
	}
	b.WriteString(`</div><div class="body">`)
	if m.Flags&FlagComponentsV2 != 0 {
		r.componentsV2(&b, m.Components, r.width)
	} else {
		if m.Content != "" {
			b.WriteString(`<div class="content">` + r.markdown(m.Content) + `</div>`)
		}
		r.attachments(&b)
		for _, e := range m.Embeds {
			r.embed(&b, e)
		}
		for _, c := range m.Components {
			r.component(&b, c, r.width)
		}
	}
	b.WriteString(`</div></div></body></html>`)
	return b.String()
}

// picture is an image to draw: its data: URI and natural size.
type picture struct {
	uri  string
	w, h int
}

// picture finds the bytes behind a URL (an attachment:// name included).
func (r *renderer) picture(url string) (picture, bool) {
	if name, ok := strings.CutPrefix(url, "attachment://"); ok {
		for _, a := range r.msg.Attachments {
			if a.Filename == name {
				url = a.URL
			}
		}
	}
	if r.assets.Media == nil {
		return picture{}, false
	}
	data, ok := r.assets.Media(url)
	if !ok {
		return picture{}, false
	}
	uri, ok := dataURI(data)
	if !ok {
		return picture{}, false
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return picture{}, false
	}
	return picture{uri: uri, w: cfg.Width, h: cfg.Height}, true
}

// dataURI embeds an image's bytes, when they are an image.
func dataURI(data []byte) (string, bool) {
	ct := http.DetectContentType(data)
	if !strings.HasPrefix(ct, "image/") {
		return "", false
	}
	return "data:" + ct + ";base64," + base64.StdEncoding.EncodeToString(data), true
}

// fit scales w×h down (never up) to fit maxW×maxH, keeping the aspect.
func fit(w, h, maxW, maxH int) (int, int) {
	if w <= 0 || h <= 0 {
		return maxW, maxW * 9 / 16
	}
	s := 1.0
	if float64(maxW)/float64(w) < s {
		s = float64(maxW) / float64(w)
	}
	if float64(maxH)/float64(h) < s {
		s = float64(maxH) / float64(h)
	}
	return max(1, int(float64(w)*s+0.5)), max(1, int(float64(h)*s+0.5))
}

// img writes a picture scaled into maxW×maxH, or the grey box a client
// shows while a picture it cannot get is loading.
func (r *renderer) img(b *strings.Builder, url, alt, class string, maxW, maxH, w, h int) {
	p, ok := r.picture(url)
	if ok {
		w, h = p.w, p.h
	}
	dw, dh := fit(w, h, maxW, maxH)
	if !ok {
		fmt.Fprintf(b, `<div class="%s missing" style="width:%dpx;height:%dpx" title="%s"></div>`, class, dw, dh, html.EscapeString(alt))
		return
	}
	fmt.Fprintf(b, `<img class="%s" src="%s" alt="%s" width="%d" height="%d">`, class, p.uri, html.EscapeString(alt), dw, dh)
}

// attachments draws a message's files: pictures scaled to the column,
// others as a file box.
func (r *renderer) attachments(b *strings.Builder) {
	for _, a := range r.msg.Attachments {
		if isImage(a.ContentType, a.Filename) {
			b.WriteString(`<div class="attachment">`)
			r.img(b, a.URL, a.Description, "media", r.width, maxImageHeight, a.Width, a.Height)
			b.WriteString(`</div>`)
			continue
		}
		fileBox(b, a.Filename, a.Size)
	}
}

func isImage(contentType, name string) bool {
	if strings.HasPrefix(contentType, "image/") {
		return true
	}
	n := strings.ToLower(name)
	for _, ext := range []string{".png", ".jpg", ".jpeg", ".gif", ".webp"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// fileBox is a file that is not shown inline: its name and size.
func fileBox(b *strings.Builder, name string, size int) {
	b.WriteString(`<div class="file"><span class="file-name">` + html.EscapeString(name) + `</span>`)
	if size > 0 {
		b.WriteString(`<span class="file-size">` + humanSize(size) + `</span>`)
	}
	b.WriteString(`</div>`)
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.2f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// embed draws a rich embed: its colour bar, author, title, description,
// fields, image, thumbnail and footer.
func (r *renderer) embed(b *strings.Builder, e Embed) {
	bar := "#202225"
	if e.Color != nil {
		bar = fmt.Sprintf("#%06x", *e.Color&0xffffff)
	}
	width := min(r.width, maxEmbedWidth)
	fmt.Fprintf(b, `<div class="embed" style="border-left-color:%s;max-width:%dpx"><div class="embed-grid">`, bar, width)
	b.WriteString(`<div class="embed-main">`)
	if e.Author != nil && e.Author.Name != "" {
		b.WriteString(`<div class="embed-author">` + html.EscapeString(e.Author.Name) + `</div>`)
	}
	if e.Title != "" {
		cls := "embed-title"
		if e.URL != "" {
			cls += " md-link"
		}
		b.WriteString(`<div class="` + cls + `">` + r.inline(e.Title) + `</div>`)
	}
	if e.Description != "" {
		b.WriteString(`<div class="embed-description">` + r.markdown(e.Description) + `</div>`)
	}
	if len(e.Fields) > 0 {
		b.WriteString(`<div class="embed-fields">`)
		// Inline fields share a line, three at most; others take a line.
		for i := 0; i < len(e.Fields); {
			n := 1
			if e.Fields[i].Inline {
				for n < 3 && i+n < len(e.Fields) && e.Fields[i+n].Inline {
					n++
				}
			}
			for _, f := range e.Fields[i : i+n] {
				fmt.Fprintf(b, `<div class="embed-field" style="grid-column:span %d"><div class="embed-field-name">%s</div><div class="embed-field-value">%s</div></div>`,
					12/n, r.inline(f.Name), r.markdown(f.Value))
			}
			i += n
		}
		b.WriteString(`</div>`)
	}
	if e.Image != nil {
		b.WriteString(`<div class="embed-image">`)
		r.img(b, e.Image.URL, "", "media", min(width-32, maxEmbedImageW), maxEmbedImageH, e.Image.Width, e.Image.Height)
		b.WriteString(`</div>`)
	}
	if e.Footer != nil && e.Footer.Text != "" {
		b.WriteString(`<div class="embed-footer">` + html.EscapeString(e.Footer.Text) + `</div>`)
	}
	b.WriteString(`</div>`)
	if e.Thumbnail != nil {
		b.WriteString(`<div class="embed-thumbnail">`)
		r.img(b, e.Thumbnail.URL, "", "media", embedThumbSize, embedThumbSize, e.Thumbnail.Width, e.Thumbnail.Height)
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div></div>`)
}
