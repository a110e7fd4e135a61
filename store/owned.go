package store

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
)

// Several processes serving one database each serve the games of their
// shards' servers: the deadlines they fire and the outbox queues they
// deliver are those of the servers whose shard, (guild_id >> 22) % count,
// they hold a lease on. A record without a server (a DM) is shard 0's, as
// Discord sends DMs to shard 0.

// Owned is the shards a process serves: Shards of a bot of Count shards.
// A nil *Owned is every shard.
type Owned struct {
	Count  int
	Shards []int
}

// ShardOf is the shard of a guild's events at count shards; a record
// without a server (or an id that is not one) is shard 0's.
func ShardOf(guild string, count int) int {
	id, err := strconv.ParseUint(guild, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// Has reports whether the guild's games are served by these shards.
func (o *Owned) Has(guild string) bool {
	if o == nil {
		return true
	}
	return slices.Contains(o.Shards, ShardOf(guild, o.Count))
}

// DueOf is Due for the games of o's shards only.
func (s *Store) DueOf(o *Owned, until time.Time, limit int) ([]DueGame, error) {
	var out []DueGame
	if limit <= 0 {
		return nil, s.ready()
	}
	err := s.viewOne(func(t txn) (err error) {
		out, err = t.dueOf(o, until, limit)
		return err
	})
	return out, err
}

// NextDueOf is NextDue for the games of o's shards only.
func (s *Store) NextDueOf(o *Owned) (d DueGame, ok bool, err error) {
	out, err := s.DueOf(o, time.Unix(0, 1<<63-1), 1)
	if err != nil || len(out) == 0 {
		return d, false, err
	}
	return out[0], true, nil
}

// OutboxChannelsOf lists the queues with posts waiting whose first post
// is for a server of o's shards: a queue holds the posts of one table, or
// a member's DMs from tables of several servers, delivered in order, each
// post by the process serving its server (the sender stops at a post of
// another's server and that process carries on).
func (s *Store) OutboxChannelsOf(o *Owned) ([]string, error) {
	if o == nil {
		return s.OutboxChannels()
	}
	var out []string
	err := s.viewOne(func(t txn) error {
		heads, err := t.queueHeads()
		if err != nil {
			return err
		}
		out = nil
		for _, h := range heads {
			var e OutboxEntry
			if json.Unmarshal(h.Data, &e) != nil || o.Has(e.Guild) {
				// A post that cannot be read is shown by the sender's
				// error, wherever it is.
				out = append(out, h.Queue)
			}
		}
		return nil
	})
	return out, err
}
