package bot

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
	"conductor/present"
)

// A table's board goes out as a Components V2 message (flag 1<<15): one container holding
// the turn's words, the picture in a media gallery with its alt text, the table's status in
// short lines that read at any width, then the buttons. Discord then takes no content or
// embeds, at most 40 components (nested ones counted) and 4000 characters of text displays
// (docs/discord-limits.md); a board that would not fit goes out as a plain message.
// Ephemeral boards (a spectator's copy) and every other message stay plain.

// flagComponentsV2 lays a message out by its components alone.
const flagComponentsV2 = 1 << 15

// Discord's components v2 types.
const (
	componentText      = 10
	componentGallery   = 12
	componentFile      = 13
	componentContainer = 17
)

// Discord's limits on a components v2 message.
const (
	maxComponentsV2 = 40
	maxTextV2       = 4000
)

// wireMediaItem is an item of a media gallery: the picture (an attachment://name of the
// message) and its alt text.
type wireMediaItem struct {
	Media       wireMedia `json:"media"`
	Description string    `json:"description,omitempty"`
}

// wireMedia is an unfurled media item: only its url is ours to set.
type wireMedia struct {
	URL string `json:"url"`
}

// boardLayout lays a board out as components v2; false for a message that stays plain.
func boardLayout(m commands.Message) ([]wireComponent, bool) {
	if !m.IsBoard || m.Ephemeral || len(m.Embeds) > 0 {
		return nil, false
	}
	var inner []wireComponent
	if words := strings.TrimRight(m.Content, "\n"); words != "" {
		inner = append(inner, wireComponent{Type: componentText, Content: cut(words, maxContent)})
	}
	var gallery []wireMediaItem
	for _, f := range m.Files {
		ref := wireMedia{URL: "attachment://" + f.Name}
		if strings.HasPrefix(f.ContentType, "image/") {
			gallery = append(gallery, wireMediaItem{Media: ref, Description: cut(f.Description, present.MaxAlt)})
			continue
		}
		inner = append(inner, wireComponent{Type: componentFile, File: &ref})
	}
	if len(gallery) > 0 {
		inner = append(inner, wireComponent{Type: componentGallery, Items: gallery})
	}
	if lines := present.SplitStatus(m.Status); len(lines) > 0 {
		inner = append(inner, wireComponent{Type: componentText, Content: cut(strings.Join(lines, "\n"), maxContent/2)})
	}
	inner = append(inner, components(m.Components)...)
	if len(inner) == 0 || len(gallery) > 10 {
		return nil, false
	}
	layout := []wireComponent{{Type: componentContainer, Components: inner}}
	count, text := 0, 0
	walkWire(layout, func(c *wireComponent) {
		count++
		text += len([]rune(c.Content))
	})
	if count > maxComponentsV2 || text > maxTextV2 {
		return nil, false
	}
	return layout, true
}

// walkWire visits every component, depth first.
func walkWire(cs []wireComponent, visit func(*wireComponent)) {
	for i := range cs {
		visit(&cs[i])
		walkWire(cs[i].Components, visit)
	}
}

// withoutRows is a layout with its action rows (the buttons) taken out, wherever they are.
func withoutRows(cs []wireComponent) []wireComponent {
	out := make([]wireComponent, 0, len(cs))
	for _, c := range cs {
		if c.Type == componentRow {
			continue
		}
		if len(c.Components) > 0 {
			c.Components = withoutRows(c.Components)
		}
		out = append(out, c)
	}
	return out
}

// refusedLayout: Discord refused a board laid out as components v2 as a malformed body (400).
// The layout is the bot's reading of Discord's documents (a follow-up's picture in a media
// gallery rests on a developer's report, docs/discord-limits.md); should Discord read them
// otherwise, the board goes out plain rather than not at all.
func refusedLayout(m commands.Message, err error) bool {
	var re *discordgo.RESTError
	if _, v2 := boardLayout(m); !v2 || !errors.As(err, &re) || re.Response == nil {
		return false
	}
	return re.Response.StatusCode == http.StatusBadRequest
}

// plainBoards remembers, for the rest of the process, the ways of posting (a channel's
// messages, an interaction's follow-ups) where Discord refused a board's layout: their boards
// then go out plain at once, instead of each costing a refused request first.
type plainBoards struct {
	warn            sync.Once
	channel, follow atomic.Bool
}

// refused notes a refusal on one way of posting and says so once, at warn level (the
// refusal's body names fields, never a hand or a ticket).
func (p *plainBoards) refused(way *atomic.Bool, log *slog.Logger, err error) {
	way.Store(true)
	p.warn.Do(func() {
		log.Warn("Discord refused a board laid out as components v2; boards sent that way go out as plain messages", "err", err)
	})
}
