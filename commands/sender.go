package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"conductor/store"
)

// ErrUndeliverable is what a Poster returns (wrapped) when a post can never
// succeed as it is (the channel is gone, the body is refused): retrying
// would hold the channel's queue forever, so the post is dropped.
// ErrForbidden: Discord refuses the bot's posts in that channel (403: a
// permission is missing): the post is kept for when someone can fix it
// (blocked.go).
var (
	ErrUndeliverable = errors.New("the post cannot be delivered")
	ErrForbidden     = errors.New("the bot's posts are refused in this channel")
)

// The channel's sender delivers the outbox (store/outbox.go) in order, one
// goroutine per channel at most, never under a table's lock. A post that
// fails is retried with backoff until Discord confirms it: its nonce, sent
// with enforce_nonce, makes a retry of a post Discord did create return
// that message instead of a second one. An entry leaves the outbox only
// once confirmed, so after a crash the next start delivers what is left.

// retry delays: doubling from the first to the last.
const (
	firstRetry = 500 * time.Millisecond
	lastRetry  = time.Minute
)

// outboxPayload is what an outbox entry holds: the message, and for a
// board the position to draw when it is sent (a picture is not stored).
type outboxPayload struct {
	Message
	Board *boardAt `json:",omitempty"`
	// To sends the message to another channel than the outbox's: a game
	// played in a thread tells its result to the parent channel, in order
	// with the thread's own posts.
	To string `json:",omitempty"`
	// DM sends the message to a user privately instead (turn DMs).
	DM string `json:",omitempty"`
	// Game is the channel of the game a DM or a lobby post belongs to.
	Game string `json:",omitempty"`
	// Edit replaces that earlier message of the channel instead of
	// posting (an expired lobby).
	Edit string `json:",omitempty"`
	// Via is the way the move's request offered to post the board, until
	// ViaUntil; Epoch names the process that queued it (via.go).
	Via      string    `json:",omitempty"`
	ViaUntil time.Time `json:",omitzero"`
	Epoch    string    `json:",omitempty"`
}

// boardAt names the board picture after a game's first Moves moves, in a
// language. Narration, when known, is the part of the message's text that
// tells the moves, for merging queued boards (coalesce.go).
type boardAt struct {
	Moves     int
	Locale    string
	Narration *string `json:",omitempty"`
}

// outboxEntry wraps a message for the store.
func outboxEntry(kind string, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m}) // a Message always marshals
	return store.OutboxEntry{Kind: kind, Payload: payload}
}

// elsewhereEntry wraps a message for another channel.
func elsewhereEntry(channel string, m Message) store.OutboxEntry {
	payload, _ := json.Marshal(outboxPayload{Message: m, To: channel})
	return store.OutboxEntry{Kind: "elsewhere", Payload: payload}
}

// archiveEntry closes the outbox's channel, a finished game's thread,
// once everything before it was delivered.
func archiveEntry() store.OutboxEntry {
	return store.OutboxEntry{Kind: "archive", Payload: []byte("{}")}
}

// drawBoard draws a channel's board as it stood after the first moves
// moves, from the stored game, outside any lock.
func (s *Service) drawBoard(channel string, at *boardAt) (File, error) {
	l, err := s.cfg.Store.Load(channel)
	if err != nil {
		return File{}, err
	}
	rec := l.Record
	if at.Moves > len(rec.Log) {
		return File{}, fmt.Errorf("the board after move %d of a log of %d", at.Moves, len(rec.Log))
	}
	b, err := s.rebuild(rec, l.Snapshot, at.Moves)
	if err != nil {
		return File{}, err
	}
	tmp := &table{rec: rec, game: b.game, history: b.history}
	png, err := s.boardPNG(tmp, at.Locale)
	if err != nil {
		return File{}, err
	}
	return File{Name: "board.png", ContentType: "image/png", Data: png}, nil
}

// enqueue queues messages for a channel outside any move.
func (s *Service) enqueue(channel string, msgs ...Message) error {
	entries := make([]store.OutboxEntry, len(msgs))
	for i, m := range msgs {
		entries[i] = outboxEntry("", m)
	}
	return s.cfg.Store.Enqueue(channel, entries...)
}

// finalEntries wraps a final reveal: its first post takes the buttons off
// the last board.
func finalEntries(msgs []Message) []store.OutboxEntry {
	entries := make([]store.OutboxEntry, len(msgs))
	for i, m := range msgs {
		kind := ""
		if i == 0 {
			kind = "final"
		}
		entries[i] = outboxEntry(kind, m)
	}
	return entries
}

// kick makes sure the channel's outbox is being delivered: it starts the
// channel's sender, or tells the running one to look again when done.
// Safe under a table's lock: it only starts a goroutine.
func (s *Service) kick(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed() {
		return
	}
	if s.sending[channel] {
		s.again[channel] = true
		return
	}
	if b := s.blocked[channel]; b != nil && !b.retrying {
		return // Discord refuses our posts there: blocked.go retries
	}
	s.sending[channel] = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.deliver(channel)
	}()
}

// deliver sends the channel's outbox until it is empty.
func (s *Service) deliver(channel string) {
	wait := firstRetry
	for {
		entries, err := s.cfg.Store.Outbox(channel)
		if err != nil {
			s.log.Error("read the outbox", "channel", channel, "err", err)
		}
		if len(entries) == 0 || err != nil {
			s.mu.Lock()
			if !s.again[channel] || s.isClosed() {
				delete(s.sending, channel)
				delete(s.again, channel)
				s.mu.Unlock()
				s.idle.Broadcast()
				return
			}
			s.again[channel] = false
			s.mu.Unlock()
			continue
		}
		// Queued boards go out merged (coalesce.go); what a merge took is
		// passed over, and a merge found only in part reads the outbox again.
		merged := map[uint64]bool{}
	entries:
		for k, e := range entries {
			if merged[e.Seq] {
				continue
			}
			run := boardRun(entries[k:])
			for _, q := range run {
				merged[q.e.Seq] = true
			}
			for {
				if s.isClosed() {
					s.mu.Lock()
					delete(s.sending, channel)
					s.mu.Unlock()
					s.idle.Broadcast()
					return
				}
				complete := true
				err := s.withSendSlot(func() error {
					if run == nil {
						return s.send(channel, e)
					}
					var err error
					complete, err = s.sendBoards(channel, run)
					return err
				})
				if err == nil && !complete {
					wait = firstRetry
					break entries
				}
				if err == nil {
					wait = firstRetry
					break
				}
				if errors.Is(err, errBlocked) {
					// The entries wait for someone to act (blocked.go),
					// not in a loop of refused requests.
					s.stopSending(channel)
					return
				}
				delay := retryDelay(err, wait)
				s.log.Warn("post failed; will retry", "channel", channel, "kind", e.Kind, "in", delay, "err", err)
				s.setRetrying(channel, true)
				slept := s.sleep(delay)
				s.setRetrying(channel, false)
				if !slept {
					continue // closed: the loop above returns
				}
				wait = min(2*wait, lastRetry)
			}
		}
	}
}

// send posts one entry and removes it from the outbox once confirmed (or
// once it is clear it never can be).
func (s *Service) send(channel string, e store.OutboxEntry) error {
	var p outboxPayload
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		s.log.Error("unreadable outbox entry dropped", "channel", channel, "err", err)
		return s.cfg.Store.Delivered(channel, e.Seq)
	}
	if e.Kind == "archive" {
		return s.archive(channel, e)
	}
	if p.Edit != "" {
		return s.sendEdit(channel, e, p)
	}
	m := p.Message
	if p.Board != nil {
		if f, err := s.drawBoard(channel, p.Board); err == nil {
			m.Files = append(m.Files, f)
		} else {
			// The game changed since (ended, taken back): the words go
			// without the picture rather than not at all.
			s.log.Warn("board picture not drawn", "channel", channel, "err", err)
		}
	}
	m.Nonce = e.Nonce
	if p.DM != "" {
		return s.sendDM(channel, e, p, m)
	}
	to := channel
	if p.To != "" {
		to = p.To
	}
	id, err := s.cfg.Poster.Post(to, m)
	if errors.Is(err, ErrForbidden) && to == channel {
		return s.postRefused(channel, err)
	}
	if errors.Is(err, ErrUndeliverable) || errors.Is(err, ErrForbidden) {
		s.log.Error("post dropped", "channel", channel, "kind", e.Kind, "err", err)
		return s.cfg.Store.Delivered(channel, e.Seq)
	}
	if err != nil {
		return err
	}
	if to == channel {
		s.postAccepted(channel)
	}
	switch e.Kind {
	case "board", "final":
		s.replaceBoard(channel, id, e.Kind == "final")
	case "lobby":
		s.rememberLobby(p.Game, id)
	}
	return s.cfg.Store.Delivered(channel, e.Seq)
}

// archive closes a finished game's thread.
func (s *Service) archive(channel string, e store.OutboxEntry) error {
	th, ok := s.cfg.Poster.(ThreadOpener)
	if ok {
		err := th.ArchiveThread(channel)
		if err != nil && !errors.Is(err, ErrUndeliverable) {
			return err
		}
		if err != nil {
			s.log.Warn("thread not archived", "channel", channel, "err", err)
		}
	}
	return s.cfg.Store.Delivered(channel, e.Seq)
}

// replaceBoard makes the post id the channel's live board (or, for the
// final reveal, leaves none) and takes the buttons off the board before
// it. Best effort: an old board's buttons are harmless (a click on them is
// answered as stale), so a failure is logged, not retried.
func (s *Service) replaceBoard(channel, id string, final bool) {
	// The sender is the only writer of boards: what it remembers is the
	// truth (the stored id may be older when a table's copy of its record
	// was saved over it), and it outlives a game archived before its final
	// reveal goes out. The stored id serves after a restart.
	s.mu.Lock()
	prev := s.boards[channel]
	s.mu.Unlock()
	err := s.cfg.Store.Update(channel, func(r *store.GameRecord) error {
		if r.Messages == nil {
			r.Messages = map[string]string{}
		}
		if prev == "" {
			prev = r.Messages["board"]
		}
		r.Messages["board"] = id
		return nil
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Warn("remember the board", "channel", channel, "err", err)
	}
	s.mu.Lock()
	if final {
		delete(s.boards, channel)
	} else {
		s.boards[channel] = id
	}
	s.mu.Unlock()
	if prev == "" || prev == id {
		return
	}
	if err := s.removeControls(channel, prev); err != nil {
		s.log.Warn("old board's buttons not removed", "channel", channel, "message", prev, "err", err)
	}
}

// sleep waits d, or less when the service closes; false then.
func (s *Service) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.closed:
		return false
	}
}

// Deliver starts delivering every channel's outbox: what was queued before
// a restart goes out first.
func (s *Service) Deliver(ctx context.Context) error {
	chs, err := s.cfg.Store.OutboxChannels()
	if err != nil {
		return err
	}
	for _, ch := range chs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.kick(ch)
	}
	return nil
}

// setRetrying marks a channel's sender as waiting to retry (Discord is
// failing): requests stop waiting for it then.
func (s *Service) setRetrying(channel string, on bool) {
	s.mu.Lock()
	if on {
		s.retrying[channel] = true
	} else {
		delete(s.retrying, channel)
	}
	s.mu.Unlock()
	s.idle.Broadcast()
}

// waitSent waits until the channel's posts queued so far are sent, or
// its sender waits to retry: a request's handling ends with the table
// up to date when Discord answers, and never waits on a failing Discord.
func (s *Service) waitSent(channel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.sending[channel] && !s.retrying[channel] && !s.isClosed() {
		s.idle.Wait()
	}
}

// Quiet waits until no channel's sender is at work: every post queued so
// far was delivered (or the service closed). The terminal game and tests
// use it to show posts in order with the replies.
func (s *Service) Quiet() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.sending) > 0 && !s.isClosed() {
		s.idle.Wait()
	}
}

// OutboxDepth reports how many posts wait and how old the oldest is, for
// the health check.
func (s *Service) OutboxDepth() (int, time.Duration, error) {
	n, oldest, err := s.cfg.Store.OutboxDepth()
	if err != nil || n == 0 {
		return n, 0, err
	}
	return n, s.cfg.Now().Sub(oldest), nil
}
