package ops

import (
	"fmt"
	"log/slog"

	"conductor/store"
)

// OpenDatabase opens the bot's database (CONDUCTOR_DB) for the shards of
// cfg: a bbolt file (all of them: the whole bot, as shard 0 of 1; or one
// shard), or PostgreSQL (postgres://…). It warns first when the file cannot be written (a volume mounted
// for another user is the usual cause: said before bbolt's bare
// "permission denied"), and loudly when the file holds games of servers
// this shard does not serve, which would wait forever; it refuses a file
// a reshard left half done.
func OpenDatabase(cfg Config, log *slog.Logger) (*store.Store, error) {
	if store.IsPostgres(cfg.DBPath) {
		return openPostgres(cfg)
	}
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

// openPostgres opens the bot's PostgreSQL database for this process alone
// (as bbolt locks its file), or for the fleet's processes, refusing one a conductor migrate --to has not
// finished copying into.
func openPostgres(cfg Config) (*store.Store, error) {
	// A fleet's processes (a known shard count: fleet.go) share it.
	opts := &store.Options{Exclusive: cfg.ShardCount == 0, Shared: cfg.ShardCount > 0}
	st, err := store.Open(cfg.DBPath, opts)
	if err != nil {
		return nil, err
	}
	if err := CheckCopy(st); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// CheckCopy refuses a database that a conductor migrate --to has not
// finished copying into: serving it would lose the games not yet copied.
func CheckCopy(st *store.Store) error {
	c, err := st.CopyState()
	if err != nil || c == nil || !c.Finished.IsZero() {
		return err
	}
	return fmt.Errorf("%w: %s is the target of a `conductor migrate --to` from %s that has not finished; "+
		"run it again (it goes on where it stopped) before starting the bot, or start the bot on the file",
		store.ErrCopyPending, st.Path(), c.Source)
}
