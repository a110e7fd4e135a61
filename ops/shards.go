package ops

import (
	"fmt"
	"strconv"
	"strings"

	"conductor/bot"
	"conductor/store"
)

// The shard settings: CONDUCTOR_SHARDS, the shards this process runs ("all", the default; a
// shard "3"; a range "0-7") and CONDUCTOR_SHARD_COUNT, the bot's count ("auto", the default:
// what Discord recommends in GET /gateway/bot; or a number). CONDUCTOR_SHARD_ID, the one
// shard of a process before a process could run several, still works and reads as
// CONDUCTOR_SHARDS.
//
// With a bbolt database a process runs all the shards (one file for every server) or one (a
// file per shard, as before; conductor reshard moves servers between such files). A range of
// some shards only would need a file per range, which nothing tends: ranges come with a
// database that processes share, PostgreSQL, where each process holds a lease on its range
// (fleet.go).

// shardSettings reads the shard settings; notices are for the log.
func shardSettings(getenv func(string) string, postgres bool) (shards *bot.ShardRange, count int, notices []string, err error) {
	countText := strings.TrimSpace(getenv("CONDUCTOR_SHARD_COUNT"))
	switch {
	case countText == "" || strings.EqualFold(countText, "auto"):
	default:
		if count, err = strconv.Atoi(countText); err != nil || count < 1 {
			return nil, 0, nil, badSetting("CONDUCTOR_SHARD_COUNT=%q: give auto (the count Discord recommends) or a number of shards, 1 or more", countText)
		}
	}
	shardsText := strings.TrimSpace(getenv("CONDUCTOR_SHARDS"))
	if shards, err = bot.ParseShardRange(shardsText); err != nil {
		return nil, 0, nil, badSetting("CONDUCTOR_SHARDS=%v", err)
	}
	if idText := strings.TrimSpace(getenv("CONDUCTOR_SHARD_ID")); idText != "" {
		id, err := strconv.Atoi(idText)
		if err != nil || id < 0 {
			return nil, 0, nil, badSetting("CONDUCTOR_SHARD_ID=%q: give a shard number, 0 or more (or use CONDUCTOR_SHARDS)", idText)
		}
		old := &bot.ShardRange{From: id, To: id}
		if shardsText != "" && (shards == nil || *shards != *old) {
			return nil, 0, nil, badSetting("CONDUCTOR_SHARD_ID=%d and CONDUCTOR_SHARDS=%s disagree: set CONDUCTOR_SHARDS alone", id, shardsText)
		}
		if shardsText == "" {
			notices = append(notices, fmt.Sprintf("CONDUCTOR_SHARD_ID=%d is read as CONDUCTOR_SHARDS=%d: this process runs shard %d alone", id, id, id))
		}
		shards = old
	}
	switch {
	case shards == nil && count > 1 && countText != "" && shardsText == "":
		// Until processes could run several shards, a count alone ran shard 0
		// (CONDUCTOR_SHARD_ID's default); now it would run them all, beside
		// the processes that run the others.
		return nil, 0, nil, badSetting("CONDUCTOR_SHARD_COUNT=%d without CONDUCTOR_SHARDS: this used to run shard 0 alone, and a process now runs every shard unless told; "+
			"set CONDUCTOR_SHARDS=all to run all %d shards in this process (one database for every server), or CONDUCTOR_SHARDS=0 to go on running shard 0 alone (see docs/deploy.md)", count, count)
	case shards == nil:
	case count == 0:
		return nil, 0, nil, badSetting("CONDUCTOR_SHARDS=%v with CONDUCTOR_SHARD_COUNT=auto: a process that runs some of the shards must agree with the others on the count; set CONDUCTOR_SHARD_COUNT", *shards)
	case shards.To >= count:
		return nil, 0, nil, badSetting("CONDUCTOR_SHARDS=%v with CONDUCTOR_SHARD_COUNT=%d: the shards are numbered 0 to %d", *shards, count, count-1)
	case shards.From == 0 && shards.To == count-1:
		shards = nil // all of them
	case shards.From != shards.To && !postgres:
		return nil, 0, nil, badSetting("CONDUCTOR_SHARDS=%v of %d: a bbolt database (CONDUCTOR_DB) serves every shard or one; run them all in this process (CONDUCTOR_SHARDS=all) or one per process, each with its own database (see docs/deploy.md)", *shards, count)
	}
	return shards, count, notices, nil
}

// allShards reports whether the process runs every shard.
func (cfg Config) allShards() bool { return cfg.Shards == nil }

// storeShard is the shard the database serves: the whole bot, as one shard of one, when the
// process runs them all (every server's games are in it whatever the count), else the
// process's one shard.
func (cfg Config) storeShard() store.ShardIdentity {
	if cfg.allShards() {
		return store.ShardIdentity{ID: 0, Count: 1}
	}
	return store.ShardIdentity{ID: cfg.Shards.From, Count: cfg.ShardCount}
}
