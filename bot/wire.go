package bot

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
	"conductor/present"
)

// wireMessage is a message body as Discord's OpenAPI description has it,
// for creating (channel messages, interaction replies, follow-ups) and for
// replacing a message (updates and edits).
type wireMessage struct {
	Content         string           `json:"content,omitempty"`
	Embeds          []wireEmbed      `json:"embeds,omitempty"`
	Components      []wireComponent  `json:"components"`
	AllowedMentions *wireMentions    `json:"allowed_mentions,omitempty"`
	Attachments     []wireAttachment `json:"attachments,omitempty"`
	Flags           int              `json:"flags,omitempty"`
	// Nonce with EnforceNonce: Discord answers a repeated post with the
	// message it created the first time.
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// wireReplacement is a message that replaces another one entirely: the
// attachments list is always sent, so that old files not listed go away. A
// components v2 replacement has content null and no embeds, as Discord
// requires of an edit that sets the flag.
type wireReplacement struct {
	Content         *string          `json:"content"`
	Embeds          []wireEmbed      `json:"embeds"`
	Components      []wireComponent  `json:"components"`
	AllowedMentions *wireMentions    `json:"allowed_mentions,omitempty"`
	Attachments     []wireAttachment `json:"attachments"`
	Flags           int              `json:"flags,omitempty"`
}

type wireEmbed struct {
	Type        string      `json:"type"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Color       int         `json:"color,omitempty"`
	Fields      []wireField `json:"fields,omitempty"`
	Footer      *wireFooter `json:"footer,omitempty"`
	Image       *wireImage  `json:"image,omitempty"`
}

type wireField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

type wireFooter struct {
	Text string `json:"text"`
}

type wireImage struct {
	URL string `json:"url"`
}

// wireComponent is an action row, a button or a string select, or a
// components v2 container, text display or media gallery (layout.go).
type wireComponent struct {
	Type        int             `json:"type"`
	Components  []wireComponent `json:"components,omitempty"`
	CustomID    string          `json:"custom_id,omitempty"`
	Style       int             `json:"style,omitempty"`
	Label       string          `json:"label,omitempty"`
	Emoji       *wireEmoji      `json:"emoji,omitempty"`
	Disabled    bool            `json:"disabled,omitempty"`
	Placeholder string          `json:"placeholder,omitempty"`
	MinValues   *int            `json:"min_values,omitempty"`
	MaxValues   *int            `json:"max_values,omitempty"`
	Options     []wireOption    `json:"options,omitempty"`
	// Components V2.
	Content string          `json:"content,omitempty"` // a text display's
	Items   []wireMediaItem `json:"items,omitempty"`   // a media gallery's
	File    *wireMedia      `json:"file,omitempty"`    // a file component's
}

// wireEmoji is a Unicode emoji by its name, or an application's custom
// emoji by its id and name (given as a "<:name:id>" mention).
type wireEmoji struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
}

type wireOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// wireMentions allows pinging exactly the listed users: "parse" is empty so
// that no @everyone, role or other user mention in the text pings anyone.
type wireMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users,omitempty"`
}

// wireAttachment names an uploaded file: id is the index of its files[n]
// part in a multipart body.
type wireAttachment struct {
	ID       string `json:"id"`
	Filename string `json:"filename"`
	// Description is the picture's alt text.
	Description string `json:"description,omitempty"`
}

// Discord's component types.
const (
	componentRow    = 1
	componentButton = 2
	componentSelect = 3
)

// Discord limits the text fields enforce; longer text is cut rather than
// refused, so that a long narration never loses a whole message.
const (
	maxContent      = 2000
	maxLabel        = 80
	maxOptionLabel  = 100
	maxPlaceholder  = 150
	maxEmbedTitle   = 256
	maxEmbedDesc    = 4096
	maxFieldName    = 256
	maxFieldValue   = 1024
	maxFooter       = 2048
	maxMentionUsers = 100
)

// toWire converts a message for sending. Files are returned separately,
// with fresh readers, for a multipart body.
func toWire(m commands.Message) (wireMessage, []*discordgo.File) {
	if layout, ok := boardLayout(m); ok {
		w := wireMessage{Components: layout, AllowedMentions: mentions(m.Mentions), Flags: flagComponentsV2,
			Attachments: attachments(m.Files, true)}
		return w, files(m.Files)
	}
	w := wireMessage{
		Content:         withStatus(m.Content, m.Status),
		Embeds:          embeds(m.Embeds),
		Components:      components(m.Components),
		AllowedMentions: mentions(m.Mentions),
	}
	if m.Ephemeral {
		w.Flags = int(discordgo.MessageFlagsEphemeral)
	}
	w.Attachments = attachments(m.Files, false)
	files := files(m.Files)
	return w, files
}

// withStatus is a message's text with its status line (a board's: whose
// turn, points, trains, the longest path, the last round) quoted under it,
// as words that read at any width where the picture's side panel does not;
// the status is kept whole when the text must be cut.
func withStatus(content, status string) string {
	if status == "" {
		return cut(content, maxContent)
	}
	block := "> " + cut(status, maxContent/2)
	return strings.TrimRight(cut(content, maxContent-utf8.RuneCountInString(block)-1), "\n") + "\n" + block
}

// toReplacement converts a message that replaces the one a component is
// on: its new files are listed as attachments, the old ones dropped.
func toReplacement(m commands.Message) (wireReplacement, []*discordgo.File) {
	if len(m.Files) > 0 {
		// Discord does not find a file uploaded by an edit for a media gallery
		// (discord-api-docs#7529): a board that replaces a message with a new
		// picture (an answer after a deferral) goes plain, its status quoted.
		m.IsBoard = false
	}
	w, files := toWire(m)
	r := wireReplacement{Embeds: w.Embeds, Components: w.Components, AllowedMentions: w.AllowedMentions,
		Attachments: attachments(m.Files, true)}
	if w.Flags&flagComponentsV2 != 0 {
		r.Embeds, r.Flags = []wireEmbed{}, flagComponentsV2
	} else {
		r.Content = &w.Content
		if r.Embeds == nil {
			r.Embeds = []wireEmbed{}
		}
	}
	return r, files
}

func embeds(es []commands.Embed) []wireEmbed {
	out := make([]wireEmbed, 0, len(es))
	for _, e := range es {
		we := wireEmbed{Type: "rich", Title: cut(e.Title, maxEmbedTitle), Description: cut(e.Description, maxEmbedDesc), Color: e.Color}
		for _, f := range e.Fields {
			name, value := f.Name, f.Value
			if name == "" {
				name = "\u200b" // Discord refuses empty field names and values
			}
			if value == "" {
				value = "\u200b"
			}
			we.Fields = append(we.Fields, wireField{Name: cut(name, maxFieldName), Value: cut(value, maxFieldValue), Inline: f.Inline})
		}
		if e.Footer != "" {
			we.Footer = &wireFooter{Text: cut(e.Footer, maxFooter)}
		}
		if e.Image != "" {
			we.Image = &wireImage{URL: "attachment://" + e.Image}
		}
		out = append(out, we)
	}
	return out
}

func components(rows []commands.Row) []wireComponent {
	out := make([]wireComponent, 0, len(rows))
	for _, row := range rows {
		if len(row) == 0 {
			continue
		}
		wr := wireComponent{Type: componentRow}
		for _, c := range row {
			switch c.Kind {
			case commands.Button:
				b := wireComponent{Type: componentButton, CustomID: c.ID, Style: int(c.Style), Label: cut(c.Label, maxLabel), Disabled: c.Disabled}
				if b.Style == 0 {
					b.Style = int(commands.Secondary)
				}
				if c.Emoji != "" {
					b.Emoji = emojiOf(c.Emoji)
				}
				wr.Components = append(wr.Components, b)
			case commands.Select:
				s := wireComponent{Type: componentSelect, CustomID: c.ID, Placeholder: cut(c.Placeholder, maxPlaceholder), Disabled: c.Disabled}
				lo, hi := c.Min, c.Max
				if hi < 1 {
					hi = 1
				}
				hi = min(hi, len(c.Options))
				lo = min(max(lo, 0), hi)
				s.MinValues, s.MaxValues = &lo, &hi
				for _, o := range c.Options {
					s.Options = append(s.Options, wireOption{Label: cut(o.Label, maxOptionLabel), Value: o.Value,
						Description: cut(o.Description, maxOptionLabel), Default: o.Default})
				}
				wr.Components = append(wr.Components, s)
			}
		}
		out = append(out, wr)
	}
	return out
}

func mentions(users []string) *wireMentions {
	m := &wireMentions{Parse: []string{}}
	seen := map[string]bool{}
	for _, u := range users {
		if u != "" && !seen[u] && len(m.Users) < maxMentionUsers {
			seen[u] = true
			m.Users = append(m.Users, u)
		}
	}
	return m
}

func files(fs []commands.File) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range fs {
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		out = append(out, &discordgo.File{Name: f.Name, ContentType: ct, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// attachments lists a message's uploads by their files[n] index, with
// their alt text: only when one has some, unless all is set (a message
// that replaces another lists what it keeps).
func attachments(fs []commands.File, all bool) []wireAttachment {
	out := []wireAttachment{}
	described := false
	for i, f := range fs {
		described = described || f.Description != ""
		out = append(out, wireAttachment{ID: strconv.Itoa(i), Filename: f.Name, Description: cut(f.Description, present.MaxAlt)})
	}
	if !described && !all {
		return nil
	}
	return out
}

// cut shortens s to at most n characters (runes), ending with "…".
func cut(s string, n int) string { return present.Cut(s, n) }
