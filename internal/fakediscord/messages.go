package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // attachments may be GIFs
	_ "image/jpeg" // or JPEGs
	_ "image/png"  // boards are PNGs
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Message flags the fake gives meaning to.
const (
	FlagEphemeral    = 1 << 6  // only the invoking user sees the message
	FlagLoading      = 1 << 7  // a deferred interaction response still "thinking"
	FlagComponentsV2 = 1 << 15 // layout components instead of content/embeds
)

// Component types (Discord's numbering).
const (
	ComponentActionRow    = 1
	ComponentButton       = 2
	ComponentStringSelect = 3
	ComponentTextInput    = 4
	ComponentUserSelect   = 5
	ComponentRoleSelect   = 6
	ComponentMentionable  = 7
	ComponentChannelSel   = 8
	ComponentSection      = 9
	ComponentTextDisplay  = 10
	ComponentContainer    = 17
	ComponentLabel        = 18
)

// Message is one message as the fake stores it. Values handed to tests are snapshots.
type Message struct {
	ID          string
	ChannelID   string
	GuildID     string // empty in DMs
	Author      User
	Type        int // 0 default, 19 reply, 20 chat input command
	Content     string
	Embeds      []Embed
	Components  []Component
	Attachments []Attachment
	Flags       int
	// VisibleTo is the only user who sees an ephemeral message (empty for others).
	VisibleTo string
	// InteractionID is the interaction whose response or follow-up this message is.
	InteractionID string
	WebhookID     string
	Deleted       bool
	Version       int // 0 as posted, +1 per edit
	CreatedAt     time.Time
	EditedAt      time.Time
	// RawEmbeds and RawComponents are the JSON the bot sent (attachment:// URLs resolved).
	RawEmbeds     json.RawMessage
	RawComponents json.RawMessage
	// Nonce is the nonce the message was created with ("" for none).
	Nonce string
}

// Ephemeral reports flag 64.
func (m Message) Ephemeral() bool { return m.Flags&FlagEphemeral != 0 }

// Loading reports a deferred response that was never edited.
func (m Message) Loading() bool { return m.Flags&FlagLoading != 0 }

// Public reports a message everyone in a guild channel can read: not ephemeral, not a DM.
func (m Message) Public() bool { return m.GuildID != "" && !m.Ephemeral() }

// Embed is the part of an embed tests look at.
type Embed struct {
	Type        string       `json:"type,omitempty"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	URL         string       `json:"url,omitempty"`
	Timestamp   string       `json:"timestamp,omitempty"`
	Color       int          `json:"color,omitempty"`
	Fields      []EmbedField `json:"fields,omitempty"`
	Author      *EmbedAuthor `json:"author,omitempty"`
	Footer      *EmbedFooter `json:"footer,omitempty"`
	Image       *EmbedMedia  `json:"image,omitempty"`
	Thumbnail   *EmbedMedia  `json:"thumbnail,omitempty"`
}

// EmbedField is a name/value pair of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// EmbedAuthor is an embed's author line.
type EmbedAuthor struct {
	Name    string `json:"name,omitempty"`
	URL     string `json:"url,omitempty"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text    string `json:"text,omitempty"`
	IconURL string `json:"icon_url,omitempty"`
}

// EmbedMedia is an embed's image or thumbnail.
type EmbedMedia struct {
	URL string `json:"url,omitempty"`
}

// Component is a message or modal component, with its children.
type Component struct {
	Type        int            `json:"type"`
	ID          int            `json:"id,omitempty"`
	CustomID    string         `json:"custom_id,omitempty"`
	Style       int            `json:"style,omitempty"`
	Label       string         `json:"label,omitempty"`
	Disabled    bool           `json:"disabled,omitempty"`
	URL         string         `json:"url,omitempty"`
	Emoji       *Emoji         `json:"emoji,omitempty"`
	Placeholder string         `json:"placeholder,omitempty"`
	MinValues   *int           `json:"min_values,omitempty"`
	MaxValues   *int           `json:"max_values,omitempty"`
	Options     []SelectOption `json:"options,omitempty"`
	Components  []Component    `json:"components,omitempty"`
	Component   *Component     `json:"component,omitempty"` // a label's child
	Accessory   *Component     `json:"accessory,omitempty"` // a section's accessory
	Content     string         `json:"content,omitempty"`   // text display
	Value       string         `json:"value,omitempty"`     // text input prefill
	Required    *bool          `json:"required,omitempty"`
	MinLength   *int           `json:"min_length,omitempty"`
	MaxLength   *int           `json:"max_length,omitempty"`
	Description string         `json:"description,omitempty"`
	// Components V2: a media gallery's items, a thumbnail's media, a file's file, a
	// container's accent colour, a separator's divider and spacing.
	Items       []MediaItem    `json:"items,omitempty"`
	Media       *UnfurledMedia `json:"media,omitempty"`
	File        *UnfurledMedia `json:"file,omitempty"`
	AccentColor *int           `json:"accent_color,omitempty"`
	Spoiler     bool           `json:"spoiler,omitempty"`
	Divider     *bool          `json:"divider,omitempty"`
	Spacing     int            `json:"spacing,omitempty"`
}

// Emoji decorates a button or select option.
type Emoji struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// SelectOption is one choice of a string select.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Default     bool   `json:"default,omitempty"`
	Emoji       *Emoji `json:"emoji,omitempty"`
}

// Attachment is an uploaded file kept with its bytes.
type Attachment struct {
	ID          string
	Filename    string
	Description string
	ContentType string
	Data        []byte
	URL         string // served by the fake
	Width       int    // for images
	Height      int
}

// Image decodes a PNG, JPEG or GIF attachment.
func (a Attachment) Image() (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(a.Data))
	if err != nil {
		return nil, fmt.Errorf("attachment %s: %w", a.Filename, err)
	}
	return img, nil
}

// Walk visits every component of the message, depth first.
func (m Message) Walk(visit func(c Component)) {
	walkComponents(m.Components, visit)
}

func walkComponents(cs []Component, visit func(c Component)) {
	for _, c := range cs {
		visit(c)
		walkComponents(c.Components, visit)
		if c.Component != nil {
			walkComponents([]Component{*c.Component}, visit)
		}
		if c.Accessory != nil {
			walkComponents([]Component{*c.Accessory}, visit)
		}
	}
}

// Component finds an interactive component by custom_id.
func (m Message) Component(customID string) (Component, bool) {
	var found Component
	ok := false
	m.Walk(func(c Component) {
		if !ok && c.CustomID == customID {
			found, ok = c, true
		}
	})
	return found, ok
}

// Buttons lists the message's buttons in reading order.
func (m Message) Buttons() []Component {
	var out []Component
	m.Walk(func(c Component) {
		if c.Type == ComponentButton {
			out = append(out, c)
		}
	})
	return out
}

// Attachment finds an attachment by file name.
func (m Message) Attachment(filename string) (Attachment, bool) {
	for _, a := range m.Attachments {
		if a.Filename == filename {
			return a, true
		}
	}
	return Attachment{}, false
}

// Text gathers every string a client receives with the message: content, embed texts, the
// labels, values and custom ids of components, attachment names and descriptions. Custom ids
// are included because every client receives them, so they must not hold secrets either.
func (m Message) Text() []Finding {
	var out []Finding
	add := func(where, s string) {
		if s != "" {
			out = append(out, Finding{Where: where, Text: s})
		}
	}
	add("content", m.Content)
	collectStrings(m.RawEmbeds, "embeds", add)
	collectStrings(m.RawComponents, "components", add)
	for i, a := range m.Attachments {
		add(fmt.Sprintf("attachments/%d/filename", i), a.Filename)
		add(fmt.Sprintf("attachments/%d/description", i), a.Description)
	}
	return out
}

// Finding is a string found in a message, with a JSON-pointer-like location.
type Finding struct {
	Where string
	Text  string
}

func collectStrings(raw json.RawMessage, where string, add func(string, string)) {
	if len(raw) == 0 {
		return
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return
	}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case string:
			add(at, x)
		case []any:
			for i, e := range x {
				walk(e, at+"/"+strconv.Itoa(i))
			}
		case map[string]any:
			for k, e := range x {
				walk(e, at+"/"+k)
			}
		}
	}
	walk(v, where)
}

// Contains reports whether any text of the message (see Text) contains s.
func (m Message) Contains(s string) bool {
	for _, f := range m.Text() {
		if strings.Contains(f.Text, s) {
			return true
		}
	}
	return false
}

func (m *Message) clone() Message {
	c := *m
	c.Embeds = append([]Embed(nil), m.Embeds...)
	c.Components = append([]Component(nil), m.Components...)
	c.Attachments = append([]Attachment(nil), m.Attachments...)
	return c
}

// applyPayloadLocked sets the message fields a create or edit body carries. On edit, absent
// fields stay; "attachments", when present, lists the existing attachments to keep, and
// uploaded files are added either way.
func (s *Server) applyPayloadLocked(m *Message, doc map[string]json.RawMessage, files []File, editing bool) error {
	before := m.Flags
	if raw, ok := doc["content"]; ok {
		var content *string
		if err := json.Unmarshal(raw, &content); err != nil {
			return fmt.Errorf("content: %w", err)
		}
		m.Content = ""
		if content != nil {
			m.Content = *content
		}
	}
	if raw, ok := doc["flags"]; ok {
		var flags *int
		if err := json.Unmarshal(raw, &flags); err != nil {
			return fmt.Errorf("flags: %w", err)
		}
		if flags != nil {
			// Only ephemeral, suppress-embeds (4), suppress-notifications (4096) and
			// components-v2 can be set by a bot; ephemeral only at creation.
			keep := m.Flags & (FlagEphemeral | FlagLoading)
			settable := 1<<2 | 1<<12 | FlagComponentsV2
			if !editing {
				settable |= FlagEphemeral
			}
			m.Flags = keep | (*flags & settable)
		}
	}
	if editing {
		if raw, ok := doc["attachments"]; ok {
			var keep []struct {
				ID json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(raw, &keep); err != nil {
				return fmt.Errorf("attachments: %w", err)
			}
			ids := map[string]bool{}
			for _, k := range keep {
				ids[strings.Trim(string(k.ID), `"`)] = true
			}
			var kept []Attachment
			for _, a := range m.Attachments {
				if ids[a.ID] {
					kept = append(kept, a)
				}
			}
			m.Attachments = kept
		}
	}
	meta := attachmentMeta(doc["attachments"])
	uploaded := len(m.Attachments) // the attachments from here on are this body's files
	for i, f := range files {
		a := Attachment{ID: s.ids.next(), Filename: f.Filename, ContentType: f.ContentType, Data: f.Data}
		if md, ok := meta[strconv.Itoa(i)]; ok {
			if md.Filename != "" {
				a.Filename = md.Filename
			}
			a.Description = md.Description
		}
		a.URL = s.base + "/attachments/" + m.ChannelID + "/" + a.ID + "/" + url.PathEscape(a.Filename)
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data)); err == nil {
			a.Width, a.Height = cfg.Width, cfg.Height
		}
		m.Attachments = append(m.Attachments, a)
	}
	if raw, ok := doc["embeds"]; ok {
		resolved, err := s.resolveAttachmentURLs(raw, m.Attachments)
		if err != nil {
			return fmt.Errorf("embeds: %w", err)
		}
		m.RawEmbeds = resolved
		m.Embeds = nil
		if err := json.Unmarshal(resolved, &m.Embeds); err != nil {
			return fmt.Errorf("embeds: %w", err)
		}
		for i := range m.Embeds {
			if m.Embeds[i].Type == "" {
				m.Embeds[i].Type = "rich"
			}
		}
	}
	if raw, ok := doc["components"]; ok {
		m.RawComponents = append(json.RawMessage(nil), raw...)
	}
	if errs := checkV2State(before, m, doc, editing, m.Attachments[uploaded:]); len(errs) > 0 {
		return formError(errs)
	}
	if _, ok := doc["components"]; ok {
		if m.Flags&FlagComponentsV2 != 0 && len(m.RawComponents) > 0 && string(m.RawComponents) != "null" {
			resolved, err := resolveComponentsV2(m.RawComponents, m.Attachments)
			if err != nil {
				return fmt.Errorf("components: %w", err)
			}
			m.RawComponents = resolved
		}
		m.Components = nil
		if err := json.Unmarshal(m.RawComponents, &m.Components); err != nil {
			return fmt.Errorf("components: %w", err)
		}
	}
	return nil
}

type attachmentMetadata struct {
	Filename    string `json:"filename"`
	Description string `json:"description"`
}

// attachmentMeta maps the "attachments" entries that describe new uploads (id = files[n]
// index) by that index.
func attachmentMeta(raw json.RawMessage) map[string]attachmentMetadata {
	out := map[string]attachmentMetadata{}
	var list []struct {
		ID json.RawMessage `json:"id"`
		attachmentMetadata
	}
	if json.Unmarshal(raw, &list) != nil {
		return out
	}
	for _, a := range list {
		out[strings.Trim(string(a.ID), `"`)] = a.attachmentMetadata
	}
	return out
}

// resolveAttachmentURLs turns attachment://name in embeds into the attachment's URL, as
// Discord does.
func (s *Server) resolveAttachmentURLs(raw json.RawMessage, atts []Attachment) (json.RawMessage, error) {
	if len(atts) == 0 || !bytes.Contains(raw, []byte("attachment://")) {
		return append(json.RawMessage(nil), raw...), nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if name, ok := strings.CutPrefix(x, "attachment://"); ok {
				for _, a := range atts {
					if a.Filename == name {
						return a.URL
					}
				}
			}
			return x
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	return json.Marshal(walk(v))
}

// messageJSONLocked renders a message as Discord's REST API and gateway do.
func (s *Server) messageJSONLocked(m *Message) map[string]any {
	atts := []any{}
	for _, a := range m.Attachments {
		if m.referenced(a) {
			continue // shown by an embed or a component, listed there
		}
		am := map[string]any{
			"id": a.ID, "filename": a.Filename, "size": len(a.Data), "url": a.URL, "proxy_url": a.URL,
		}
		if a.ContentType != "" {
			am["content_type"] = a.ContentType
		}
		if a.Description != "" {
			am["description"] = a.Description
		}
		if a.Width > 0 {
			am["width"], am["height"] = a.Width, a.Height
		}
		atts = append(atts, am)
	}
	out := map[string]any{
		"id": m.ID, "type": m.Type, "channel_id": m.ChannelID, "author": userJSON(&m.Author),
		"content": m.Content, "timestamp": timestamp(m.CreatedAt), "edited_timestamp": nil,
		"tts": false, "mention_everyone": false, "mentions": []any{}, "mention_roles": []any{},
		"attachments": atts, "embeds": rawOrEmpty(m.RawEmbeds), "components": rawOrEmpty(m.RawComponents),
		"pinned": false, "flags": m.Flags,
	}
	if m.Version > 0 {
		out["edited_timestamp"] = timestamp(m.EditedAt)
	}
	if m.Nonce != "" {
		out["nonce"] = m.Nonce
	}
	if m.GuildID != "" {
		out["guild_id"] = m.GuildID
	}
	// A thread started from a message has the message's id (threads.go).
	if th, ok := s.channels[m.ID]; ok && th.ParentID == m.ChannelID {
		out["thread"] = s.channelJSONLocked(th)
	}
	if m.WebhookID != "" {
		out["webhook_id"] = m.WebhookID
		out["application_id"] = s.bot.ID
	}
	if it, ok := s.interactions[m.InteractionID]; ok && m.InteractionID != "" {
		user := s.users[it.userID]
		owners := map[string]any{"0": "0"} // 0: the bot's own DM context
		if it.guildID != "" {
			owners["0"] = it.guildID
		}
		meta := map[string]any{
			"id": it.id, "type": it.kind, "user": userJSON(user), "authorizing_integration_owners": owners,
		}
		if m.ID != it.originalID && it.originalID != "" {
			meta["original_response_message_id"] = it.originalID // follow-ups only
		}
		out["interaction_metadata"] = meta
		if it.commandName != "" {
			out["interaction"] = map[string]any{"id": it.id, "type": it.kind, "name": it.commandName, "user": userJSON(user)}
		}
	}
	return out
}

func rawOrEmpty(raw json.RawMessage) any {
	if len(raw) == 0 || string(raw) == "null" {
		return []any{}
	}
	return raw
}

// storeMessageLocked adds a new message to its channel and to the public log.
func (s *Server) storeMessageLocked(m *Message) {
	s.messages[m.ID] = m
	s.channelMsgs[m.ChannelID] = append(s.channelMsgs[m.ChannelID], m.ID)
	s.logPublicLocked(m)
	s.changedLocked()
}

func (s *Server) logPublicLocked(m *Message) {
	if m.Public() {
		s.publicLog = append(s.publicLog, m.clone())
	}
}

// Messages lists the live (not deleted) messages of a channel, oldest first, ephemeral ones
// included.
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.channelMsgs[channelID] {
		if m := s.messages[id]; !m.Deleted {
			out = append(out, m.clone())
		}
	}
	return out
}

// MessagesSeenBy lists what a user sees in a channel: live messages minus other users'
// ephemeral ones.
func (s *Server) MessagesSeenBy(channelID, userID string) []Message {
	var out []Message
	for _, m := range s.Messages(channelID) {
		if !m.Ephemeral() || m.VisibleTo == userID {
			out = append(out, m)
		}
	}
	return out
}

// Message returns the current version of a message, deleted or not.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return m.clone(), true
}

// MessageJSON is a message as Discord's API gives it to a client (GET
// /channels/{channel.id}/messages/{message.id}): what internal/msgshots draws.
func (s *Server) MessageJSON(id string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return nil, false
	}
	b, err := json.Marshal(s.messageJSONLocked(m))
	return b, err == nil
}

// LatestMessage returns the newest live message of a channel that satisfies match (nil
// matches all).
func (s *Server) LatestMessage(channelID string, match func(Message) bool) (Message, bool) {
	msgs := s.Messages(channelID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if match == nil || match(msgs[i]) {
			return msgs[i], true
		}
	}
	return Message{}, false
}

// PublicHistory is every version of every public message ever shown, edits and deleted
// messages included: what anyone in the guild could have seen.
func (s *Server) PublicHistory() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.publicLog...)
}

// Leak is a secret found in a public message.
type Leak struct {
	Secret    string
	MessageID string
	ChannelID string
	Version   int
	Where     string
}

func (l Leak) String() string {
	return fmt.Sprintf("%q in message %s (channel %s, version %d) at %s", l.Secret, l.MessageID, l.ChannelID, l.Version, l.Where)
}

// PublicLeaks searches every public message version (see PublicHistory) for the secrets.
func (s *Server) PublicLeaks(secrets ...string) []Leak {
	var out []Leak
	for _, m := range s.PublicHistory() {
		for _, f := range m.Text() {
			for _, secret := range secrets {
				if secret != "" && strings.Contains(f.Text, secret) {
					out = append(out, Leak{Secret: secret, MessageID: m.ID, ChannelID: m.ChannelID, Version: m.Version, Where: f.Where})
				}
			}
		}
	}
	return out
}
