package commands

import (
	"errors"
	"time"

	"conductor/present"
)

// A channel whose posts Discord refuses (403: a moderator took a permission
// away mid-game) keeps its entries: the table's boards wait there, and no
// loop asks Discord again and again (Discord bans an address that makes too
// many refused requests). The next person who acts there is told, privately,
// what the bot lacks, read from the permissions their interaction carries;
// when nothing seems to be missing any more, their act retries the queue.
// A restart tries each queue once.

// errBlocked stops a channel's sender until blockage ends.
var errBlocked = errors.New("the channel refuses the bot's posts")

// blockage is a channel whose posts Discord refuses.
type blockage struct {
	since time.Time
	// retrying: someone acted with the permissions in place, and the
	// sender tries again.
	retrying bool
	// unexplained: such a retry was refused too, so the cause is not a
	// permission the interaction shows (a locked thread, say).
	unexplained bool
	// told are the people told since the blockage (or its last retry).
	told map[string]bool
}

// postRefused blocks the channel after Discord refused a post with 403.
func (s *sender) postRefused(channel string, err error) error {
	s.mu.Lock()
	b := s.blocked[channel]
	switch {
	case b == nil:
		b = &blockage{since: s.clock.now(), told: map[string]bool{}}
		s.blocked[channel] = b
	case b.retrying:
		b.unexplained, b.told = true, map[string]bool{}
	}
	b.retrying = false
	s.mu.Unlock()
	s.log.Warn("Discord refuses the bot's posts in a channel: its posts wait for someone to act there", "channel", channel, "err", err)
	return errBlocked
}

// postAccepted ends a channel's blockage: Discord took a post there.
func (s *sender) postAccepted(channel string) {
	s.mu.Lock()
	delete(s.blocked, channel)
	s.mu.Unlock()
}

// tellBlocked tells someone acting in a blocked channel what the bot lacks
// there (once per person), or, when their interaction shows nothing missing
// any more, retries the channel's posts. It returns what to follow the
// person's answer with.
func (s *sender) tellBlocked(req *Request) []Message {
	s.mu.Lock()
	b := s.blocked[req.Channel]
	if b == nil || b.retrying {
		s.mu.Unlock()
		return nil
	}
	missing := missingToPost(req)
	tell := !b.told[req.User] && (missing != 0 || b.unexplained)
	if tell {
		b.told[req.User] = true
	}
	retry := missing == 0
	b.retrying = retry
	s.mu.Unlock()
	if retry {
		s.kick(req.Channel)
	}
	switch {
	case !tell:
		return nil
	case missing != 0:
		return []Message{note(present.T(req.Locale, "post.refused", "missing", missing.names(req.Locale)))}
	default:
		return []Message{note(present.T(req.Locale, "post.refused_unknown"))}
	}
}

// Blocked lists the channels whose posts Discord refuses, and since when.
func (s *Service) Blocked() map[string]time.Time { return s.out.blockedSince() }

func (s *sender) blockedSince() map[string]time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]time.Time, len(s.blocked))
	for ch, b := range s.blocked {
		out[ch] = b.since
	}
	return out
}
