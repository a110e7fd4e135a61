package store

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The outbox keeps what a table must see after a move (the narration, the
// board, the next player's mention, the final reveal) until Discord has
// confirmed each post. Posts are written in the transaction that commits
// the move, so a move is never committed without its announcement, and a
// crash or a failing Discord only delays the post: a sender delivers the
// outbox in order and removes an entry once it is confirmed.
//
// Layout: outbox/<queue>/<8-byte sequence> → OutboxEntry (JSON). A queue is
// a channel's, or another one an entry names (a user's turn DMs), so that
// what need not follow a table's order never waits in it.

var bucketOutbox = []byte("outbox")

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
	if err := s.ready(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return s.enqueueTx(tx, channel, posts) })
}

func (s *Store) enqueueTx(tx *bolt.Tx, channel string, posts []OutboxEntry) error {
	if len(posts) == 0 {
		return nil
	}
	root, err := tx.CreateBucketIfNotExists(bucketOutbox)
	if err != nil {
		return err
	}
	for _, p := range posts {
		queue := channel
		if p.Queue != "" {
			queue = p.Queue
		}
		cb, err := root.CreateBucketIfNotExists([]byte(queue))
		if err != nil {
			return err
		}
		seq, err := root.NextSequence()
		if err != nil {
			return err
		}
		p.Nonce = s.noncePrefix + strconv.FormatUint(seq, 36)
		if p.Created.IsZero() {
			p.Created = s.stamp()
		}
		v, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if err := cb.Put(binary.BigEndian.AppendUint64(nil, seq), v); err != nil {
			return err
		}
	}
	return nil
}

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
	if err := s.ready(); err != nil {
		return nil, err
	}
	var out []OutboxEntry
	err := s.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketOutbox)
		if root == nil {
			return nil
		}
		cb := root.Bucket([]byte(channel))
		if cb == nil {
			return nil
		}
		return cb.ForEach(func(k, v []byte) error {
			var e OutboxEntry
			if len(k) != 8 || json.Unmarshal(v, &e) != nil {
				return fmt.Errorf("%w: outbox entry %x of channel %s", errCorrupt, k, channel)
			}
			e.Seq = binary.BigEndian.Uint64(k)
			out = append(out, e)
			return nil
		})
	})
	return out, err
}

// Delivered removes posts Discord confirmed (or that can never be
// delivered), together; a channel without posts left loses its bucket.
func (s *Store) Delivered(channel string, seqs ...uint64) error {
	if err := s.ready(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketOutbox)
		if root == nil {
			return nil
		}
		cb := root.Bucket([]byte(channel))
		if cb == nil {
			return nil
		}
		for _, seq := range seqs {
			if err := cb.Delete(binary.BigEndian.AppendUint64(nil, seq)); err != nil {
				return err
			}
		}
		if k, _ := cb.Cursor().First(); k == nil {
			return root.DeleteBucket([]byte(channel))
		}
		return nil
	})
}

// OutboxChannels lists the channels with posts waiting.
func (s *Store) OutboxChannels() ([]string, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	var out []string
	err := s.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketOutbox)
		if root == nil {
			return nil
		}
		return root.ForEachBucket(func(k []byte) error {
			out = append(out, string(k))
			return nil
		})
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
	if err := s.ready(); err != nil {
		return 0, time.Time{}, err
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketOutbox)
		if root == nil {
			return nil
		}
		return root.ForEachBucket(func(ch []byte) error {
			if skip != nil && skip(string(ch)) {
				return nil
			}
			return root.Bucket(ch).ForEach(func(_, v []byte) error {
				var e OutboxEntry
				if json.Unmarshal(v, &e) == nil && (oldest.IsZero() || e.Created.Before(oldest)) {
					oldest = e.Created
				}
				n++
				return nil
			})
		})
	})
	return n, oldest, err
}
