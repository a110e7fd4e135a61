package msgshots

import (
	"fmt"
	"html"
	"strings"
)

// componentsV2 draws a Components V2 message: its components in order,
// each a block of the message's column.
func (r *renderer) componentsV2(b *strings.Builder, cs []Component, width int) {
	for _, c := range cs {
		r.component(b, c, width)
	}
}

// component draws one component in a column width px wide.
func (r *renderer) component(b *strings.Builder, c Component, width int) {
	switch c.Type {
	case typeActionRow:
		b.WriteString(`<div class="action-row">`)
		for _, child := range c.Components {
			r.component(b, child, width)
		}
		b.WriteString(`</div>`)
	case typeButton:
		r.button(b, c)
	case typeStringSelect, typeUserSelect, typeRoleSelect, typeMentionable, typeChannelSel:
		r.selectMenu(b, c, width)
	case typeTextDisplay:
		b.WriteString(`<div class="text-display">` + r.markdown(c.Content) + `</div>`)
	case typeSection:
		b.WriteString(`<div class="section"><div class="section-text">`)
		for _, child := range c.Components {
			r.component(b, child, width-sectionThumbSize-16)
		}
		b.WriteString(`</div>`)
		if c.Accessory != nil {
			b.WriteString(`<div class="section-accessory">`)
			if c.Accessory.Type == typeThumbnail {
				r.thumbnail(b, *c.Accessory)
			} else {
				r.component(b, *c.Accessory, width)
			}
			b.WriteString(`</div>`)
		}
		b.WriteString(`</div>`)
	case typeThumbnail:
		r.thumbnail(b, c)
	case typeMediaGallery:
		r.gallery(b, c.Items, width)
	case typeFile:
		name := ""
		if c.File != nil {
			name = c.File.URL[strings.LastIndex(c.File.URL, "/")+1:]
		}
		fileBox(b, name, 0)
	case typeSeparator:
		cls := "separator"
		if c.Spacing == 2 {
			cls += " large"
		}
		if c.Divider == nil || *c.Divider {
			cls += " divider"
		}
		b.WriteString(`<div class="` + cls + `"></div>`)
	case typeContainer:
		cls := "container"
		if c.Spoiler {
			cls += " spoiler"
		}
		style := ""
		if c.AccentColor != nil {
			cls += " accented"
			style = fmt.Sprintf(` style="border-left-color:#%06x"`, *c.AccentColor&0xffffff)
		}
		b.WriteString(`<div class="` + cls + `"` + style + `>`)
		for _, child := range c.Components {
			r.component(b, child, width-containerInset)
		}
		b.WriteString(`</div>`)
	}
}

// button draws a button: its style's colour, its emoji and label, dimmed
// and marked when disabled; a link button carries the external-link mark.
func (r *renderer) button(b *strings.Builder, c Component) {
	style := map[int]string{stylePrimary: "primary", styleSecondary: "secondary", styleSuccess: "success",
		styleDanger: "danger", styleLink: "link", stylePremium: "premium"}[c.Style]
	if style == "" {
		style = "secondary"
	}
	cls := "button " + style
	attr := ""
	if c.Disabled {
		cls += " disabled"
		attr = ` aria-disabled="true"`
	}
	b.WriteString(`<span class="` + cls + `"` + attr + `>`)
	if c.Emoji != nil {
		b.WriteString(`<span class="button-emoji">` + r.emoji(*c.Emoji) + `</span>`)
	}
	if c.Label != "" {
		b.WriteString(`<span class="button-label">` + html.EscapeString(c.Label) + `</span>`)
	}
	if c.Style == styleLink {
		b.WriteString(`<span class="link-mark">↗</span>`)
	}
	b.WriteString(`</span>`)
}

// emoji draws a component's emoji: Unicode as text, custom from its image.
func (r *renderer) emoji(e Emoji) string {
	if e.ID != "" {
		return r.customEmoji(e.ID, e.Name, "emoji")
	}
	return html.EscapeString(e.Name)
}

// selectMenu draws a closed select: the chosen options or the placeholder,
// and the chevron.
func (r *renderer) selectMenu(b *strings.Builder, c Component, width int) {
	cls := "select"
	attr := ""
	if c.Disabled {
		cls += " disabled"
		attr = ` aria-disabled="true"`
	}
	fmt.Fprintf(b, `<div class="%s"%s style="max-width:%dpx"><span class="select-value">`, cls, attr, min(width, 400))
	var chosen []string
	for _, o := range c.Options {
		if o.Default {
			label := html.EscapeString(o.Label)
			if o.Emoji != nil {
				label = r.emoji(*o.Emoji) + " " + label
			}
			chosen = append(chosen, label)
		}
	}
	if len(chosen) > 0 {
		b.WriteString(strings.Join(chosen, ", "))
	} else {
		placeholder := c.Placeholder
		if placeholder == "" {
			placeholder = "Make a selection"
		}
		b.WriteString(`<span class="placeholder">` + html.EscapeString(placeholder) + `</span>`)
	}
	b.WriteString(`</span><span class="chevron">⌄</span></div>`)
}

// thumbnail draws a section's thumbnail: a square picture, cropped.
func (r *renderer) thumbnail(b *strings.Builder, c Component) {
	if c.Media == nil {
		return
	}
	p, ok := r.picture(c.Media.URL)
	if !ok {
		fmt.Fprintf(b, `<div class="thumbnail missing" title="%s"></div>`, html.EscapeString(c.Description))
		return
	}
	cls := "thumbnail"
	if c.Spoiler {
		cls += " spoiler"
	}
	fmt.Fprintf(b, `<img class="%s" src="%s" alt="%s">`, cls, p.uri, html.EscapeString(c.Description))
}

// gallery draws a media gallery: one picture at the column's width (at
// most 350 px high, keeping its aspect); several in Discord's mosaic of
// cropped tiles: two side by side, three as one large and two stacked,
// then rows of two and three.
func (r *renderer) gallery(b *strings.Builder, items []GalleryItem, width int) {
	if len(items) == 0 {
		return
	}
	if len(items) == 1 {
		it := items[0]
		b.WriteString(`<div class="gallery single">`)
		r.img(b, it.Media.URL, it.Description, spoilerClass("media", it.Spoiler), width, maxImageHeight, it.Media.Width, it.Media.Height)
		b.WriteString(`</div>`)
		return
	}
	tile := func(it GalleryItem, style string) {
		p, ok := r.picture(it.Media.URL)
		if !ok {
			fmt.Fprintf(b, `<div class="tile missing" style="%s" title="%s"></div>`, style, html.EscapeString(it.Description))
			return
		}
		fmt.Fprintf(b, `<img class="%s" style="%s" src="%s" alt="%s">`, spoilerClass("tile", it.Spoiler), style, p.uri, html.EscapeString(it.Description))
	}
	if len(items) == 3 {
		// One large tile on the left, two stacked on the right.
		h := width * 2 / 3
		fmt.Fprintf(b, `<div class="gallery three" style="height:%dpx">`, h)
		tile(items[0], "grid-row:span 2")
		tile(items[1], "")
		tile(items[2], "")
		b.WriteString(`</div>`)
		return
	}
	// Rows: 2, 4 as rows of two; 5 and more as a first row of one or two,
	// then rows of three.
	var rows [][]GalleryItem
	rest := items
	switch len(items) {
	case 2, 4:
		for ; len(rest) > 0; rest = rest[2:] {
			rows = append(rows, rest[:2])
		}
	default:
		first := len(items) % 3
		if first == 0 {
			first = 3
		}
		rows = append(rows, rest[:first])
		for rest = rest[first:]; len(rest) > 0; rest = rest[3:] {
			rows = append(rows, rest[:3])
		}
	}
	b.WriteString(`<div class="gallery">`)
	for _, row := range rows {
		h := (width - 4*(len(row)-1)) / len(row)
		if len(row) == 1 {
			h = width * 9 / 16
		}
		fmt.Fprintf(b, `<div class="gallery-row" style="height:%dpx">`, h)
		for _, it := range row {
			tile(it, "")
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div>`)
}

func spoilerClass(cls string, spoiler bool) string {
	if spoiler {
		return cls + " spoiler"
	}
	return cls
}
