// Package msgshots draws a message as Discord's client shows it, from the
// message's JSON as Discord's API gives it (the fake Discord's
// Server.MessageJSON): HTML in Discord's dark theme (HTML), and a PNG of it
// from headless Chromium (Browser.Shoot). The documentation's pictures of
// the thread's board message come from it (bot's TestBoardMessagePictures,
// run by `go run ./internal/webshots board`).
//
// It draws what a client draws, no more: the author line, the markdown
// subset the bot writes, embeds, attachments, buttons and select menus, and
// Components V2 (containers, text displays, media galleries, sections,
// thumbnails, separators). The page loads nothing: images are data: URIs,
// and a content security policy refuses anything else.
package msgshots

import "encoding/json"

// FlagComponentsV2 marks a message laid out by components alone (content
// and embeds are then absent).
const FlagComponentsV2 = 1 << 15

// Component types (Discord's numbering).
const (
	typeActionRow    = 1
	typeButton       = 2
	typeStringSelect = 3
	typeUserSelect   = 5
	typeRoleSelect   = 6
	typeMentionable  = 7
	typeChannelSel   = 8
	typeSection      = 9
	typeTextDisplay  = 10
	typeThumbnail    = 11
	typeMediaGallery = 12
	typeFile         = 13
	typeSeparator    = 14
	typeContainer    = 17
)

// Button styles.
const (
	stylePrimary   = 1
	styleSecondary = 2
	styleSuccess   = 3
	styleDanger    = 4
	styleLink      = 5
	stylePremium   = 6
)

// Message is the part of Discord's message object a client draws.
type Message struct {
	Author      User         `json:"author"`
	Content     string       `json:"content"`
	Timestamp   string       `json:"timestamp"`
	Flags       int          `json:"flags"`
	Embeds      []Embed      `json:"embeds"`
	Attachments []Attachment `json:"attachments"`
	Components  []Component  `json:"components"`
	Mentions    []User       `json:"mentions"`
}

// User is a message's author or a mentioned user.
type User struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
	Bot        bool   `json:"bot"`
}

// name is what a client shows: the display name, else the username.
func (u User) name() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// Embed is a rich embed.
type Embed struct {
	Title       string       `json:"title"`
	Description string       `json:"description"`
	URL         string       `json:"url"`
	Color       *int         `json:"color"`
	Fields      []EmbedField `json:"fields"`
	Author      *struct {
		Name string `json:"name"`
	} `json:"author"`
	Footer *struct {
		Text string `json:"text"`
	} `json:"footer"`
	Image     *Media `json:"image"`
	Thumbnail *Media `json:"thumbnail"`
}

// EmbedField is a name and a value, inline or on its own line.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline"`
}

// Media is an embed's image or an unfurled media item: a URL, with the
// size Discord measured when it has.
type Media struct {
	URL    string `json:"url"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Attachment is an uploaded file.
type Attachment struct {
	Filename    string `json:"filename"`
	Description string `json:"description"`
	ContentType string `json:"content_type"`
	URL         string `json:"url"`
	Size        int    `json:"size"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
}

// Component is any message component, V1 or V2, with its children.
type Component struct {
	Type        int           `json:"type"`
	Style       int           `json:"style"`
	Label       string        `json:"label"`
	Disabled    bool          `json:"disabled"`
	URL         string        `json:"url"`
	Emoji       *Emoji        `json:"emoji"`
	Placeholder string        `json:"placeholder"`
	Options     []Option      `json:"options"`
	Components  []Component   `json:"components"`
	Accessory   *Component    `json:"accessory"`
	Content     string        `json:"content"`
	Items       []GalleryItem `json:"items"`
	Media       *Media        `json:"media"` // a thumbnail's
	File        *Media        `json:"file"`  // a file component's
	Description string        `json:"description"`
	Spoiler     bool          `json:"spoiler"`
	Divider     *bool         `json:"divider"`
	Spacing     int           `json:"spacing"`
	AccentColor *int          `json:"accent_color"`
}

// Emoji decorates a button or an option: Unicode (name only) or custom (id).
type Emoji struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Animated bool   `json:"animated"`
}

// Option is one choice of a string select.
type Option struct {
	Label   string `json:"label"`
	Default bool   `json:"default"`
	Emoji   *Emoji `json:"emoji"`
}

// GalleryItem is one picture of a media gallery.
type GalleryItem struct {
	Media       Media  `json:"media"`
	Description string `json:"description"`
	Spoiler     bool   `json:"spoiler"`
}

// Parse reads a message object as Discord's API gives it.
func Parse(doc []byte) (Message, error) {
	var m Message
	err := json.Unmarshal(doc, &m)
	return m, err
}
