package bot

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

var _ commands.Poster = (*Bot)(nil)

// Post sends a message to a channel and returns its id. Posts cannot be
// ephemeral: the flag is ignored. Every post carries a nonce (a random one
// when m has none), so that a retry Discord answers with the message it
// already created. A 403 is commands.ErrForbidden: the channel is listed
// in Health until a post there succeeds again.
func (b *Bot) Post(ctx context.Context, channel string, m commands.Message) (string, error) {
	if b.plain.channel.Load() {
		m.IsBoard = false
	}
	id, err := b.post(ctx, channel, m)
	if err != nil && refusedLayout(m, err) {
		b.plain.refused(&b.plain.channel, b.log, err)
		m.IsBoard = false
		return b.post(ctx, channel, m)
	}
	return id, err
}

func (b *Bot) post(ctx context.Context, channel string, m commands.Message) (string, error) {
	m.Ephemeral = false
	w, files := toWire(b.withEmojis(m))
	w.Nonce, w.EnforceNonce = nonceOf(m), true
	id, resp, err := b.createMessage(ctx, channel, w, files)
	switch {
	case forbidden(err):
		b.refused.LoadOrStore(channel, RefusedChannel{Channel: channel, Code: discordCode(err), Since: time.Now()})
		return "", fmt.Errorf("%w: %v", commands.ErrForbidden, err)
	case permanent(err):
		return "", fmt.Errorf("%w: %w", commands.ErrUndeliverable, err)
	case err == nil:
		b.refused.Delete(channel)
		if m.IsBoard {
			b.layouts.posted(id, w, resp)
		}
	}
	return id, err
}

// nonceOf is a message's nonce, or a random one: "r" and 20 characters.
func nonceOf(m commands.Message) string {
	if m.Nonce != "" {
		return m.Nonce
	}
	var raw [15]byte
	rand.Read(raw[:])
	return "r" + base64.RawURLEncoding.EncodeToString(raw[:])
}

// forbidden: Discord refuses the request for the bot's permissions there
// (403: Missing Access, Missing Permissions, a locked thread...).
func forbidden(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusForbidden
}

// refusedChannels lists the channels where Discord refuses the bot's posts.
func (b *Bot) refusedChannels() []RefusedChannel {
	var out []RefusedChannel
	b.refused.Range(func(_, v any) bool {
		out = append(out, v.(RefusedChannel))
		return true
	})
	slices.SortFunc(out, func(x, y RefusedChannel) int { return strings.Compare(x.Channel, y.Channel) })
	return out
}

// permanent tells a refusal that no retry can change (a 4xx other than a
// rate limit or a timeout: the channel is gone, access was removed, the
// body is refused) from a failure worth retrying.
func permanent(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return false
	}
	c := re.Response.StatusCode
	return c >= 400 && c < 500 && c != http.StatusTooManyRequests && c != http.StatusRequestTimeout
}

// DM sends a private message, opening the DM channel on first use, with a
// nonce as Post does. Discord's refusals are sorted out: 40003 (DMs opened
// too fast) asks to wait (commands.Backoff, with Discord's retry_after when
// it gives one); any other refusal (a 4xx but 429, which discordgo waits
// out itself: 50007 DMs closed, 50033 invalid recipient, 20009 explicit
// content...) is for good: commands.ErrDMClosed.
func (b *Bot) DM(ctx context.Context, user string, m commands.Message) error {
	ch, err := b.dmChannel(ctx, user)
	if err == nil {
		m.Ephemeral = false
		w, files := toWire(b.withEmojis(m))
		w.Nonce, w.EnforceNonce = nonceOf(m), true
		_, _, err = b.createMessage(ctx, ch, w, files)
	}
	switch {
	case err == nil:
		return nil
	case discordCode(err) == errCodeOpeningDMsTooFast:
		return &commands.Backoff{Wait: retryAfter(err), Err: err}
	case permanent(err):
		// Refused for good: retrying a refusal (401, 403...) would only add
		// to the requests Discord holds against the address.
		return fmt.Errorf("%w (%v)", commands.ErrDMClosed, err)
	}
	return err
}

// retryAfter is the retry_after (seconds) of a refusal's body, or zero.
func retryAfter(err error) time.Duration {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return 0
	}
	var body struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(re.ResponseBody, &body) != nil || body.RetryAfter <= 0 {
		return 0
	}
	return time.Duration(body.RetryAfter * float64(time.Second))
}

func (b *Bot) dmChannel(ctx context.Context, user string) (string, error) {
	if id, ok := b.dmChannels.Load(user); ok {
		return id.(string), nil
	}
	ch, err := b.s.UserChannelCreate(user, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	b.dmChannels.Store(user, ch.ID)
	return ch.ID, nil
}

var _ commands.ControlsRemover = (*Bot)(nil)

// RemoveControls takes every button off an earlier post
// (PATCH /channels/{channel}/messages/{message}): a plain message loses its
// components, a components v2 board is laid out again without its rows
// (controls.go).
func (b *Bot) RemoveControls(ctx context.Context, channel, message string) error {
	url, bucket := discordgo.EndpointChannelMessage(channel, message), discordgo.EndpointChannelMessage(channel, "")
	body, known := b.layouts.take(message)
	if !known {
		if _, no := b.unreadable.Load(channel); no {
			return errUnreadable
		}
		resp, err := b.send(ctx, "GET", url, bucket, nil, nil)
		if forbidden(err) {
			// No Read Message History: asking again would only add refusals
			// Discord counts against the address; this process asks no more.
			b.unreadable.Store(channel, true)
		}
		if err != nil {
			return err
		}
		if body, err = controlsRemoval(resp); err != nil {
			return err
		}
	}
	_, err := b.send(ctx, "PATCH", url, bucket, body, nil)
	return err
}

// errUnreadable: a board the bot does not remember is in a channel it may not read (no Read
// Message History): its buttons stay, and a click on them is answered as stale.
var errUnreadable = errors.New("the board is not remembered and its channel cannot be read")

var _ commands.MessageEditor = (*Bot)(nil)

// EditMessage replaces an earlier post of the bot
// (PATCH /channels/{channel}/messages/{message}).
func (b *Bot) EditMessage(ctx context.Context, channel, message string, m commands.Message) error {
	w, files := toReplacement(b.withEmojis(m))
	_, err := b.send(ctx, "PATCH", discordgo.EndpointChannelMessage(channel, message), discordgo.EndpointChannelMessage(channel, ""), w, files)
	if permanent(err) {
		return fmt.Errorf("%w: %v", commands.ErrUndeliverable, err)
	}
	return err
}

var _ commands.ThreadOpener = (*Bot)(nil)

// Discord's refusals that mean no thread here: the bot lacks access or
// Create Public Threads (50001, 50013), or the channel is not a text
// channel, a thread say (50024).
const (
	errCodeMissingAccess      = 50001
	errCodeMissingPermissions = 50013
	errCodeWrongChannelType   = 50024
)

// threadArchive is how long a quiet game thread stays open: a week, as
// long as the longest turn timer.
const threadArchive = 10080

// OpenThread starts a public thread without a message
// (POST /channels/{channel}/threads, type 11).
func (b *Bot) OpenThread(ctx context.Context, channel, name string) (string, error) {
	body := struct {
		Name                string `json:"name"`
		Type                int    `json:"type"`
		AutoArchiveDuration int    `json:"auto_archive_duration"`
	}{name, int(discordgo.ChannelTypeGuildPublicThread), threadArchive}
	url := discordgo.EndpointChannelThreads(channel)
	resp, err := b.send(ctx, "POST", url, url, body, nil)
	switch discordCode(err) {
	case errCodeMissingAccess, errCodeMissingPermissions:
		return "", fmt.Errorf("%w: %v", commands.ErrNoThreads, err)
	case errCodeWrongChannelType:
		return "", fmt.Errorf("%w: %v", commands.ErrNotThreadable, err)
	}
	if err != nil {
		return "", err
	}
	var th struct {
		ID string `json:"id"`
	}
	if err := discordgo.Unmarshal(resp, &th); err != nil {
		return "", err
	}
	return th.ID, nil
}

// ArchiveThread archives a thread the bot opened (PATCH /channels/{thread}).
func (b *Bot) ArchiveThread(ctx context.Context, thread string) error {
	body := struct {
		Archived bool `json:"archived"`
	}{true}
	url := discordgo.EndpointChannel(thread)
	_, err := b.send(ctx, "PATCH", url, url, body, nil)
	if permanent(err) {
		return fmt.Errorf("%w: %v", commands.ErrUndeliverable, err)
	}
	return err
}
