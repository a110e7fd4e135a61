package commands

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"conductor/data"
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

// The sender delivers the outbox (outbox.go) in order, one goroutine per
// queue at most, never under a table's lock: a table commits its entries
// and kicks the sender, and the sender posts them. A post that fails is
// retried with backoff until Discord confirms it: its nonce, sent with
// enforce_nonce, makes a retry of a post Discord did create return that
// message instead of a second one. An entry leaves the outbox only once
// confirmed, so after a crash the next start delivers what is left.

// retry delays: doubling from the first to the last.
const (
	firstRetry = 500 * time.Millisecond
	lastRetry  = time.Minute
)

// sender delivers the outbox of every queue (a channel, or a user's DMs):
// it draws the pictures the entries describe, posts them, and records what
// it learns (a board's or a lobby's message, a refused DM) in the store
// and in notes the tables read (notes.go). It never locks a table.
type sender struct {
	store *store.Store
	// fleet says whose posts this process delivers (nil: all).
	fleet    Fleet
	poster   Poster
	renderer Renderer
	catalog  *data.Catalog
	notes    *notes
	clock    clock
	log      *slog.Logger
	// ctx ends every request in flight and every wait when the service
	// closes.
	ctx context.Context
	// slots bounds the posts being sent at once (sendslots.go).
	slots chan struct{}
	// vias is what was posted through requests' vias (via.go).
	vias viaBook

	mu sync.Mutex
	// stopped: no sender starts any more (the service closed).
	stopped bool
	// running are the queues whose goroutine runs.
	running map[string]*queueSender
	// boards holds each channel's live board message.
	boards map[string]string
	// blocked are the channels whose posts Discord refuses (blocked.go).
	blocked map[string]*blockage
	wg      sync.WaitGroup
}

// queueSender is one queue's running goroutine, as others see it.
type queueSender struct {
	// more is signalled when entries were queued since the goroutine last
	// read the outbox.
	more chan struct{}
	// settled is closed when the goroutine stops or starts waiting to
	// retry (Discord failing): requests stop waiting for it then. A retry
	// that starts again gets a new one.
	settled  chan struct{}
	retrying bool
	// done is closed when the goroutine stops.
	done chan struct{}
}

// clock is the time a sender reads and waits on.
type clock struct {
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
}

func newSender(ctx context.Context, fleet Fleet, st *store.Store, poster Poster, renderer Renderer, catalog *data.Catalog, notes *notes, clock clock, log *slog.Logger) *sender {
	return &sender{store: st, fleet: fleet, poster: poster, renderer: renderer, catalog: catalog, notes: notes, clock: clock, log: log, ctx: ctx,
		slots:   make(chan struct{}, sendConcurrency),
		running: map[string]*queueSender{}, boards: map[string]string{}, blocked: map[string]*blockage{}}
}

// closing: the service is closing; what is left waits for the next start.
func (s *sender) closing() bool { return s.ctx.Err() != nil }

// kick makes sure the queue is being delivered: it starts the queue's
// goroutine, or tells the running one to read the outbox again when done.
// Safe under a table's lock: it only starts a goroutine.
func (s *sender) kick(queue string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	if q := s.running[queue]; q != nil {
		select {
		case q.more <- struct{}{}:
		default: // already told
		}
		return
	}
	if b := s.blocked[queue]; b != nil && !b.retrying {
		return // Discord refuses our posts there: blocked.go retries
	}
	q := &queueSender{more: make(chan struct{}, 1), settled: make(chan struct{}), done: make(chan struct{})}
	s.running[queue] = q
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.deliver(queue, q)
	}()
}

// finish ends a queue's goroutine unless more was queued: it reports
// whether it did.
func (s *sender) finish(queue string, q *queueSender) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closing() {
		select {
		case <-q.more:
			return false
		default:
		}
	}
	s.stop(queue, q)
	return true
}

// stop forgets a queue's goroutine and tells whoever waits for it. The
// caller holds s.mu.
func (s *sender) stop(queue string, q *queueSender) {
	delete(s.running, queue)
	if !q.retrying {
		close(q.settled)
	}
	close(q.done)
}

// deliver sends the queue's outbox until it is empty.
func (s *sender) deliver(queue string, q *queueSender) {
	wait := firstRetry
	for {
		entries, err := s.store.Outbox(queue)
		if err != nil {
			s.log.Error("read the outbox", "channel", queue, "err", err)
		}
		// A member's DM queue holds posts of several servers: those of
		// another process's server wait for it, in order.
		if o := owned(s.fleet); o != nil {
			for k, e := range entries {
				if !o.Has(e.Guild) {
					entries = entries[:k]
					break
				}
			}
		}
		if len(entries) == 0 || err != nil {
			if s.finish(queue, q) {
				return
			}
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
			for _, b := range run {
				merged[b.e.Seq] = true
			}
			for {
				if s.closing() {
					s.mu.Lock()
					s.stop(queue, q)
					s.mu.Unlock()
					return
				}
				complete := true
				err := s.withSlot(func() error {
					if run == nil {
						return s.send(queue, e)
					}
					var err error
					complete, err = s.sendBoards(queue, run)
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
					s.mu.Lock()
					s.stop(queue, q)
					s.mu.Unlock()
					return
				}
				if s.closing() {
					continue // the post was cut short by Close: it waits for the next start
				}
				delay := retryDelay(err, wait)
				s.log.Warn("post failed; will retry", "channel", queue, "kind", e.Kind, "in", delay, "err", err)
				s.setRetrying(q, true)
				slept := s.sleep(delay)
				s.setRetrying(q, false)
				if !slept {
					continue // closed: the loop above returns
				}
				wait = min(2*wait, lastRetry)
			}
		}
	}
}

// setRetrying marks a queue's goroutine as waiting to retry (Discord is
// failing), or as sending again.
func (s *sender) setRetrying(q *queueSender, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q.retrying == on {
		return
	}
	q.retrying = on
	if on {
		close(q.settled)
	} else {
		q.settled = make(chan struct{})
	}
}

// send posts one entry and removes it from the outbox once confirmed (or
// once it is clear it never can be).
func (s *sender) send(queue string, e store.OutboxEntry) error {
	var p outboxPayload
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		s.log.Error("unreadable outbox entry dropped", "channel", queue, "err", err)
		return s.store.Delivered(queue, e.Seq)
	}
	if kindOf(e) == postArchive {
		return s.archive(queue, e)
	}
	if p.Edit != "" {
		return s.sendEdit(queue, e, p)
	}
	m := p.Message
	s.drawInto(&m, queue, &p)
	m.Nonce = e.Nonce
	if p.DM != "" {
		return s.sendDM(queue, e, p, m)
	}
	to := queue
	if p.To != "" {
		to = p.To
	}
	id, err := s.poster.Post(s.ctx, to, m)
	if errors.Is(err, ErrForbidden) && to == queue {
		return s.postRefused(queue, err)
	}
	if errors.Is(err, ErrUndeliverable) || errors.Is(err, ErrForbidden) {
		s.log.Error("post dropped", "channel", queue, "kind", e.Kind, "err", err)
		return s.store.Delivered(queue, e.Seq)
	}
	if err != nil {
		return err
	}
	if to == queue {
		s.postAccepted(queue)
	}
	switch kindOf(e) {
	case postBoard, postFinal:
		s.replaceBoard(queue, id, kindOf(e) == postFinal)
	case postLobby:
		s.rememberLobby(p.Game, id)
	}
	return s.store.Delivered(queue, e.Seq)
}

// drawInto adds the picture an entry describes to its message. A picture
// that cannot be drawn is logged: the words go without it rather than not
// at all.
func (s *sender) drawInto(m *Message, queue string, p *outboxPayload) {
	var (
		f   File
		err error
	)
	switch {
	case p.Quiet:
		return
	case p.Picture != nil:
		f, err = p.Picture.draw(s.renderer, s.catalog)
	case p.Board != nil:
		f, err = s.legacyBoard(queue, p.Board)
	default:
		return
	}
	if err != nil {
		s.log.Warn("picture not drawn", "channel", queue, "err", err)
		return
	}
	m.Files = append(m.Files, f)
}

// rememberLobby keeps the id of a game's lobby message, which its expiry
// edits: in the stored record, and in a note for the table's copy.
func (s *sender) rememberLobby(game, id string) {
	err := s.store.Update(game, func(r *store.GameRecord) error {
		if r.Messages == nil {
			r.Messages = map[string]string{}
		}
		r.Messages["lobby"] = id
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return // the lobby closed meanwhile
	}
	if err != nil {
		s.log.Warn("remember the lobby message", "channel", game, "err", err)
	}
	s.notes.leave(game, tableNote{lobby: id})
}

// MessageEditor is a Poster that can replace an earlier post.
type MessageEditor interface {
	EditMessage(ctx context.Context, channel, id string, m Message) error
}

// sendEdit replaces an earlier message of the channel (an expired lobby's).
func (s *sender) sendEdit(channel string, e store.OutboxEntry, p outboxPayload) error {
	if ed, ok := s.poster.(MessageEditor); ok {
		err := ed.EditMessage(s.ctx, channel, p.Edit, p.Message)
		if errors.Is(err, ErrUndeliverable) || errors.Is(err, ErrForbidden) {
			s.log.Warn("edit dropped", "channel", channel, "err", err)
			err = nil
		}
		if err != nil {
			return err
		}
	}
	return s.store.Delivered(channel, e.Seq)
}

// archive closes a finished game's thread.
func (s *sender) archive(channel string, e store.OutboxEntry) error {
	if th, ok := s.poster.(ThreadOpener); ok {
		err := th.ArchiveThread(s.ctx, channel)
		if err != nil && !errors.Is(err, ErrUndeliverable) {
			return err
		}
		if err != nil {
			s.log.Warn("thread not archived", "channel", channel, "err", err)
		}
	}
	return s.store.Delivered(channel, e.Seq)
}

// replaceBoard makes the post id the channel's live board (or, for the
// final reveal, leaves none) and takes the buttons off the board before
// it. Best effort: an old board's buttons are harmless (a click on them is
// answered as stale), so a failure is logged, not retried.
func (s *sender) replaceBoard(channel, id string, final bool) {
	// The sender is the only writer of boards: what it remembers is the
	// truth (the stored id may be older when a table's copy of its record
	// was saved over it), and it outlives a game archived before its final
	// reveal goes out. The stored id serves after a restart.
	s.mu.Lock()
	prev := s.boards[channel]
	s.mu.Unlock()
	err := s.store.Update(channel, func(r *store.GameRecord) error {
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
func (s *sender) sleep(d time.Duration) bool {
	select {
	case <-s.clock.after(d):
		return true
	case <-s.ctx.Done():
		return false
	}
}

// deliverAll starts delivering every queue's outbox: what was queued
// before a restart goes out first.
func (s *sender) deliverAll(ctx context.Context, o *store.Owned) error {
	queues, err := s.store.OutboxChannelsOf(o)
	if err != nil {
		return err
	}
	for _, q := range queues {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.kick(q)
	}
	return nil
}

// waitSent waits until the queue's posts queued so far are sent, or its
// goroutine waits to retry: a request's handling ends with the table up to
// date when Discord answers, and never waits on a failing Discord.
func (s *sender) waitSent(queue string) {
	s.mu.Lock()
	q := s.running[queue]
	var settled chan struct{}
	if q != nil {
		settled = q.settled
	}
	s.mu.Unlock()
	if q == nil {
		return
	}
	select {
	case <-settled:
	case <-s.ctx.Done():
	}
}

// quiet waits until no queue's goroutine is at work (or the service
// closes).
func (s *sender) quiet() {
	for {
		s.mu.Lock()
		var done chan struct{}
		for _, q := range s.running {
			done = q.done
			break
		}
		s.mu.Unlock()
		if done == nil {
			return
		}
		select {
		case <-done:
		case <-s.ctx.Done():
			return
		}
	}
}

// close starts no more goroutines and waits for the running ones, which
// stop once the service's context is done.
func (s *sender) close() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.wg.Wait()
}

// Deliver starts delivering every channel's outbox: what was queued before
// a restart goes out first.
func (s *Service) Deliver(ctx context.Context) error {
	return s.out.deliverAll(ctx, owned(s.cfg.Fleet))
}

// Quiet waits until no channel's sender is at work: every post queued so
// far was delivered (or the service closed). The terminal game and tests
// use it to show posts in order with the replies.
func (s *Service) Quiet() { s.out.quiet() }

// OutboxDepth reports how many posts wait and how old the oldest is, for
// the health check.
func (s *Service) OutboxDepth() (int, time.Duration, error) {
	n, oldest, err := s.cfg.Store.OutboxDepth()
	if err != nil || n == 0 {
		return n, 0, err
	}
	return n, s.cfg.Now().Sub(oldest), nil
}
