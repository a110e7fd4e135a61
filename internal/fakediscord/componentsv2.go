package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Components V2 (flag IS_COMPONENTS_V2, 1<<15): a message laid out by its components alone.
// What Discord's pages state it refuses (docs/discord-limits.md lists each with its page):
// content, embeds, poll, stickers or a shared theme beside the flag; layout components without
// it (limits.go); more than 40 components, nested ones counted; more than 4000 characters of
// text display across the message; an attachment:// that names no file of the message; and,
// once a message has the flag, an edit that would take it off or add content or embeds back.

const (
	maxComponentsV2  = 40   // components of a message with the flag, nested ones counted
	maxTextDisplayV2 = 4000 // characters of all text displays of a message
)

// Components V2 types the fake gives meaning to beyond limits.go's.
const (
	ComponentThumbnail    = 11
	ComponentMediaGallery = 12
	ComponentFile         = 13
	ComponentSeparator    = 14
)

// legacyFields are the message fields the components v2 flag disables.
var legacyFields = []string{"content", "embeds", "poll", "sticker_ids", "shared_client_theme"}

// checkComponentsV2 checks a message body that carries the flag: no legacy field, at most 40
// components in all and 4000 characters of text displays.
func checkComponentsV2(doc map[string]any, at string) []SchemaError {
	var errs []SchemaError
	for _, field := range legacyFields {
		if provided(doc[field]) {
			errs = append(errs, legacyFieldError(at, field))
		}
	}
	count, text := 0, 0
	walkJSONComponents(doc["components"], at+"/components", func(m map[string]any, _ string) {
		count++
		if t, _ := intValue(m["type"]); t == ComponentTextDisplay {
			text += runes(m["content"])
		}
	})
	if count > maxComponentsV2 {
		errs = append(errs, SchemaError{Pointer: at + "/components", Code: "BASE_TYPE_MAX_LENGTH",
			Message: fmt.Sprintf("Must be %d or fewer in length (got %d): a message holds at most %d components, nested ones counted.", maxComponentsV2, count, maxComponentsV2)})
	}
	if text > maxTextDisplayV2 {
		errs = append(errs, SchemaError{Pointer: at + "/components", Code: "BASE_TYPE_MAX_LENGTH",
			Message: fmt.Sprintf("Must be %d or fewer in length (got %d): the text displays of a message hold at most %d characters together.", maxTextDisplayV2, text, maxTextDisplayV2)})
	}
	return errs
}

func legacyFieldError(at, field string) SchemaError {
	return SchemaError{Pointer: at + "/" + field, Code: "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
		Message: fmt.Sprintf("The '%s' field cannot be used when using MessageFlags.IS_COMPONENTS_V2", field)}
}

// provided: a field given a value that is not empty (null, "" and [] leave it empty).
func provided(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	}
	return true
}

// formError is a refusal of a body with Discord's "Invalid Form Body" tree.
type formError []SchemaError

func (e formError) Error() string {
	var parts []string
	for _, s := range e {
		parts = append(parts, s.String())
	}
	return strings.Join(parts, "; ")
}

// payloadRefusal is the answer to a body applyPayloadLocked refused; at prefixes its pointers
// (the "/data" of an interaction callback).
func payloadRefusal(err error, at string) *apiError {
	if fe, ok := err.(formError); ok {
		out := make([]SchemaError, len(fe))
		for i, e := range fe {
			e.Pointer = at + e.Pointer
			out[i] = e
		}
		return &apiError{400, 50035, "Invalid Form Body", out}
	}
	return &apiError{400, 50035, "Invalid Form Body", []SchemaError{{Pointer: at, Message: err.Error()}}}
}

// checkV2State checks what a body does to a message with or without the flag: once set it
// stays ("it can't be removed from that message"), content and embeds stay empty, and every
// attachment:// a component names is a file of the message as the body leaves it. before is
// the message's flags before the body (0 when creating); m is the message as the body leaves
// it; doc is the body; uploaded are the files the body uploads.
//
// An edit that shows a file it uploads in a media gallery is refused: not in Discord's pages,
// but reported (discord/discord-api-docs#7529, open: "attempting to defer or otherwise edit a
// media gallery into a message throws a 400 and claims the unfurled media attachment is not
// found"; a new message, reply or follow-up, takes it). Files kept by id may be shown.
func checkV2State(before int, m *Message, doc map[string]json.RawMessage, editing bool, uploaded []Attachment) []SchemaError {
	var errs []SchemaError
	if editing && before&FlagComponentsV2 != 0 {
		if raw, ok := doc["flags"]; ok && string(raw) != "null" {
			if flags, err := strconv.Atoi(string(raw)); err == nil && flags&FlagComponentsV2 == 0 {
				errs = append(errs, SchemaError{Pointer: "/flags", Code: "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
					Message: "The IS_COMPONENTS_V2 flag cannot be removed from a message that has it."})
			}
		}
	}
	if m.Flags&FlagComponentsV2 == 0 {
		return errs
	}
	// An edit that sets the flag (or keeps it) must leave content and embeds empty: "for
	// content and poll this is null, for embeds and sticker_ids this is []".
	if editing {
		if _, given := doc["content"]; m.Content != "" && (before&FlagComponentsV2 != 0 || !given) {
			errs = append(errs, legacyFieldError("", "content"))
		}
		if _, given := doc["embeds"]; len(m.Embeds) > 0 && (before&FlagComponentsV2 != 0 || !given) {
			errs = append(errs, legacyFieldError("", "embeds"))
		}
	}
	var raw any
	if len(m.RawComponents) > 0 {
		raw, _ = decodeNumbers(m.RawComponents)
	}
	walkMedia(raw, "/components", func(media map[string]any, at string) {
		url, _ := media["url"].(string)
		name, ok := strings.CutPrefix(url, "attachment://")
		if !ok {
			return
		}
		a, found := m.Attachment(name)
		if !found {
			errs = append(errs, SchemaError{Pointer: at + "/url", Code: "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
				Message: fmt.Sprintf("attachment://%s names no file of the message (upload it, or keep it with \"attachments\": [{\"id\"}])", name)})
			return
		}
		if editing && slices.ContainsFunc(uploaded, func(u Attachment) bool { return u.ID == a.ID }) {
			errs = append(errs, SchemaError{Pointer: at + "/url", Code: "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
				Message: fmt.Sprintf("attachment://%s is uploaded by this edit: Discord does not find a file uploaded with an edit of components (discord-api-docs#7529); post a new message instead", name)})
		}
	})
	return errs
}

// walkMedia visits every unfurled media item of components (media gallery items, thumbnails,
// files), with its pointer.
func walkMedia(v any, at string, visit func(media map[string]any, at string)) {
	walkJSONComponents(v, at, func(c map[string]any, p string) {
		switch t, _ := intValue(c["type"]); t {
		case ComponentMediaGallery:
			items, _ := c["items"].([]any)
			for i, it := range items {
				im, _ := it.(map[string]any)
				if media, ok := im["media"].(map[string]any); ok {
					visit(media, fmt.Sprintf("%s/items/%d/media", p, i))
				}
			}
		case ComponentThumbnail:
			if media, ok := c["media"].(map[string]any); ok {
				visit(media, p+"/media")
			}
		case ComponentFile:
			if media, ok := c["file"].(map[string]any); ok {
				visit(media, p+"/file")
			}
		}
	})
}

// resolveComponentsV2 gives a V2 message's components the shape Discord answers with: every
// component an id (sequential, skipping those the body set), and every attachment:// media
// the attachment's URL, size and id.
func resolveComponentsV2(raw json.RawMessage, atts []Attachment) (json.RawMessage, error) {
	v, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	used := map[int]bool{}
	walkJSONComponents(v, "", func(c map[string]any, _ string) {
		if id, ok := intValue(c["id"]); ok && id > 0 {
			used[id] = true
		}
	})
	next := 1
	walkJSONComponents(v, "", func(c map[string]any, _ string) {
		if id, ok := intValue(c["id"]); ok && id > 0 {
			return
		}
		for used[next] {
			next++
		}
		c["id"] = next
		used[next] = true
	})
	walkMedia(v, "", func(media map[string]any, _ string) {
		url, _ := media["url"].(string)
		name, ok := strings.CutPrefix(url, "attachment://")
		if !ok {
			return
		}
		for _, a := range atts {
			if a.Filename != name {
				continue
			}
			media["url"], media["proxy_url"], media["attachment_id"] = a.URL, a.URL, a.ID
			if a.ContentType != "" {
				media["content_type"] = a.ContentType
			}
			if a.Width > 0 {
				media["width"], media["height"] = a.Width, a.Height
			}
			break
		}
	})
	return json.Marshal(v)
}

// decodeNumbers decodes JSON keeping numbers as json.Number (intValue reads them).
func decodeNumbers(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// referenced reports whether an embed or a component of the message shows the attachment:
// Discord's message object lists only "attached files that are not referenced in embeds or
// components".
func (m *Message) referenced(a Attachment) bool {
	return bytes.Contains(m.RawEmbeds, []byte(strconv.Quote(a.URL))) || bytes.Contains(m.RawComponents, []byte(strconv.Quote(a.URL)))
}

// IsComponentsV2 reports flag 1<<15: the message is laid out by its components alone.
func (m Message) IsComponentsV2() bool { return m.Flags&FlagComponentsV2 != 0 }

// TextDisplays lists the contents of the message's text displays, in reading order.
func (m Message) TextDisplays() []string {
	var out []string
	m.Walk(func(c Component) {
		if c.Type == ComponentTextDisplay {
			out = append(out, c.Content)
		}
	})
	return out
}

// Body is what a reader reads of the message's words: its content, then its text displays.
func (m Message) Body() string {
	parts := []string{}
	if m.Content != "" {
		parts = append(parts, m.Content)
	}
	parts = append(parts, m.TextDisplays()...)
	return strings.Join(parts, "\n")
}

// MediaItems lists the items of the message's media galleries, in reading order.
func (m Message) MediaItems() []MediaItem {
	var out []MediaItem
	m.Walk(func(c Component) {
		if c.Type == ComponentMediaGallery {
			out = append(out, c.Items...)
		}
	})
	return out
}

// MediaItem is an item of a media gallery.
type MediaItem struct {
	Media       UnfurledMedia `json:"media"`
	Description string        `json:"description,omitempty"`
	Spoiler     bool          `json:"spoiler,omitempty"`
}

// UnfurledMedia is a component's picture: an attachment:// reference as sent, resolved by the
// fake to the attachment's URL and id as Discord does.
type UnfurledMedia struct {
	URL          string `json:"url"`
	ProxyURL     string `json:"proxy_url,omitempty"`
	AttachmentID string `json:"attachment_id,omitempty"`
	Width        int    `json:"width,omitempty"`
	Height       int    `json:"height,omitempty"`
	ContentType  string `json:"content_type,omitempty"`
}
