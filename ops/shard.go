package ops

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"conductor/store"
)

// ShardFor returns the shard that receives a server's events: Discord sends
// guild g's to shard (g >> 22) % count. Records without a server (DMs,
// guild "") and terminal games (guild "local") belong to shard 0, which
// receives the DMs.
func ShardFor(guild string, count int) int {
	if count <= 1 {
		return 0
	}
	id, err := strconv.ParseUint(guild, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// ErrReshardPending: the database is marked by a conductor reshard that did
// not finish; serving it could lose or double games.
var ErrReshardPending = errors.New("an unfinished reshard")

// ShardCheck is what a shard finds in its database at start.
type ShardCheck struct {
	Shard store.ShardIdentity
	// Previous is the shard the file was served as before (Known false for
	// a file that never recorded one).
	Previous      store.ShardIdentity
	PreviousKnown bool
	// Foreign counts the records of servers that belong to other shards:
	// this shard receives none of their interactions.
	ForeignServers, ForeignLive, ForeignArchived int
}

// CheckShard looks at the database a shard is about to serve: it refuses a
// file left marked by an unfinished reshard, counts the games of servers
// that are not this shard's, and records that the file now serves me.
func CheckShard(st *store.Store, me store.ShardIdentity) (*ShardCheck, error) {
	if from, to, ok, err := st.ReshardPending(); err != nil {
		return nil, err
	} else if ok {
		return nil, fmt.Errorf("%w: %s is marked by a `conductor reshard --from %d --to %d` that did not finish; "+
			"run that command again, with every shard's database and every bot stopped, before starting the bot",
			ErrReshardPending, st.Path(), from, to)
	}
	c := &ShardCheck{Shard: me}
	var err error
	if c.Previous, c.PreviousKnown, err = st.Shard(); err != nil {
		return nil, err
	}
	// One seek per server (store.Guilds), and counting only the games of
	// servers that are not this shard's: the start does not read every
	// game.
	guilds, err := st.Guilds()
	if err != nil {
		return nil, err
	}
	for _, guild := range guilds {
		if ShardFor(guild, me.Count) == me.ID {
			continue
		}
		live, archived, err := st.GuildCounts(guild)
		if err != nil {
			return nil, err
		}
		c.ForeignServers++
		c.ForeignLive += live
		c.ForeignArchived += archived
	}
	if err := st.SetShard(me); err != nil {
		return nil, err
	}
	return c, nil
}

// Problem says, loudly, what is wrong with the database this shard serves
// and the command that fixes it; "" when nothing is.
func (c *ShardCheck) Problem() string {
	moved := c.PreviousKnown && c.Previous != c.Shard
	if c.ForeignServers == 0 && !moved {
		return ""
	}
	var b strings.Builder
	if c.ForeignServers > 0 {
		fmt.Fprintf(&b, "%d live games and %d archived games in this database are of %d servers that other shards serve "+
			"with %d shards: shard %d never receives their interactions, so those games are stuck. ",
			c.ForeignLive, c.ForeignArchived, c.ForeignServers, c.Shard.Count, c.Shard.ID)
	}
	from := c.Shard.Count
	if moved {
		fmt.Fprintf(&b, "This database was last served as %v and now serves %v. ", c.Previous, c.Shard)
		from = c.Previous.Count
	}
	fmt.Fprintf(&b, "Stop every shard's bot and run, with each shard's database in shard order: %s (see docs/deploy.md)",
		ReshardCommand(from, c.Shard.Count, nil))
	return b.String()
}

// ReshardCommand is the command line that moves every server's records to
// the database of its shard.
func ReshardCommand(from, to int, paths []string) string {
	n := max(from, to)
	files := paths
	if len(files) != n {
		files = make([]string, n)
		for i := range files {
			files[i] = fmt.Sprintf("SHARD%d.db", i)
		}
	}
	return fmt.Sprintf("conductor reshard --from %d --to %d %s", from, to, strings.Join(files, " "))
}
