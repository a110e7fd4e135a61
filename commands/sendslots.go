package commands

import (
	"errors"

	"conductor/store"
)

// sendConcurrency bounds the posts being sent at once, whatever the number
// of channels with posts waiting (after a restart, every table that moved
// while Discord was away): each draws its board's picture, and Discord
// limits the bot's requests anyway.
const sendConcurrency = 8

// errClosed: the service closed before the post could be sent.
var errClosed = errors.New("the service is closing")

// sendBounded sends one outbox entry when a sending slot is free.
func (s *Service) sendBounded(channel string, e store.OutboxEntry) error {
	select {
	case s.sendSlots <- struct{}{}:
	case <-s.closed:
		return errClosed
	}
	defer func() { <-s.sendSlots }()
	return s.send(channel, e)
}
