package bot

import (
	"container/list"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"strings"
	"sync"
)

// Taking the buttons off a board. A plain message loses them with "components": []. A
// components v2 board is laid out by its components alone, so the edit sends the layout again
// without its action rows; its picture stays only if the edit lists the attachment by id
// (Edit Message: "the attachments array must contain all attachments that should be present
// after edit") and the gallery names it again (attachment://name). The ids are in Discord's
// answer to the post (a media item's attachment_id: the message's own "attachments" leaves out
// the files its components show), so the bot remembers, per board it posted, the edit that
// takes its buttons off: the next board costs one request, as it did before components v2. A
// board the bot does not remember (posted before a restart, or by another process, or
// forgotten: at most layoutBookSize are kept) is read first (one GET) and the edit made from
// Discord's copy.

// layoutBookSize bounds the boards remembered: about a kilobyte each.
const layoutBookSize = 4096

// layoutBook remembers the edit that takes the buttons off each board the bot posted, the
// oldest forgotten first.
type layoutBook struct {
	mu    sync.Mutex
	order *list.List // of layoutEntry, newest at the front
	byID  map[string]*list.Element
}

type layoutEntry struct {
	id   string
	body json.RawMessage
}

// posted remembers a board just posted: w as sent, resp Discord's answer.
func (b *layoutBook) posted(id string, w wireMessage, resp []byte) {
	if id == "" || !hasRows(w.Components) {
		return // nothing to take off
	}
	var body []byte
	if w.Flags&flagComponentsV2 == 0 {
		body = []byte(`{"components":[]}`)
	} else {
		ids, err := attachmentIDs(resp)
		if err != nil {
			return // read from Discord when the time comes
		}
		r := removal{Flags: flagComponentsV2, Components: withoutRows(w.Components), AllowedMentions: &wireMentions{Parse: []string{}},
			Attachments: []removalAttachment{}}
		for _, a := range w.Attachments {
			id, ok := ids[a.Filename]
			if !ok {
				return
			}
			r.Attachments = append(r.Attachments, removalAttachment{ID: id})
		}
		if body, err = json.Marshal(r); err != nil {
			return
		}
	}
	b.keep(id, body)
}

// keep remembers the edit that takes a board's buttons off.
func (b *layoutBook) keep(id string, body json.RawMessage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byID == nil {
		b.order, b.byID = list.New(), map[string]*list.Element{}
	}
	if e, ok := b.byID[id]; ok {
		b.order.Remove(e)
	}
	b.byID[id] = b.order.PushFront(layoutEntry{id, body})
	for b.order.Len() > layoutBookSize {
		oldest := b.order.Back()
		b.order.Remove(oldest)
		delete(b.byID, oldest.Value.(layoutEntry).id)
	}
}

// take returns (and forgets) the edit that takes a board's buttons off.
func (b *layoutBook) take(id string) (json.RawMessage, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.byID[id]
	if !ok {
		return nil, false
	}
	b.order.Remove(e)
	delete(b.byID, id)
	return e.Value.(layoutEntry).body, true
}

// removal is the edit of a components v2 board without its buttons. allowed_mentions is
// sent so that the edit makes no mention anew.
type removal struct {
	Flags           int                 `json:"flags"`
	Components      []wireComponent     `json:"components"`
	AllowedMentions *wireMentions       `json:"allowed_mentions"`
	Attachments     []removalAttachment `json:"attachments"`
}

type removalAttachment struct {
	ID string `json:"id"`
}

func hasRows(cs []wireComponent) bool {
	found := false
	walkWire(cs, func(c *wireComponent) { found = found || c.Type == componentRow })
	return found
}

// attachmentIDs reads a message as Discord answers it: its files' ids by name, those its
// components show (a media item's attachment_id, its name the url's last part) and the others
// (its "attachments").
func attachmentIDs(resp []byte) (map[string]string, error) {
	var msg struct {
		Attachments []struct {
			ID       string `json:"id"`
			Filename string `json:"filename"`
		} `json:"attachments"`
		Components []any `json:"components"`
	}
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, a := range msg.Attachments {
		ids[a.Filename] = a.ID
	}
	eachMedia(msg.Components, func(media map[string]any) {
		id, _ := media["attachment_id"].(string)
		if name := mediaName(media); id != "" && name != "" {
			ids[name] = id
		}
	})
	return ids, nil
}

// mediaName is the file name of an uploaded media item: the last part of its URL's path.
func mediaName(media map[string]any) string {
	raw, _ := media["url"].(string)
	if name, ok := strings.CutPrefix(raw, "attachment://"); ok {
		return name
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	name, err := url.PathUnescape(path.Base(u.Path))
	if err != nil || name == "." || name == "/" {
		return ""
	}
	return name
}

// eachMedia visits the media of every gallery item, thumbnail and file in decoded components.
func eachMedia(v any, visit func(map[string]any)) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			eachMedia(e, visit)
		}
	case map[string]any:
		for _, key := range []string{"media", "file"} {
			if m, ok := x[key].(map[string]any); ok {
				visit(m)
			}
		}
		for _, key := range []string{"components", "items", "accessory"} {
			if child, ok := x[key]; ok {
				eachMedia(child, visit)
			}
		}
	}
}

// controlsRemoval is the edit that takes the buttons off a message as Discord holds it (its
// answer to GET): a plain message loses its components; a components v2 one keeps its layout
// without the action rows, its media named again by attachment:// and its files kept by id.
func controlsRemoval(resp []byte) (json.RawMessage, error) {
	var msg struct {
		Flags      int   `json:"flags"`
		Components []any `json:"components"`
	}
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, err
	}
	if msg.Flags&flagComponentsV2 == 0 {
		return json.RawMessage(`{"components":[]}`), nil
	}
	keep := []removalAttachment{}
	var strip func(cs []any) []any
	strip = func(cs []any) []any {
		out := make([]any, 0, len(cs))
		for _, c := range cs {
			cm, ok := c.(map[string]any)
			if !ok {
				continue
			}
			if t, _ := cm["type"].(float64); t == componentRow {
				continue
			}
			if children, ok := cm["components"].([]any); ok {
				cm["components"] = strip(children)
			}
			out = append(out, cm)
		}
		return out
	}
	components := strip(msg.Components)
	var bad error
	eachMedia(components, func(media map[string]any) {
		id, _ := media["attachment_id"].(string)
		if id == "" {
			url, _ := media["url"].(string) // a picture from elsewhere: sent as it is
			clear(media)
			media["url"] = url
			return
		}
		name := mediaName(media)
		if name == "" {
			bad = errors.New("a board's picture has no file name")
			return
		}
		clear(media)
		media["url"] = "attachment://" + name
		keep = append(keep, removalAttachment{ID: id})
	})
	if bad != nil {
		return nil, bad
	}
	return json.Marshal(map[string]any{"flags": flagComponentsV2, "components": components,
		"allowed_mentions": wireMentions{Parse: []string{}}, "attachments": keep})
}
