package ops

import (
	"log/slog"

	"conductor/store"
)

// OpenDatabase opens the bot's database (CONDUCTOR_DB) for the shards of
// cfg (all of them: the whole bot, as shard 0 of 1). It warns first when the file cannot be written (a volume mounted
// for another user is the usual cause: said before bbolt's bare
// "permission denied"), and loudly when the file holds games of servers
// this shard does not serve, which would wait forever; it refuses a file
// a reshard left half done.
func OpenDatabase(cfg Config, log *slog.Logger) (*store.Store, error) {
	if warning, err := CheckDatabaseWritable(cfg.DBPath); err != nil {
		return nil, err
	} else if warning != "" {
		log.Warn(warning)
	}
	st, err := store.Open(cfg.DBPath, nil)
	if err != nil {
		return nil, err // the store says what to do about a locked file
	}
	shard, err := CheckShard(st, cfg.storeShard())
	if err != nil {
		st.Close()
		return nil, err
	}
	if problem := shard.Problem(); problem != "" {
		log.Error(problem, "foreign_servers", shard.ForeignServers, "foreign_live_games", shard.ForeignLive,
			"foreign_archived_games", shard.ForeignArchived, "database", cfg.DBPath)
	}
	return st, nil
}
