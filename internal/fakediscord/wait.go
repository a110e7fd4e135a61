package fakediscord

import (
	"fmt"
	"time"
)

// WaitFor waits until cond is true, re-checking whenever the fake's state changes (a request
// answered, a gateway frame, a message stored), for at most Options.WaitTimeout. what names
// the condition in the error.
func (s *Server) WaitFor(what string, cond func() bool) error {
	return s.WaitForTimeout(s.opts.WaitTimeout, what, cond)
}

// WaitForTimeout is WaitFor with its own bound (the scale test times each
// answer against its own limit).
func (s *Server) WaitForTimeout(timeout time.Duration, what string, cond func() bool) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-changed:
		case <-deadline.C:
			return fmt.Errorf("fakediscord: timed out after %v waiting for %s", timeout, what)
		}
	}
}

// WaitMessage waits for a live message in a channel that satisfies match and returns the
// newest such message.
func (s *Server) WaitMessage(channelID string, match func(Message) bool) (Message, error) {
	var found Message
	err := s.WaitFor("a matching message in channel "+channelID, func() bool {
		m, ok := s.LatestMessage(channelID, match)
		found = m
		return ok
	})
	return found, err
}
