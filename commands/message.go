// Package commands turns Discord-style requests (slash commands, buttons,
// select menus, autocomplete) into engine actions and replies. It knows
// nothing of the transport: the bot package speaks Discord, the local
// player speaks to a terminal, and both call Service.Handle.
package commands

import (
	"context"
	"time"
)

// Message is a reply or a post, in transport-neutral terms.
type Message struct {
	Content    string
	Embeds     []Embed
	Files      []File
	Components []Row
	// Ephemeral messages are seen only by the user who made the request.
	Ephemeral bool
	// Mentions lists the user ids a message may ping; others are not pinged.
	Mentions []string
	// Nonce, on a post, is sent with enforce_nonce: Discord then answers a
	// repeated post with the message it already created.
	Nonce string `json:",omitempty"`
	// Status, on a board, is the table in one line of words
	// (present.StatusLine), for a transport that shows it beside the
	// picture: the terminal prints it under each board.
	Status string `json:",omitempty"`
	// BotNext, on a board, says a bot plays next: its move follows at once,
	// with a board of its own, so a transport that shows one picture at a
	// time (the terminal) may show this board's words alone.
	BotNext bool `json:",omitempty"`
	// IsBoard marks a table's board (its narration, picture, status and controls), for a
	// transport that lays those out as one unit (Discord: a Components V2 container). A
	// board queued by a release without it goes out as a plain message.
	IsBoard bool `json:",omitempty"`
}

// Embed is a rich block under the content.
type Embed struct {
	Title       string
	Description string
	Color       int
	Image       string // attachment name, e.g. "board.png"
	Fields      []Field
	Footer      string
}

// Field is a titled value inside an embed.
type Field struct {
	Name, Value string
	Inline      bool
}

// File is an attachment.
type File struct {
	Name        string
	ContentType string
	Data        []byte
	// Description is a picture's alt text (present.MaxAlt at most).
	Description string `json:",omitempty"`
}

// Row is an action row of components (at most five buttons or one select).
type Row []Component

// ComponentKind is a button or a select menu.
type ComponentKind uint8

const (
	Button ComponentKind = iota + 1
	Select
)

// ButtonStyle matches Discord's button styles.
type ButtonStyle uint8

const (
	Primary   ButtonStyle = 1
	Secondary ButtonStyle = 2
	Success   ButtonStyle = 3
	Danger    ButtonStyle = 4
)

// Component is a button or a string select menu.
type Component struct {
	Kind     ComponentKind
	ID       string // custom id
	Label    string
	Style    ButtonStyle
	Disabled bool
	Emoji    string
	// Select menus.
	Placeholder string
	Options     []SelectOption
	Min, Max    int
}

// SelectOption is one choice of a select menu.
type SelectOption struct {
	Label, Value, Description string
	Default                   bool
}

// Choice is an autocomplete suggestion, or one of an option's fixed
// choices; Names gives a fixed choice's name per language.
type Choice struct {
	Name  string
	Value string
	Names map[string]string `json:",omitempty"`
}

// RequestType says what kind of interaction a request is.
type RequestType uint8

const (
	CommandRequest RequestType = iota + 1
	ComponentRequest
	AutocompleteRequest
)

// Request is one interaction.
type Request struct {
	Type    RequestType
	ID      string // unique interaction id (repeats are applied once)
	Guild   string
	Channel string
	User    string
	// UserName is how the user is shown (server nickname or global name).
	UserName    string
	Locale      string // the user's client language
	GuildLocale string // the server's language
	// CanManage: the member has Manage Channel here.
	CanManage bool
	// CanManageServer: the member has Manage Server (needed to forget a
	// server's games).
	CanManageServer bool
	// Commands: Name ("ttr", "draw"…), Sub (subcommand) and options by name.
	Name    string
	Sub     string
	Options map[string]string
	// Autocomplete: the option being typed (its text is in Options).
	Focused string
	// Components: the custom id and, for select menus, the values chosen.
	CustomID string
	Values   []string
	// DM is set when the request comes from a direct message.
	DM bool
	// AppPermissions are the bot's permissions where the request was made,
	// as Discord computed them (app_permissions), when KnownPermissions:
	// a transport without permissions (the terminal) leaves both unset.
	AppPermissions   Permissions
	KnownPermissions bool
	// ChannelKind is what the request's channel is (a text channel, a
	// thread...), when the transport knows.
	ChannelKind ChannelKind
	// Via, until ViaUntil, lets the transport post in the request's channel on
	// the request's behalf (Discord: the interaction's webhook, outside the
	// bot's global rate limit); opaque here, "" when there is no such way.
	Via      string
	ViaUntil time.Time
}

// Opt returns an option's value or "".
func (r *Request) Opt(name string) string { return r.Options[name] }

// Responder answers one request. Exactly one of Reply, Update, Ack or
// Choices is called first; FollowUp may come after.
type Responder interface {
	// Reply answers with a new message (ephemeral or public).
	Reply(Message) error
	// Update edits the message that holds the clicked component.
	Update(Message) error
	// Ack acknowledges a component click without visible change.
	Ack() error
	// Choices answers an autocomplete request.
	Choices([]Choice) error
	// FollowUp sends another message after the first answer.
	FollowUp(Message) error
}

// Poster sends messages outside any interaction: board posts after every
// move, bot moves, turn-timer reminders, DMs.
type Poster interface {
	// Post sends a message to a channel and returns its id. ctx ends the
	// request (the service closing).
	Post(ctx context.Context, channel string, m Message) (string, error)
	// DM sends a private message; it returns ErrDMClosed when the user does
	// not accept direct messages.
	DM(ctx context.Context, user string, m Message) error
}

// ControlsRemover is a Poster that can take the buttons off an earlier
// post: a new board leaves the table one live set of controls. A Poster
// without it (the terminal) has none to remove.
type ControlsRemover interface {
	RemoveControls(ctx context.Context, channel, messageID string) error
}
