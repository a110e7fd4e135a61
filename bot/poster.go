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
	if permanent(err) {
		// Retrying a refusal (401, 403...) would only add to the requests
		// Discord holds against the address.
		return fmt.Errorf("%w: %v", commands.ErrUndeliverable, err)
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
func (b *Bot) OpenThread(channel, name string) (string, error) {
	body := struct {
		Name                string `json:"name"`
		Type                int    `json:"type"`
		AutoArchiveDuration int    `json:"auto_archive_duration"`
	}{name, int(discordgo.ChannelTypeGuildPublicThread), threadArchive}
	url := discordgo.EndpointChannelThreads(channel)
	resp, err := b.send("POST", url, url, body, nil)
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
func (b *Bot) ArchiveThread(thread string) error {
	body := struct {
		Archived bool `json:"archived"`
	}{true}
	url := discordgo.EndpointChannel(thread)
	_, err := b.send("PATCH", url, url, body, nil)
	if permanent(err) {
		return fmt.Errorf("%w: %v", commands.ErrUndeliverable, err)
	}
	return err
}
