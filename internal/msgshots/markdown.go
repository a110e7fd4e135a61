package msgshots

import (
	"html"
	"regexp"
	"strings"
	"time"
)

// The markdown Discord renders in content, embed descriptions and text
// displays: the block rules (headings, -# subtext, quotes, lists, code
// blocks) and the inline ones (bold, italic, underline, strikethrough,
// spoilers, code, mentions, custom emojis, timestamps, links). Anything
// else is text, escaped.

var (
	listItemRE = regexp.MustCompile(`^( *)([-*]|\d{1,9}\.) (.*)$`)
	headingRE  = regexp.MustCompile(`^(#{1,3}) (.*)$`)
)

// markdown renders a block of Discord markdown as HTML.
func (r *renderer) markdown(src string) string {
	var b strings.Builder
	lines := strings.Split(src, "\n")
	var text []string // plain lines waiting to be written
	flush := func() {
		if len(text) > 0 {
			b.WriteString(`<div class="md-text">`)
			for i, l := range text {
				if i > 0 {
					b.WriteString("<br>")
				}
				b.WriteString(r.inline(l))
			}
			b.WriteString("</div>")
			text = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "```"):
			flush()
			var code []string
			first := strings.TrimPrefix(l, "```")
			if rest, ok := strings.CutSuffix(first, "```"); ok && len(first) >= 3 {
				code = append(code, rest)
			} else {
				// The first line's rest names the language, unless the block
				// closes on a later line only.
				j := i + 1
				for ; j < len(lines) && !strings.HasSuffix(lines[j], "```"); j++ {
					code = append(code, lines[j])
				}
				if last := strings.TrimSuffix(lines[min(j, len(lines)-1)], "```"); j < len(lines) && last != "" {
					code = append(code, last)
				}
				i = j
			}
			b.WriteString(`<pre class="md-codeblock">` + html.EscapeString(strings.Join(code, "\n")) + "</pre>")
		case strings.HasPrefix(l, ">>> "):
			flush()
			rest := append([]string{strings.TrimPrefix(l, ">>> ")}, lines[i+1:]...)
			b.WriteString(`<blockquote class="md-quote">` + r.markdown(strings.Join(rest, "\n")) + "</blockquote>")
			i = len(lines)
		case strings.HasPrefix(l, "> ") || l == ">":
			flush()
			var quoted []string
			for ; i < len(lines) && (strings.HasPrefix(lines[i], "> ") || lines[i] == ">"); i++ {
				quoted = append(quoted, strings.TrimPrefix(strings.TrimPrefix(lines[i], ">"), " "))
			}
			i--
			b.WriteString(`<blockquote class="md-quote">` + r.markdown(strings.Join(quoted, "\n")) + "</blockquote>")
		case strings.HasPrefix(l, "-# "):
			flush()
			b.WriteString(`<div class="md-subtext">` + r.inline(strings.TrimPrefix(l, "-# ")) + "</div>")
		case headingRE.MatchString(l):
			flush()
			m := headingRE.FindStringSubmatch(l)
			tag := "h" + string(rune('0'+len(m[1])))
			b.WriteString("<" + tag + ` class="md-heading">` + r.inline(m[2]) + "</" + tag + ">")
		case listItemRE.MatchString(l):
			flush()
			i = r.list(&b, lines, i) - 1
		default:
			text = append(text, l)
		}
	}
	flush()
	return b.String()
}

// list writes the list starting at lines[i] and returns the index of the
// first line after it. An item indented by two spaces or more is nested.
func (r *renderer) list(b *strings.Builder, lines []string, i int) int {
	first := listItemRE.FindStringSubmatch(lines[i])
	ordered := first[2] != "-" && first[2] != "*"
	indent := len(first[1])
	if ordered {
		b.WriteString(`<ol class="md-list" start="` + html.EscapeString(strings.TrimSuffix(first[2], ".")) + `">`)
	} else {
		b.WriteString(`<ul class="md-list">`)
	}
	for i < len(lines) {
		m := listItemRE.FindStringSubmatch(lines[i])
		if m == nil || len(m[1]) < indent {
			break
		}
		if len(m[1]) >= indent+2 {
			i = r.list(b, lines, i)
			continue
		}
		if isOrdered := m[2] != "-" && m[2] != "*"; isOrdered != ordered {
			break
		}
		b.WriteString("<li>" + r.inline(m[3]) + "</li>")
		i++
	}
	if ordered {
		b.WriteString("</ol>")
	} else {
		b.WriteString("</ul>")
	}
	return i
}

var (
	userMentionRE = regexp.MustCompile(`^<@!?(\d+)>`)
	roleMentionRE = regexp.MustCompile(`^<@&(\d+)>`)
	channelRE     = regexp.MustCompile(`^<#(\d+)>`)
	customEmojiRE = regexp.MustCompile(`^<(a?):(\w{2,32}):(\d+)>`)
	timestampRE   = regexp.MustCompile(`^<t:(-?\d{1,13})(?::([tTdDfFR]))?>`)
	maskedLinkRE  = regexp.MustCompile(`^\[([^\]]+)\]\(<?(https?://[^)\s>]+)>?\)`)
	bareLinkRE    = regexp.MustCompile(`^https?://[^\s<]+[^\s<.,:;"')\]]`)
)

// spans are the inline rules with a closing delimiter, longest first.
var spans = []struct{ delim, open, close string }{
	{"***", `<strong><em>`, `</em></strong>`},
	{"**", `<strong>`, `</strong>`},
	{"__", `<u>`, `</u>`},
	{"~~", `<s>`, `</s>`},
	{"||", `<span class="md-spoiler">`, `</span>`},
	{"*", `<em>`, `</em>`},
	{"_", `<em>`, `</em>`},
}

// inline renders one line's inline markdown; its text is escaped.
func (r *renderer) inline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		rest := s[i:]
		if rest[0] == '\\' && len(rest) > 1 && strings.ContainsRune("\\*_~`|<>#-[]()", rune(rest[1])) {
			b.WriteString(html.EscapeString(rest[1:2]))
			i += 2
			continue
		}
		if rest[0] == '`' {
			delim := "`"
			if strings.HasPrefix(rest, "``") {
				delim = "``"
			}
			if end := strings.Index(rest[len(delim):], delim); end > 0 {
				b.WriteString(`<code class="md-code">` + html.EscapeString(rest[len(delim):len(delim)+end]) + "</code>")
				i += 2*len(delim) + end
				continue
			}
		}
		if rest[0] == '<' {
			if n, out := r.angle(rest); n > 0 {
				b.WriteString(out)
				i += n
				continue
			}
		}
		if m := maskedLinkRE.FindStringSubmatch(rest); m != nil {
			b.WriteString(`<span class="md-link">` + r.inline(m[1]) + "</span>")
			i += len(m[0])
			continue
		}
		if m := bareLinkRE.FindString(rest); m != "" {
			b.WriteString(`<span class="md-link">` + html.EscapeString(m) + "</span>")
			i += len(m)
			continue
		}
		if n, out := r.span(s, i); n > 0 {
			b.WriteString(out)
			i += n
			continue
		}
		b.WriteString(html.EscapeString(rest[:1]))
		i++
	}
	return b.String()
}

// span matches a delimited span (bold, italic...) at s[i:], returning how
// many bytes it took and its HTML.
func (r *renderer) span(s string, i int) (int, string) {
	rest := s[i:]
	for _, sp := range spans {
		d := sp.delim
		if !strings.HasPrefix(rest, d) || len(rest) <= 2*len(d) {
			continue
		}
		body := rest[len(d):]
		if body[0] == ' ' && len(d) == 1 {
			continue // "* " is not italic
		}
		if d == "_" && i > 0 && isWordByte(s[i-1]) {
			continue // snake_case is not italic
		}
		end := closing(body, d)
		if end <= 0 {
			continue
		}
		if d == "_" && len(body) > end+1 && isWordByte(body[end+1]) {
			continue
		}
		return len(d)*2 + end, sp.open + r.inline(body[:end]) + sp.close
	}
	return 0, ""
}

// closing finds the delimiter that closes a span in body: for a single *
// or _, not one that is half of a double.
func closing(body, d string) int {
	for from := 0; from < len(body); {
		j := strings.Index(body[from:], d)
		if j < 0 {
			return -1
		}
		j += from
		if len(d) == 1 && j+1 < len(body) && body[j+1] == d[0] {
			from = j + 2
			continue
		}
		return j
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// angle renders the <...> forms: mentions, custom emojis, timestamps.
func (r *renderer) angle(rest string) (int, string) {
	if m := userMentionRE.FindStringSubmatch(rest); m != nil {
		return len(m[0]), `<span class="mention">@` + html.EscapeString(r.userName(m[1])) + "</span>"
	}
	if m := roleMentionRE.FindStringSubmatch(rest); m != nil {
		return len(m[0]), `<span class="mention">@unknown-role</span>`
	}
	if m := channelRE.FindStringSubmatch(rest); m != nil {
		return len(m[0]), `<span class="mention">#unknown</span>`
	}
	if m := customEmojiRE.FindStringSubmatch(rest); m != nil {
		return len(m[0]), r.customEmoji(m[3], m[2], "emoji")
	}
	if m := timestampRE.FindStringSubmatch(rest); m != nil {
		return len(m[0]), `<span class="md-timestamp">` + html.EscapeString(timestampText(m[1], m[2])) + "</span>"
	}
	return 0, ""
}

// userName is a mentioned user's name as a client shows it.
func (r *renderer) userName(id string) string {
	if r.assets.User != nil {
		if n, ok := r.assets.User(id); ok {
			return n
		}
	}
	for _, u := range r.msg.Mentions {
		if u.ID == id {
			return u.name()
		}
	}
	return "unknown-user"
}

// customEmoji draws a custom emoji from its image, or as :name: when there
// is none to draw.
func (r *renderer) customEmoji(id, name, class string) string {
	if r.assets.Emoji != nil {
		if data, ok := r.assets.Emoji(id); ok {
			if uri, ok := dataURI(data); ok {
				return `<img class="` + class + `" src="` + uri + `" alt=":` + html.EscapeString(name) + `:">`
			}
		}
	}
	return html.EscapeString(":" + name + ":")
}

// timestampText writes a <t:unix:style> in UTC, in the client's English.
func timestampText(unix, style string) string {
	var sec int64
	for _, c := range strings.TrimPrefix(unix, "-") {
		sec = sec*10 + int64(c-'0')
	}
	if strings.HasPrefix(unix, "-") {
		sec = -sec
	}
	t := time.Unix(sec, 0).UTC()
	switch style {
	case "t":
		return t.Format("3:04 PM")
	case "T":
		return t.Format("3:04:05 PM")
	case "d":
		return t.Format("01/02/2006")
	case "D":
		return t.Format("January 2, 2006")
	case "F":
		return t.Format("Monday, January 2, 2006 3:04 PM")
	case "R":
		return t.Format("January 2, 2006") // relative to a moment a picture has not
	}
	return t.Format("January 2, 2006 3:04 PM")
}
