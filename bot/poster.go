package bot

import (
	"fmt"

	"conductor/commands"
)

var _ commands.Poster = (*Bot)(nil)

// Post sends a message to a channel and returns its id. Posts cannot be
// ephemeral: the flag is ignored.
func (b *Bot) Post(channel string, m commands.Message) (string, error) {
	m.Ephemeral = false
	w, files := toWire(m)
	return b.createMessage(channel, w, files)
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
