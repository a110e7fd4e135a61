package bot

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

var _ commands.Poster = (*Bot)(nil)

// Post sends a message to a channel and returns its id. Posts cannot be
// ephemeral: the flag is ignored.
func (b *Bot) Post(channel string, m commands.Message) (string, error) {
	m.Ephemeral = false
	w, files := toWire(m)
	if m.Nonce != "" {
		w.Nonce, w.EnforceNonce = m.Nonce, true
	}
	id, err := b.createMessage(channel, w, files)
	if permanent(err) {
		return "", fmt.Errorf("%w: %v", commands.ErrUndeliverable, err)
	}
	return id, err
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

// DM sends a private message, opening the DM channel on first use. It
// returns commands.ErrDMClosed when the user does not accept DMs
// (Discord error 50007).
func (b *Bot) DM(user string, m commands.Message) error {
	ch, err := b.dmChannel(user)
	if err == nil {
		m.Ephemeral = false
		w, files := toWire(m)
		_, err = b.createMessage(ch, w, files)
	}
	if discordCode(err) == errCodeCannotSendToDMs {
		return fmt.Errorf("%w (%v)", commands.ErrDMClosed, err)
	}
	return err
}

func (b *Bot) dmChannel(user string) (string, error) {
	if id, ok := b.dmChannels.Load(user); ok {
		return id.(string), nil
	}
	ch, err := b.s.UserChannelCreate(user)
	if err != nil {
		return "", err
	}
	b.dmChannels.Store(user, ch.ID)
	return ch.ID, nil
}

var _ commands.ControlsRemover = (*Bot)(nil)

// RemoveControls takes every button off an earlier post
// (PATCH /channels/{channel}/messages/{message} with no components).
func (b *Bot) RemoveControls(channel, message string) error {
	body := struct {
		Components []wireComponent `json:"components"`
	}{[]wireComponent{}}
	_, err := b.send("PATCH", discordgo.EndpointChannelMessage(channel, message), discordgo.EndpointChannelMessage(channel, ""), body, nil)
	return err
}
