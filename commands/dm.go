package commands

import (
	"errors"
	"slices"
	"time"

	"conductor/present"
	"conductor/store"
)

// Turn DMs wait in a queue of their own per player ("dm:<user>"), never in
// the table's: a board never waits for a DM. A DM Discord refuses for good
// (ErrDMClosed) is dropped, the player's turn DMs are turned off, and the
// player is told privately the next time they act at that table; a DM
// Discord asks to delay (Backoff: DMs opened too fast) waits as asked.

// dmQueue is the outbox queue of a user's DMs.
func dmQueue(user string) string { return "dm:" + user }

// notifyRefused is the notify option of a player whose turn DMs Discord
// refused: off, and they are still to be told.
const notifyRefused = "refused"

// Backoff is what a Poster returns when Discord asks to wait before trying
// again (a rate limit it does not time itself, such as 40003, DMs opened too
// fast): the sender waits Wait, or its own backoff when Wait is zero.
type Backoff struct {
	Wait time.Duration
	Err  error
}

func (b *Backoff) Error() string { return b.Err.Error() }
func (b *Backoff) Unwrap() error { return b.Err }

// minBackoff is the least a sender waits when Discord asked it to slow down
// without saying how long: a quick retry would only be refused again.
const minBackoff = 15 * time.Second

// retryDelay is how long a sender waits before retrying after err, its own
// backoff being wait.
func retryDelay(err error, wait time.Duration) time.Duration {
	var b *Backoff
	if !errors.As(err, &b) {
		return wait
	}
	if b.Wait > 0 {
		return b.Wait
	}
	return max(wait, minBackoff)
}

// kickQueues starts the senders of the other queues entries name (the DMs
// committed with a move). Safe under a table's lock.
func (s *sender) kickQueues(entries []store.OutboxEntry) {
	for i, e := range entries {
		if e.Queue != "" && !slices.ContainsFunc(entries[:i], func(o store.OutboxEntry) bool { return o.Queue == e.Queue }) {
			s.kick(e.Queue)
		}
	}
}

// sendDM delivers a queued DM.
func (s *sender) sendDM(queue string, e store.OutboxEntry, p outboxPayload, m Message) error {
	err := s.poster.DM(s.ctx, p.DM, m)
	if errors.Is(err, ErrDMClosed) || errors.Is(err, ErrUndeliverable) {
		s.log.Info("turn DM refused: the player's turn DMs are turned off", "channel", p.Game, "err", err)
		s.refuseDMs(p.Game, p.DM)
		err = nil
	}
	if err != nil {
		return err
	}
	return s.store.Delivered(queue, e.Seq)
}

// refuseDMs turns a player's turn DMs off at a table after Discord refused
// one: in the stored record, and in a note for the table's copy (which
// then owes the player the word).
func (s *sender) refuseDMs(channel, user string) {
	if channel == "" {
		return
	}
	key := notifyKey(user)
	err := s.store.Update(channel, func(r *store.GameRecord) error {
		if r.Options != nil && r.Options[key] == "on" {
			r.Options[key] = notifyRefused
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return // the game is over
	}
	if err != nil {
		s.log.Warn("turn a refused player's DMs off", "channel", channel, "err", err)
		return
	}
	s.notes.leave(channel, tableNote{dmRefused: user})
}

// tellDMsRefused is the word owed to a player acting at the table whose
// turn DMs Discord refused (their notify option says so): said once, and
// the option cleared. The table is locked.
func (t *table) tellDMsRefused(req *Request) []Message {
	opt := notifyKey(req.User)
	if t.rec == nil || t.rec.Options[opt] != notifyRefused {
		return nil
	}
	clear := func(r *store.GameRecord) error {
		if r.Options[opt] == notifyRefused {
			delete(r.Options, opt)
		}
		return nil
	}
	if err := t.store.Update(t.channel, clear); err != nil {
		t.log.Warn("clear a refused player's DMs", "channel", t.channel, "err", err)
	} else {
		clear(t.rec)
	}
	return []Message{note(present.T(req.Locale, "notify.refused"))}
}
