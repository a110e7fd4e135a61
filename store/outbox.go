package store

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// The outbox keeps what a table must see after a move (the narration, the
// board, the next player's mention, the final reveal) until Discord has
// confirmed each post. Posts are written in the transaction that commits
// the move, so a move is never committed without its announcement, and a
// crash or a failing Discord only delays the post: a sender delivers the
// outbox in order and removes an entry once it is confirmed.
//
// A queue is a channel's, or another one an entry names (a user's turn
// DMs), so that what need not follow a table's order never waits in it.
// Entries are ordered within their queue by a sequence the database hands
// out, and a queue is claimed by the transaction that adds to it, so that
// a later sequence is never visible before an earlier one (a sender that
// delivered it would send the queue out of order).

// OutboxEntry is one post waiting for delivery.
type OutboxEntry struct {
	// Seq orders a channel's entries (set by the store).
	Seq uint64 `json:"-"`
	// Nonce is unique per entry: sent with enforce_nonce, it makes a
	// retried post return the message already created instead of a second.
	// Discord deduplicates nonces per author, that is across every shard,
	// database and restart of the application: see noncePrefix.
	Nonce string `json:"nonce"`
	// Queue, when set, queues the entry there instead of in the channel
	// the entry is queued for (it is not stored: Outbox(queue) lists it).
	Queue string `json:"-"`
	// Guild is the server of the table the post is for ("": none): the
	// process serving its shard delivers it (owned.go). Set by the store
	// from the game's record.
	Guild string `json:"guild,omitempty"`
	// Kind says what the post is to the table ("board": its id is kept).
	Kind string `json:"kind,omitempty"`
	// Payload is the message, in the shape its writer chose.
	Payload json.RawMessage `json:"payload"`
	Created time.Time       `json:"created"`
}

// AppendActionWithPosts appends a move to a game's log and queues the posts
// it causes, in one transaction (Commit with posts).
func (s *Store) AppendActionWithPosts(channel string, entry LogEntry, posts []OutboxEntry) (int, error) {
	return s.Commit(channel, MoveCommit{Entry: entry, Posts: posts})
}

// Enqueue queues posts for a channel on their own.
func (s *Store) Enqueue(channel string, posts ...OutboxEntry) error {
	return s.update(func(t txn) error {
		guild := ""
		if h, err := t.header(channel); err == nil {
			guild = h.Guild
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		return s.enqueueTx(t, channel, guild, posts)
	})
}

// enqueueTx queues posts in t: every queue they go to is claimed first, in
// order (so that two transactions never wait for each other's), and each
// entry takes the next sequence of the database, which its nonce names.
func (s *Store) enqueueTx(t txn, channel, guild string, posts []OutboxEntry) error {
	if len(posts) == 0 {
		return nil
	}
	queueOf := func(p *OutboxEntry) string {
		if p.Queue != "" {
			return p.Queue
		}
		return channel
	}
	var queues []string
	for i := range posts {
		if q := queueOf(&posts[i]); !slices.Contains(queues, q) {
			queues = append(queues, q)
		}
	}
	slices.Sort(queues)
	if err := t.lockQueues(queues); err != nil {
		return err
	}
	seqs, err := t.nextSeqs(len(posts))
	if err != nil {
		return err
	}
	if afterSeqs != nil {
		afterSeqs()
	}
	out := make([]queuedPost, len(posts))
	for i, p := range posts {
		p.Nonce = s.noncePrefix + strconv.FormatUint(seqs[i], 36)
		if p.Guild == "" {
			p.Guild = guild
		}
		if p.Created.IsZero() {
			p.Created = s.stamp()
		}
		v, err := json.Marshal(p)
		if err != nil {
			return err
		}
		out[i] = queuedPost{Queue: queueOf(&p), post: post{Seq: seqs[i], Data: v}}
	}
	return t.putPosts(out)
}

// afterSeqs, in tests, runs between taking sequences and storing the
// entries.
var afterSeqs func()

// noncePrefixLen random characters start every nonce a Store hands out:
// with the sequence after them, at most 21 of the 25 Discord allows.
const noncePrefixLen = 8

// newNoncePrefix draws the random start of the nonces of one opening of a
// database. The sequence alone repeats across shards (each has its own
// file), recreated files and restored backups, and Discord would answer a
// repeated nonce with another post's message (it deduplicates per author):
// a prefix drawn at every opening (about 41 bits) makes every nonce of the
// application distinct, while an entry keeps the nonce it was queued with,
// so a retry after a restart still matches its first try.
func newNoncePrefix() string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	var b [noncePrefixLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	for i := range b {
		b[i] = digits[int(b[i])%len(digits)]
	}
	return string(b[:])
}

// Outbox lists a channel's waiting posts, oldest first.
func (s *Store) Outbox(channel string) ([]OutboxEntry, error) {
	var out []OutboxEntry
	err := s.viewOne(func(t txn) error {
		ps, err := t.posts(channel)
		if err != nil {
			return err
		}
		out = nil
		for _, p := range ps {
			var e OutboxEntry
			if json.Unmarshal(p.Data, &e) != nil {
				return fmt.Errorf("%w: outbox entry %d of channel %s", errCorrupt, p.Seq, channel)
			}
			e.Seq = p.Seq
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// Delivered removes posts Discord confirmed (or that can never be
// delivered), together.
func (s *Store) Delivered(channel string, seqs ...uint64) error {
	return s.update(func(t txn) error {
		return t.deletePosts(channel, seqs)
	})
}

// OutboxChannels lists the channels with posts waiting.
func (s *Store) OutboxChannels() ([]string, error) {
	var out []string
	err := s.viewOne(func(t txn) (err error) {
		out, err = t.queues()
		return err
	})
	return out, err
}

// OutboxDepth counts the waiting posts and gives the oldest one's time.
func (s *Store) OutboxDepth() (n int, oldest time.Time, err error) {
	return s.OutboxDepthExcept(nil)
}

// OutboxDepthExcept is OutboxDepth without the queues skip names (nil skips
// none): the health check leaves out the channels that refuse the bot's
// posts, whose entries wait for a moderator, not for Discord.
func (s *Store) OutboxDepthExcept(skip func(queue string) bool) (n int, oldest time.Time, err error) {
	err = s.viewOne(func(t txn) error {
		n, oldest = 0, time.Time{}
		return t.eachPost(skip, func(v []byte) {
			var e OutboxEntry
			if json.Unmarshal(v, &e) == nil && (oldest.IsZero() || e.Created.Before(oldest)) {
				oldest = e.Created
			}
			n++
		})
	})
	return n, oldest, err
}
