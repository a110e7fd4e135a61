package bot

import (
	"context"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// A follow-up (POST /webhooks/{application}/{token}) carries no nonce: after a lost answer (a
// 5xx, the network) only the channel's history tells whether Discord created it, and a
// follow-up sent again blind may show twice. So a public follow-up is sent once, and after a
// lost answer it is looked for among the interaction's follow-ups in the channel's history
// before it is sent again; where that history cannot be read (no Read Message History, a DM:
// viaOf) it is not sent again. A private one is in no channel's history: it is sent again after
// a 502 as discordgo does, a duplicate being seen by its reader alone.

// followUpTries bounds the sending of one follow-up whose answers are lost.
const followUpTries = 3

// findPages bounds the reading of a channel for follow-ups: 5 pages of 100 messages.
const findPages = 5

// followUp sends a follow-up message of the interaction.
func (b *Bot) followUp(ctx context.Context, i *discordgo.Interaction, w wireMessage, files []*discordgo.File) error {
	url := discordgo.EndpointFollowupMessage(i.AppID, i.Token)
	if w.Flags&int(discordgo.MessageFlagsEphemeral) != 0 {
		_, err := b.sendInteraction(ctx, "POST", url, w, files)
		return redact(err, i.Token)
	}
	via, _ := viaOf(i)
	var err error
	for try := range followUpTries {
		if try > 0 {
			found, ferr := b.findFollowUp(ctx, i, w, files)
			if ferr != nil {
				b.log.Warn("cannot tell whether a follow-up whose answer was lost was created: not sent again", "id", i.ID, "err", redact(ferr, i.Token))
				break
			}
			if found {
				return nil
			}
		}
		_, err = b.sendOnce(ctx, "POST", url, w, files)
		if err == nil || permanent(err) || ctx.Err() != nil || via == "" {
			break
		}
	}
	return redact(err, i.Token)
}

// findFollowUp reports whether the interaction's channel holds a follow-up of it with w's
// words (content or text displays), embeds and files: one Discord created although its
// answer was lost.
func (b *Bot) findFollowUp(ctx context.Context, i *discordgo.Interaction, w wireMessage, files []*discordgo.File) (bool, error) {
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	words := wireWords(w)
	found := false
	err := b.followUpsIn(ctx, i.ChannelID, i.ID, func(m *discordgo.Message) {
		got, gotNames := messageWords(m)
		if m.InteractionMetadata.ID != i.ID || got != words || len(m.Embeds) != len(w.Embeds) {
			return
		}
		slices.Sort(gotNames)
		found = found || slices.Equal(gotNames, names)
	})
	return found, err
}

// wireWords is what a reader reads of a message as sent: its content and text displays.
func wireWords(w wireMessage) string {
	parts := []string{strings.TrimSpace(w.Content)}
	walkWire(w.Components, func(c *wireComponent) {
		if c.Type == componentText {
			parts = append(parts, strings.TrimSpace(c.Content))
		}
	})
	return strings.Join(parts, "\n")
}

// messageWords is what a reader reads of a message as Discord holds it (its content and text
// displays), and the names of its files (attachments, and those its components show).
func messageWords(m *discordgo.Message) (string, []string) {
	parts := []string{strings.TrimSpace(m.Content)}
	var names []string
	for _, a := range m.Attachments {
		names = append(names, a.Filename)
	}
	for _, e := range m.Embeds { // files an embed shows are not in "attachments"
		if e.Image != nil {
			names = append(names, mediaName(map[string]any{"url": e.Image.URL}))
		}
	}
	var walk func(cs []discordgo.MessageComponent)
	walk = func(cs []discordgo.MessageComponent) {
		for _, c := range cs {
			switch x := c.(type) {
			case *discordgo.Container:
				walk(x.Components)
			case *discordgo.Section:
				walk(x.Components)
			case *discordgo.TextDisplay:
				parts = append(parts, strings.TrimSpace(x.Content))
			case *discordgo.MediaGallery:
				for _, it := range x.Items {
					names = append(names, mediaName(map[string]any{"url": it.Media.URL}))
				}
			case *discordgo.FileComponent:
				names = append(names, mediaName(map[string]any{"url": x.File.URL}))
			}
		}
	}
	walk(m.Components)
	return strings.Join(parts, "\n"), names
}

// followUpsIn reads a channel's messages after the message or interaction id after
// (GET /channels/{channel}/messages?after=...), at most findPages pages, and calls visit with
// each follow-up of the application's interactions: interaction_metadata's
// original_response_message_id marks follow-ups.
func (b *Bot) followUpsIn(ctx context.Context, channel, after string, visit func(*discordgo.Message)) error {
	app := b.AppID()
	for range findPages {
		url := discordgo.EndpointChannelMessages(channel) + "?limit=100&after=" + after
		resp, err := b.send(ctx, "GET", url, discordgo.EndpointChannelMessages(channel), nil, nil)
		if err != nil {
			return err
		}
		var page []*discordgo.Message
		if err := discordgo.Unmarshal(resp, &page); err != nil {
			return err
		}
		for _, m := range page {
			if snowflakeLess(after, m.ID) {
				after = m.ID
			}
			meta := m.InteractionMetadata
			if meta == nil || meta.OriginalResponseMessageID == "" || (app != "" && m.WebhookID != app) {
				continue // not a follow-up of ours
			}
			visit(m)
		}
		if len(page) < 100 {
			break
		}
	}
	return nil
}
