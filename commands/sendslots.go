package commands

import "errors"

// sendConcurrency bounds the posts being sent at once, whatever the number
// of channels with posts waiting (after a restart, every table that moved
// while Discord was away): each draws its board's picture, and Discord
// limits the bot's requests anyway.
const sendConcurrency = 8

// errClosed: the service closed before the post could be sent.
var errClosed = errors.New("the service is closing")

// withSlot sends (one entry, or a run of boards) when a sending slot is
// free.
func (s *sender) withSlot(send func() error) error {
	select {
	case s.slots <- struct{}{}:
	case <-s.ctx.Done():
		return errClosed
	}
	defer func() { <-s.slots }()
	return send()
}
