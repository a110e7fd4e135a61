package commands

import "conductor/store"

// Fleet is the shards this process serves when several processes share
// one database (ops.Fleet): the deadlines it fires, the bots' turns it
// plays and the posts it delivers are those of its shards' servers, and a
// move commits only while the process holds the lease on its server's
// shard. A nil Fleet serves every game.
type Fleet interface {
	// Owned is the shards served now (nil: all).
	Owned() *store.Owned
	// Fence is the lease a move in the guild's game commits under (nil:
	// none).
	Fence(guild string) *store.Fence
}

// owned is the shards cfg's fleet serves now; nil: every shard.
func owned(f Fleet) *store.Owned {
	if f == nil {
		return nil
	}
	return f.Owned()
}

// fenceOf is the fence of a move in the guild's game; nil without a fleet.
func fenceOf(f Fleet, guild string) *store.Fence {
	if f == nil {
		return nil
	}
	return f.Fence(guild)
}
