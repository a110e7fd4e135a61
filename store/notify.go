package store

import (
	"context"
	"errors"
	"sync"
)

// Changes: a process is told when another one changed a game, so that a
// live page opened through one process follows moves played through
// another. Every transaction that changes a live game's record or log
// (Put, PutWithPosts, PutRematch, Update, Commit and AppendAction, Archive,
// Delete, ForgetGuild) notifies its channel when it commits, and Notify
// does so on its own. A Subscription receives the channels of every
// process's changes (PostgreSQL: LISTEN/NOTIFY on one connection of its
// own per Store, on the channel "conductor.SCHEMA") or of this process's (a
// bbolt file has only one).
//
// Notifications say that something changed, never what: a subscriber
// reads the game again. They may be coalesced (a channel changed twice is
// delivered once while the subscriber has not taken it), and after the
// listening connection is lost and made again, or when a subscriber lags
// too far behind, a Change with Missed set says that any game may have
// changed meanwhile.

// maxPending bounds what a subscription holds for a subscriber that does
// not keep up; past it the subscription forgets them and says Missed.
const maxPending = 10000

// ErrClosed: the subscription or its Store was closed.
var ErrClosed = errors.New("store: closed")

// Change is what a subscription delivers.
type Change struct {
	// Channel is the channel whose game changed (empty when Missed).
	Channel string
	// Moves: a page posted moves for the table of Channel, in Guild
	// (shared.go); Answers: the table's owner answered some; Forgotten:
	// Guild's games were forgotten.
	Guild                     string
	Moves, Answers, Forgotten bool
	// Missed: changes may have been lost; treat every game as changed.
	Missed bool
}

// Notify tells every subscriber, in every process, that the game in
// channel changed, when the change was not made through the store.
func (s *Store) Notify(channel string) error {
	return s.be.update(func(t txn) error { return t.notify(channel) })
}

// Subscribe starts receiving changes. The first call on a PostgreSQL
// store opens the listening connection; changes committed after Subscribe
// returns are delivered. Close the subscription when done.
func (s *Store) Subscribe() (*Subscription, error) {
	if err := s.hub.start(s.be); err != nil {
		return nil, err
	}
	sub := &Subscription{hub: s.hub, pending: map[string]bool{}, ready: make(chan struct{}, 1)}
	if !s.hub.add(sub) {
		return nil, ErrClosed
	}
	return sub, nil
}

// Subscription delivers changes, in the order they were first seen.
type Subscription struct {
	hub     *hub
	mu      sync.Mutex
	pending map[string]bool
	order   []string
	missed  bool
	closed  bool
	ready   chan struct{} // holds a token while something is pending or closed
}

// Next waits for the next change. It returns ErrClosed once the
// subscription or its Store is closed, or ctx's error.
func (sub *Subscription) Next(ctx context.Context) (Change, error) {
	for {
		sub.mu.Lock()
		switch {
		case sub.closed:
			sub.mu.Unlock()
			sub.signal()
			return Change{}, ErrClosed
		case sub.missed:
			sub.missed = false
			sub.again()
			sub.mu.Unlock()
			return Change{Missed: true}, nil
		case len(sub.order) > 0:
			ch := sub.order[0]
			sub.order = sub.order[1:]
			delete(sub.pending, ch)
			sub.again()
			sub.mu.Unlock()
			return parseNotice(ch), nil
		}
		sub.mu.Unlock()
		select {
		case <-sub.ready:
		case <-ctx.Done():
			return Change{}, ctx.Err()
		}
	}
}

// again keeps the token while more is pending (sub.mu held).
func (sub *Subscription) again() {
	if sub.missed || len(sub.order) > 0 {
		sub.signal()
	}
}

func (sub *Subscription) signal() {
	select {
	case sub.ready <- struct{}{}:
	default:
	}
}

func (sub *Subscription) deliver(channel string, missed bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if sub.closed {
		return
	}
	switch {
	case missed || len(sub.order) >= maxPending:
		sub.missed = true
		sub.pending, sub.order = map[string]bool{}, nil
	case !sub.pending[channel]:
		sub.pending[channel] = true
		sub.order = append(sub.order, channel)
	}
	sub.signal()
}

// Close ends the subscription; Next returns ErrClosed.
func (sub *Subscription) Close() {
	sub.hub.remove(sub)
	sub.mu.Lock()
	sub.closed = true
	sub.mu.Unlock()
	sub.signal()
}

// hub fans a Store's changes out to its subscriptions.
type hub struct {
	mu      sync.Mutex
	subs    map[*Subscription]bool
	started bool
	closed  bool
}

func newHub() *hub { return &hub{subs: map[*Subscription]bool{}} }

// start has the backend feed the hub, once.
func (h *hub) start(be backend) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if h.started {
		return nil
	}
	if err := be.subscribe(h); err != nil {
		return err
	}
	h.started = true
	return nil
}

func (h *hub) add(sub *Subscription) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.subs[sub] = true
	return true
}

func (h *hub) remove(sub *Subscription) {
	h.mu.Lock()
	delete(h.subs, sub)
	h.mu.Unlock()
}

func (h *hub) each(fn func(*Subscription)) {
	h.mu.Lock()
	subs := make([]*Subscription, 0, len(h.subs))
	for sub := range h.subs {
		subs = append(subs, sub)
	}
	h.mu.Unlock()
	for _, sub := range subs {
		fn(sub)
	}
}

// publish delivers a changed channel to every subscription.
func (h *hub) publish(channel string) {
	h.each(func(sub *Subscription) { sub.deliver(channel, false) })
}

// missed tells every subscription that changes may have been lost.
func (h *hub) missed() {
	h.each(func(sub *Subscription) { sub.deliver("", true) })
}

// close ends every subscription.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	subs := h.subs
	h.subs = map[*Subscription]bool{}
	h.mu.Unlock()
	for sub := range subs {
		sub.mu.Lock()
		sub.closed = true
		sub.mu.Unlock()
		sub.signal()
	}
}
