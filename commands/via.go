package commands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// Posting through a request's via. Discord lets a bot make about 50 requests a second in all,
// but not the interaction endpoints: a board posted as a follow-up of the move's own
// interaction (its webhook, alive 15 minutes) costs nothing under that limit, and neither
// does taking the buttons off that board later through the same webhook. A move made by a
// person thus costs no request under the global limit while the table plays faster than one
// move in 14 minutes; a board without a usable via (a bot's move, an old move, a restart
// past the token's life) goes to the channel as before.
//
// Exactly once: a follow-up carries no nonce, so a lost answer (a 502, a timeout, a crash
// after the post) leaves it unknown whether Discord created the board. Such an entry is
// marked unsure; before it is posted again the channel's recent messages are read
// (FindVia): the board is found as the follow-up of its interaction (and counts as
// delivered, with every board merged into it), or it is not there and is posted again. An
// entry queued by an earlier process is unsure for the same reason. The outbox stays the
// truth: an entry leaves it only once Discord has the message.

// ViaPoster is a Poster that can post through a request's Via (Request.Via).
type ViaPoster interface {
	// PostVia posts m in channel through via and returns the message's id. An error
	// wrapping ErrViaGone means the message was not posted and the via cannot post
	// it (expired, refused): post it to the channel instead. After any other error it
	// is unknown whether the message was posted: FindVia tells.
	PostVia(ctx context.Context, via, channel string, m Message) (string, error)
	// FindVia looks for messages posted through the vias in channel and returns the
	// ids it found, by via.
	FindVia(ctx context.Context, channel string, vias []string) (map[string]string, error)
	// RemoveControlsVia takes the buttons off a message posted through via; an error
	// wrapping ErrViaGone means the via can no longer edit it.
	RemoveControlsVia(ctx context.Context, via, channel, messageID string) error
}

// ErrViaGone is what a ViaPoster returns (wrapped) when a via can no longer be used; what
// was asked was not done.
var ErrViaGone = errors.New("the request's way to post has expired")

// viaMargin: a via is not used in the last minute of its life, so that a post made then
// still reaches Discord in time whatever the difference between the clocks.
const viaMargin = time.Minute

// MoveCounter is a Poster that counts the moves people make, to report what a move costs
// under Discord's global rate limit.
type MoveCounter interface{ CountMove() }

// viaBook is the sender's memory of what it posted through vias.
type viaBook struct {
	once  sync.Once
	epoch string // this process's: entries of another one are unsure

	mu sync.Mutex
	// unsure holds the entries (by sequence) posted through a via whose answer was lost;
	// checked, the entries of an earlier process found not posted.
	unsure, checked map[uint64]bool
	// live holds each channel's live board when it was posted through a via.
	live map[string]liveBoard
}

// liveBoard is a board message and the via it was posted through.
type liveBoard struct {
	id, via string
	until   time.Time
}

// epochID names this process in the entries it queues.
func (b *viaBook) epochID() string {
	b.once.Do(func() {
		var r [8]byte
		rand.Read(r[:])
		b.epoch = hex.EncodeToString(r[:])
	})
	return b.epoch
}

// setUnsure marks an entry unsure (on) or known not posted, or forgets it once delivered.
func (b *viaBook) setUnsure(seq uint64, on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.unsure == nil {
		b.unsure, b.checked = map[uint64]bool{}, map[uint64]bool{}
	}
	if on {
		b.unsure[seq] = true
		delete(b.checked, seq)
	} else {
		delete(b.unsure, seq)
		b.checked[seq] = true
	}
}

// forget drops what is known of a delivered entry.
func (b *viaBook) forget(seq uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.unsure, seq)
	delete(b.checked, seq)
}

// isUnsure: the entry may already be posted through its via.
func (b *viaBook) isUnsure(q queuedBoard) bool {
	if q.p.Via == "" {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.unsure[q.e.Seq] || (q.p.Epoch != b.epoch && !b.checked[q.e.Seq])
}

func (b *viaBook) setLive(channel string, lb liveBoard) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.live == nil {
		b.live = map[string]liveBoard{}
	}
	if lb.via == "" {
		delete(b.live, channel)
	} else {
		b.live[channel] = lb
	}
}

func (b *viaBook) liveOf(channel string) (liveBoard, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	lb, ok := b.live[channel]
	return lb, ok
}

// usable: a via to post through now.
func (s *sender) usable(via string, until time.Time) (ViaPoster, bool) {
	vp, ok := s.poster.(ViaPoster)
	return vp, ok && via != "" && s.clock.now().Before(until.Add(-viaMargin))
}

// sendBoards posts a run of queued boards (coalesce.go) as one message: through the newest
// one's via when it has a usable one, else to the channel with the newest one's nonce. The
// entries leave the outbox together once Discord has the message. complete is false when
// only the first boards of the run were found already posted: the caller reads the outbox
// again.
func (s *sender) sendBoards(channel string, run []queuedBoard) (complete bool, err error) {
	if done, err := s.findPosted(channel, run); err != nil || done > 0 {
		return done == len(run), err
	}
	newest := run[len(run)-1]
	m := mergedBoard(run)
	// The newest picture goes with the run when any board of it had one.
	pic := newest.p
	for _, q := range run {
		pic.Quiet = pic.Quiet && q.p.Quiet
	}
	s.drawInto(&m, channel, &pic)
	if vp, ok := s.usable(newest.p.Via, newest.p.ViaUntil); ok {
		id, err := vp.PostVia(s.ctx, newest.p.Via, channel, m)
		switch {
		case err == nil:
			return true, s.boardsPosted(channel, run, liveBoard{id: id, via: newest.p.Via, until: newest.p.ViaUntil})
		case !errors.Is(err, ErrViaGone):
			s.vias.setUnsure(newest.e.Seq, true)
			return false, err
		}
		s.log.Debug("board posted to the channel: its interaction's webhook is gone", "channel", channel, "err", err)
	}
	m.Nonce = newest.e.Nonce
	id, err := s.poster.Post(s.ctx, channel, m)
	if errors.Is(err, ErrForbidden) {
		return false, s.postRefused(channel, err) // the boards wait (blocked.go)
	}
	if errors.Is(err, ErrUndeliverable) {
		s.log.Error("post dropped", "channel", channel, "kind", "board", "boards", len(run), "err", err)
		for _, q := range run {
			s.vias.forget(q.e.Seq)
		}
		return true, s.store.Delivered(channel, seqs(run)...)
	}
	if err != nil {
		return false, err
	}
	s.postAccepted(channel)
	return true, s.boardsPosted(channel, run, liveBoard{id: id})
}

// boardsPosted makes the message the table's live board and removes the run from the outbox.
func (s *sender) boardsPosted(channel string, run []queuedBoard, lb liveBoard) error {
	s.replaceBoard(channel, lb.id, false)
	s.vias.setLive(channel, lb)
	for _, q := range run {
		s.vias.forget(q.e.Seq)
	}
	return s.store.Delivered(channel, seqs(run)...)
}

// findPosted looks for the boards of the run that may already be posted through their vias.
// The newest one found was posted with every board before it (they were merged into it):
// those leave the outbox, and done is their number. None found: none was posted.
func (s *sender) findPosted(channel string, run []queuedBoard) (done int, err error) {
	vp, ok := s.poster.(ViaPoster)
	if !ok {
		return 0, nil
	}
	var vias []string
	for _, q := range run {
		if s.vias.isUnsure(q) {
			vias = append(vias, q.p.Via)
		}
	}
	if len(vias) == 0 {
		return 0, nil
	}
	found, err := vp.FindVia(s.ctx, channel, vias)
	if err != nil {
		return 0, err
	}
	for i := len(run) - 1; i >= 0; i-- {
		id, ok := found[run[i].p.Via]
		if !ok || run[i].p.Via == "" {
			continue
		}
		s.log.Info("a board whose answer was lost was found posted", "channel", channel, "message", id)
		q := run[i]
		return i + 1, s.boardsPosted(channel, run[:i+1], liveBoard{id: id, via: q.p.Via, until: q.p.ViaUntil})
	}
	for _, q := range run {
		s.vias.setUnsure(q.e.Seq, false) // checked: not posted
	}
	return 0, nil
}

// removeControls takes the buttons off a board: through the via it was posted through while
// that lives (no request under the global limit), else with a channel edit.
func (s *sender) removeControls(channel, id string) error {
	if lb, ok := s.vias.liveOf(channel); ok && lb.id == id {
		if vp, ok := s.usable(lb.via, lb.until); ok {
			err := vp.RemoveControlsVia(s.ctx, lb.via, channel, id)
			if err == nil || !errors.Is(err, ErrViaGone) {
				return err
			}
		}
	}
	rm, ok := s.poster.(ControlsRemover)
	if !ok {
		return nil
	}
	return rm.RemoveControls(s.ctx, channel, id)
}

func seqs(run []queuedBoard) []uint64 {
	out := make([]uint64, len(run))
	for i, q := range run {
		out[i] = q.e.Seq
	}
	return out
}

// viaFields are what an outbox entry keeps of its request's via.
func (t *table) viaFields(p *outboxPayload, req *Request) {
	if req != nil && req.Via != "" {
		p.Via, p.ViaUntil, p.Epoch = req.Via, req.ViaUntil, t.out.epoch()
	}
}

// epoch names this process in the entries it queues.
func (s *sender) epoch() string { return s.vias.epochID() }
